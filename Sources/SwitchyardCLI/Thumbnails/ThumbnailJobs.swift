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
    }

    /// The command's sources, expanded: files, folders (recursively: files with an image extension), `http(s)`
    /// URLs, and list files (`-i`: one path or URL per line, `#` comments). Outputs keep a folder's structure
    /// below it; two sources that would write one output get `-2`, `-3`… suffixes. A folder's other files are
    /// listed in ``Expansion/ignored`` (hidden files and folders are not).
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
            var named: [(ImageSource, String, String)] = []  // source, name, output stem (relative)
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
                    let path = URL(string: entry)?.path ?? ""
                    let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                    named.append((.url(entry), entry, stem.isEmpty ? "image" : stem))
                    continue
                }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: entry, isDirectory: &isFolder) else {
                    throw Failure(description: "\(origin): \"\(entry)\" is neither a file, a folder nor a URL")
                }
                if isFolder.boolValue {
                    let found = try filesBelow(entry)
                    for relative in found.images {
                        named.append((.file(entry + "/" + relative), entry + "/" + relative, stem(relative)))
                    }
                    ignored += found.others.map { entry + "/" + $0 }
                } else {
                    named.append((.file(entry), entry, stem((entry as NSString).lastPathComponent)))
                }
            }
            var used: Set<String> = []
            let jobs = named.map { source, name, stem in
                var output = stem + "." + format.fileExtension
                var suffix = 2
                while !used.insert(output).inserted {
                    output = stem + "-\(suffix)." + format.fileExtension
                    suffix += 1
                }
                return ThumbnailJob(source: source, name: name, output: output)
            }
            return Expansion(jobs: jobs, ignored: ignored)
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
