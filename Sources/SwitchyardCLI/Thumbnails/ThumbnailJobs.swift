#if CLI && Images
    import Foundation
    import SwitchyardImages

    /// What `switchyard thumbnails` makes: one job per source, with the output file it writes.
    struct ThumbnailJob: Sendable {
        let source: ImageSource
        /// How the source is named in progress and errors: the path or URL as given or found.
        let name: String
        /// The output's path inside the output folder.
        let output: String
        /// The output name this source shares with another (its source's name with the format's extension), when it
        /// does: ``output`` was then made distinct (or another source's was), and the summary says which source
        /// each output came from.
        var sharedOutput: String? = nil
    }

    /// The command's sources, expanded: files, folders (recursively: files with an image extension), `http(s)`
    /// URLs, and list files (`-i`: one path or URL per line, `#` comments). Outputs keep a folder's structure
    /// below it. A folder's other files are listed in ``Expansion/ignored`` (hidden files and folders are not).
    ///
    /// An output is named after its source: `a.jpg` → `a.webp`. Sources that would share an output name (compared
    /// without regard to case: one file on a case-insensitive file system) are told apart by their names alone,
    /// whatever the order their renders finish in: when their extensions differ, each output keeps its source's
    /// (`a.jpg` → `a.jpg.webp`, `a.png` → `a.png.webp`); those that still share one are numbered in the order the
    /// sources are given (`x/a.jpg` → `a.webp`, `y/a.jpg` → `a-2.webp`). Each such job has its
    /// ``ThumbnailJob/sharedOutput``.
    enum ThumbnailJobs {
        /// The jobs, and the files found in folders that were left out for want of an image extension.
        struct Expansion {
            var jobs: [ThumbnailJob]
            var ignored: [String]
        }

        struct Failure: Error, CustomStringConvertible {
            let description: String
        }

        static let imageExtensions: Set<String> = [
            "jpg", "jpeg", "png", "webp", "gif", "tif", "tiff", "avif", "heic", "heif", "jxl", "jp2",
        ]

        static func expand(_ arguments: [String], listFile: String?, format: ImageFormat) throws -> Expansion {
            // Each source, how it is named, its output's path without the extension, and its own extension.
            var named: [(source: ImageSource, name: String, stem: String, fileExtension: String)] = []
            var ignored: [String] = []
            var entries = arguments.map { ($0, "argument") }
            if let listFile {
                guard let text = try? String(contentsOfFile: listFile, encoding: .utf8) else {
                    throw Failure(description: "cannot read the list \(listFile)")
                }
                // Any line ending ("\r\n" is one Character, which a split on "\n" would not see).
                for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                    .enumerated()
                {
                    let entry = line.trimmingCharacters(in: .whitespacesAndNewlines)
                    if entry.isEmpty || entry.hasPrefix("#") { continue }
                    entries.append((entry, "\(listFile):\(number + 1)"))
                }
            }
            for (entry, origin) in entries {
                if entry.hasPrefix("http://") || entry.hasPrefix("https://") {
                    let last = ((URL(string: entry)?.path ?? "") as NSString).lastPathComponent
                    let stem = (last as NSString).deletingPathExtension
                    named.append((.url(entry), entry, stem.isEmpty ? "image" : stem, (last as NSString).pathExtension))
                    continue
                }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: entry, isDirectory: &isFolder) else {
                    throw Failure(description: "\(origin): \"\(entry)\" is neither a file, a folder nor a URL")
                }
                if isFolder.boolValue {
                    let found = try filesBelow(entry)
                    for relative in found.images {
                        let path = entry + "/" + relative
                        named.append((.file(path), path, stem(relative), (relative as NSString).pathExtension))
                    }
                    ignored += found.others.map { entry + "/" + $0 }
                } else {
                    let last = (entry as NSString).lastPathComponent
                    named.append((.file(entry), entry, stem(last), (last as NSString).pathExtension))
                }
            }
            let names = outputs(named.map { (stem: $0.stem, fileExtension: $0.fileExtension) }, format: format)
            let jobs = zip(named, names).map { source, output in
                ThumbnailJob(source: source.source, name: source.name, output: output.name, sharedOutput: output.shared)
            }
            return Expansion(jobs: jobs, ignored: ignored)
        }

        /// The output names of sources with these stems (relative paths without the extension) and extensions, in
        /// order, as ``ThumbnailJobs`` describes: each with the name it shares with another source, if it does.
        /// - Complexity: O(n) for n sources (more when many share one name: each number is tried in turn).
        static func outputs(
            _ sources: [(stem: String, fileExtension: String)], format: ImageFormat
        ) -> [(name: String, shared: String?)] {
            let suffix = "." + format.fileExtension
            // The extensions (in lower case) of the sources that would get each output name (in lower case).
            var extensions: [String: Set<String>] = [:]
            var counts: [String: Int] = [:]
            for source in sources {
                let plain = (source.stem + suffix).lowercased()
                extensions[plain, default: []].insert(source.fileExtension.lowercased())
                counts[plain, default: 0] += 1
            }
            var used: Set<String> = []  // in lower case
            return sources.map { source -> (name: String, shared: String?) in
                let plain = source.stem + suffix
                let shared = counts[plain.lowercased()]! > 1
                let kept = shared && extensions[plain.lowercased()]!.count > 1 && !source.fileExtension.isEmpty
                let middle = kept ? "." + source.fileExtension : ""
                var name = source.stem + middle + suffix
                var counter = 2
                while !used.insert(name.lowercased()).inserted {
                    name = source.stem + "-\(counter)" + middle + suffix
                    counter += 1
                }
                // Renamed for another group's name (`a.jpg.png` found beside `a.jpg` and `a.png`): shared as well.
                return (name, shared || name != plain ? plain : nil)
            }
        }

        /// The files below `folder`, relative to it, sorted: those with an image extension, and the others (hidden
        /// files and folders skipped; a link to a folder is not followed, and is named among the others).
        private static func filesBelow(_ folder: String) throws -> (images: [String], others: [String]) {
            guard let walker = FileManager.default.enumerator(atPath: folder) else {
                throw Failure(description: "cannot read the folder \(folder)")
            }
            var images: [String] = []
            var others: [String] = []
            while let relative = walker.nextObject() as? String {
                if (relative as NSString).lastPathComponent.hasPrefix(".") {
                    walker.skipDescendants()
                    continue
                }
                if imageExtensions.contains((relative as NSString).pathExtension.lowercased()) {
                    images.append(relative)
                } else if let other = describeOther(folder + "/" + relative, relative) {
                    others.append(other)
                }
            }
            return (images.sorted(), others.sorted())
        }

        /// How a found entry without an image extension is named among the left-out files; nil for a folder (its
        /// contents are walked). One `stat`, and an `lstat` for folders.
        private static func describeOther(_ path: String, _ relative: String) -> String? {
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return relative }
            var link = stat()
            guard lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK else { return nil }
            return relative + " (a link to a folder, not followed)"
        }

        private static func stem(_ relative: String) -> String { (relative as NSString).deletingPathExtension }
    }
#endif
