#if CLI
    import Foundation
    import SwitchyardHTTP

    /// The URLs `switchyard fetch` downloads, and the file each goes to.
    struct FetchList: Sendable {
        /// One download.
        struct Item: Hashable, Sendable {
            var url: String
            /// The file's name in the output folder.
            var name: String
            /// The SHA-256 the file must have (lower-case hex), from its list line.
            var sha256: String? = nil
        }

        /// Why the list cannot be used, naming where.
        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        var items: [Item] = []

        /// The URLs of the arguments, then those of the list file: one per line (LF, CRLF or CR), optionally followed
        /// by `sha256=HEX` (the file must have that SHA-256); blank lines and lines starting with `#` are skipped;
        /// anything else that is not an `http(s)` URL with a host, or a malformed digest, is an error naming its line.
        static func read(arguments: [String], listFile: String?) throws -> FetchList {
            var urls: [(url: String, path: String, sha256: String?)] = []
            for (index, argument) in arguments.enumerated() {
                switch parse(argument) {
                case .failure(let failure):
                    throw Failure(
                        description: "argument \(index + 1): \(failure.description): \(TerminalText.visible(argument))")
                case .success(let path): urls.append((argument, path, nil))
                }
            }
            if let listFile {
                let text: String
                do {
                    text = try String(contentsOfFile: listFile, encoding: .utf8)
                } catch {
                    throw Failure(description: "\(listFile): cannot read the list (\(error.localizedDescription))")
                }
                // Lines end in LF, CRLF or CR; a byte-order mark (lists saved by Windows editors) is skipped.
                let lines = text.drop { $0 == "\u{FEFF}" }.split(
                    omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                for (number, rawLine) in lines.enumerated() {
                    let line = trimmed(rawLine)
                    if line.isEmpty || line.hasPrefix("#") { continue }
                    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                    let url = fields[0]
                    let parsed = parse(url)
                    let reason: String? =
                        switch parsed {
                        case .failure(let failure): failure.description
                        case .success: fields.count > 1 ? problem(withDigest: fields[1...]) : nil
                        }
                    guard let reason else {
                        let sha256 = fields.count > 1 ? String(fields[1].dropFirst("sha256=".count)).lowercased() : nil
                        urls.append((url, (try? parsed.get()) ?? "", sha256))
                        continue
                    }
                    throw Failure(description: "\(listFile):\(number + 1): \(reason): \(TerminalText.visible(line))")
                }
            }
            var list = FetchList()
            // Names differing only in case are made unique too: they are one file on case-insensitive file systems.
            var taken: Set<String> = []
            for (url, path, sha256) in urls {
                var name = fileName(forPath: path)
                if taken.contains(name.lowercased()) {
                    let (stem, suffix) = split(name)
                    var counter = 2
                    func numbered() -> String { limited(stem, "-\(counter)\(suffix)") }
                    while taken.contains(numbered().lowercased()) { counter += 1 }
                    name = numbered()
                }
                taken.insert(name.lowercased())
                list.items.append(Item(url: url, name: name, sha256: sha256))
            }
            return list
        }

        /// The percent-encoded path of `text`, or what is wrong with it as a URL to fetch (one parse per URL).
        static func parse(_ text: String) -> Result<String, Failure> {
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
                return .failure(Failure(description: "not a URL"))
            }
            guard scheme == "http" || scheme == "https" else {
                return .failure(Failure(description: "unsupported scheme \"\(scheme)\" (http and https are)"))
            }
            guard let host = components.host, !host.isEmpty else { return .failure(Failure(description: "no host")) }
            return .success(components.percentEncodedPath)
        }

        /// What is wrong with the fields after a list line's URL (one `sha256=` and 64 hex digits), or nil.
        static func problem(withDigest fields: ArraySlice<String>) -> String? {
            guard fields.count == 1, let field = fields.first, field.lowercased().hasPrefix("sha256=") else {
                return "after the URL, only sha256=HEX may follow"
            }
            let digits = String(field.dropFirst("sha256=".count))
            return DownloadChecksum.sha256(expected: digits).problem == nil ? nil : "sha256= needs 64 hex digits"
        }

        /// The longest file name, in UTF-8 bytes, a URL's file gets: the file system's 255 less the
        /// `.partial.validators` a resumable download adds beside it.
        static let maximumNameLength = 255 - ".partial.validators".utf8.count

        /// The last segment of a percent-encoded URL path, decoded, as a safe file name (`index.html` when there is
        /// none); a longer name than ``maximumNameLength`` keeps its extension and loses the end of its stem.
        static func fileName(forPath path: String) -> String {
            let last = path.split(separator: "/").last.map(String.init) ?? ""
            let decoded = last.contains("%") ? last.removingPercentEncoding ?? last : last
            let safe =
                decoded.contains(where: { $0 == "/" || $0 == "\0" })
                ? String(decoded.map { $0 == "/" || $0 == "\0" ? "_" : $0 }) : decoded
            guard !(safe.isEmpty || safe == "." || safe == "..") else { return "index.html" }
            let (stem, suffix) = split(safe)
            return limited(stem, suffix)
        }

        /// `stem + suffix`, the stem cut so that the whole fits ``maximumNameLength``: at a character boundary, or at a
        /// Unicode scalar's when one character is longer than that (a long emoji sequence); the suffix (an extension,
        /// a counter) is kept whole. A stem cut to nothing becomes `index`.
        static func limited(_ stem: String, _ suffix: String) -> String {
            guard stem.utf8.count + suffix.utf8.count > maximumNameLength else { return stem + suffix }
            let room = maximumNameLength - suffix.utf8.count
            var kept = String(prefix(of: stem, fitting: room) { $0.utf8.count })
            if kept.isEmpty {
                kept = String(
                    String.UnicodeScalarView(prefix(of: stem.unicodeScalars, fitting: room, width: UTF8.width)))
            }
            return (kept.isEmpty ? "index" : kept) + suffix
        }

        /// The longest prefix of `elements` whose UTF-8 widths add up to at most `room` bytes.
        private static func prefix<Elements: Collection>(
            of elements: Elements, fitting room: Int, width: (Elements.Element) -> Int
        ) -> Elements.SubSequence {
            var used = 0
            for index in elements.indices {
                used += width(elements[index])
                if used > room { return elements[..<index] }
            }
            return elements[...]
        }

        /// `line` without the white space (Unicode's, new lines included) at either end.
        static func trimmed(_ line: Substring) -> String {
            let start = line.firstIndex { !$0.isWhitespace } ?? line.endIndex
            let end = line[start...].lastIndex { !$0.isWhitespace }.map(line.index(after:)) ?? start
            return String(line[start..<end])
        }

        /// A name's stem and extension (`.` and at most 32 bytes after it; a longer "extension" is part of the stem).
        private static func split(_ name: String) -> (String, String) {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.utf8[dot...].count <= 33 else {
                return (name, "")
            }
            return (String(name[..<dot]), String(name[dot...]))
        }
    }
#endif
