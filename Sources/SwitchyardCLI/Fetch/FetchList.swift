#if CLI
    import Foundation
    import SwitchyardHTTP

    /// The URLs `switchyard fetch` downloads, the file each goes to, and what was said about the input lines.
    struct FetchList: Sendable {
        /// One download.
        struct Item: Hashable, Sendable {
            var url: String
            /// The file's name in the output folder.
            var name: String
            /// The SHA-256 the file must have (lower-case hex), from its list line.
            var sha256: String? = nil
        }

        /// Why nothing can be fetched: the list cannot be read, or a URL argument is not one to fetch.
        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        /// What is said about one list line or argument, without stopping the others: an error (the line is not
        /// fetched) or a note (the line names a URL listed before, fetched once).
        struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
            enum Severity: String, Hashable, Sendable {
                case error, note
            }

            /// `LIST:LINE` or `argument N`.
            var location: String
            var severity: Severity
            var message: String

            /// `LOCATION: SEVERITY: MESSAGE`, as compilers write it (editors jump to it).
            var description: String { "\(location): \(severity.rawValue): \(message)" }
        }

        /// One download per distinct URL, in the order each was first listed (arguments first, then the list file).
        var items: [Item] = []
        /// The errors and notes, in input order.
        var diagnostics: [Diagnostic] = []

        /// The list lines that were not usable, each named by an error in ``diagnostics``.
        var badLines: Int { diagnostics.count(where: { $0.severity == .error }) }
        /// The lines and arguments that named a URL listed before (see ``identity(of:)``), each named by a note.
        var duplicates: Int { diagnostics.count(where: { $0.severity == .note }) }

        /// Where a URL was first listed, as a note about a later listing says it.
        private enum Origin {
            case argument(Int)
            case line(Int)

            var text: String {
                switch self {
                case .argument(let number): "given as argument \(number)"
                case .line(let number): "listed on line \(number)"
                }
            }
        }

        /// The URLs of the arguments, then those of the list file: one per line (LF, CRLF or CR), optionally followed
        /// by `sha256=HEX` (the file must have that SHA-256); blank lines and lines starting with `#` are skipped.
        ///
        /// A list line that is not an `http(s)` URL with a host, or has a malformed digest, is an error in
        /// ``diagnostics`` naming its line; the other lines are kept. A URL listed again (the same ``identity(of:)``)
        /// is fetched once, under the first listing's name, and the later listing gets a note naming the first; its
        /// digest applies when the first listing names none, and when both name different ones it is an error.
        /// - Throws: ``Failure`` when the list file cannot be read or an argument is not a URL to fetch.
        static func read(arguments: [String], listFile: String?) throws -> FetchList {
            var list = FetchList()
            var urls: [(url: String, path: String, sha256: String?)] = []
            var first: [String: (index: Int, origin: Origin)] = [:]  // by identity
            // Adds a parsed URL, or notes that it was listed before (an error when the digests disagree).
            func add(_ url: String, _ parsed: Parsed, sha256: String?, origin: Origin, location: String) {
                guard let (index, earlier) = first[parsed.identity] else {
                    first[parsed.identity] = (urls.count, origin)
                    urls.append((url, parsed.path, sha256))
                    return
                }
                let shown = TerminalText.visible(url)
                if let sha256, let known = urls[index].sha256, sha256 != known {
                    list.diagnostics.append(
                        Diagnostic(
                            location: location, severity: .error,
                            message: "\(shown) already \(earlier.text) with another sha256="))
                    return
                }
                var message = "\(shown) already \(earlier.text); fetched once"
                if let sha256, urls[index].sha256 == nil {
                    urls[index].sha256 = sha256
                    message += ", checked against this line's sha256="
                }
                list.diagnostics.append(Diagnostic(location: location, severity: .note, message: message))
            }
            for (index, argument) in arguments.enumerated() {
                switch parse(argument) {
                case .failure(let failure):
                    throw Failure(
                        description: "argument \(index + 1): \(failure.description): \(TerminalText.visible(argument))")
                case .success(let parsed):
                    add(argument, parsed, sha256: nil, origin: .argument(index + 1), location: "argument \(index + 1)")
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
                    let location = "\(listFile):\(number + 1)"
                    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                    let url = fields[0]
                    switch parse(url) {
                    case .failure(let failure):
                        list.diagnostics.append(
                            Diagnostic(
                                location: location, severity: .error,
                                message: "\(failure.description): \(TerminalText.visible(line))"))
                    case .success(let parsed):
                        if fields.count > 1, let problem = problem(withDigest: fields[1...]) {
                            list.diagnostics.append(
                                Diagnostic(
                                    location: location, severity: .error,
                                    message: "\(problem): \(TerminalText.visible(line))"))
                            continue
                        }
                        let sha256 = fields.count > 1 ? String(fields[1].dropFirst("sha256=".count)).lowercased() : nil
                        add(url, parsed, sha256: sha256, origin: .line(number + 1), location: location)
                    }
                }
            }
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

        /// A URL to fetch: its percent-encoded path (which names the file) and its ``identity(of:)``.
        struct Parsed: Sendable, Equatable {
            var path: String
            var identity: String
        }

        /// `text` as a URL to fetch, or what is wrong with it (one parse per URL).
        static func parse(_ text: String) -> Result<Parsed, Failure> {
            if let parsed = plainParse(text) { return .success(parsed) }
            return componentsParse(text)
        }

        /// ``parse(_:)`` through `URLComponents`, for every URL ``plainParse(_:)`` leaves.
        static func componentsParse(_ text: String) -> Result<Parsed, Failure> {
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
                return .failure(Failure(description: "not a URL"))
            }
            guard scheme == "http" || scheme == "https" else {
                return .failure(Failure(description: "unsupported scheme \"\(scheme)\" (http and https are)"))
            }
            guard let host = components.host, !host.isEmpty else { return .failure(Failure(description: "no host")) }
            return .success(Parsed(path: components.percentEncodedPath, identity: identity(of: components)))
        }

        /// What two listings of one URL have in common, RFC 3986's syntax-based normalisation: the scheme and host in
        /// lower case, the scheme's default port left out, an empty path as `/`, percent-escapes of unreserved
        /// characters (`%7E`) decoded and the others' hex digits in upper case; the fragment, which is never sent, is
        /// left out. User, password, path and query are otherwise compared as written.
        static func identity(of components: URLComponents) -> String {
            let userInfo = components.percentEncodedUser.map { user in
                normalizedEscapes(user) + (components.percentEncodedPassword.map { ":" + normalizedEscapes($0) } ?? "")
            }
            return identity(
                scheme: components.scheme?.lowercased() ?? "", userInfo: userInfo,
                host: components.host?.lowercased() ?? "", port: components.port,
                path: normalizedEscapes(components.percentEncodedPath),
                query: components.percentEncodedQuery.map(normalizedEscapes))
        }

        /// ``identity(of:)`` from parts already normalised (escapes decoded or upper-cased, scheme and host in lower
        /// case): the scheme's default port left out, an empty path as `/`.
        static func identity(
            scheme: String, userInfo: String? = nil, host: String, port: Int?, path: String, query: String?
        ) -> String {
            var text = scheme + "://"
            if let userInfo { text += userInfo + "@" }
            text += host
            if let port, port != (scheme == "https" ? 443 : 80) { text += ":\(port)" }
            text += path.isEmpty ? "/" : path
            if let query { text += "?" + query }
            return text
        }

        /// `text` with each `%XX` of an unreserved character (letters, digits, `-._~`) decoded and the other
        /// escapes' hex digits in upper case; anything else as it is.
        private static func normalizedEscapes(_ text: String) -> String {
            guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
            let bytes = Array(text.utf8)
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                    let high = hexDigit(bytes[index + 1]), let low = hexDigit(bytes[index + 2])
                else {
                    out.append(bytes[index])
                    index += 1
                    continue
                }
                let value = high << 4 | low
                if isUnreserved(value) {
                    out.append(value)
                } else {
                    out += [UInt8(ascii: "%"), upperHex(high), upperHex(low)]
                }
                index += 3
            }
            return String(decoding: out, as: UTF8.self)
        }

        static func hexDigit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }

        private static func upperHex(_ digit: UInt8) -> UInt8 {
            digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10
        }

        static func isUnreserved(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                true
            default: false
            }
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
