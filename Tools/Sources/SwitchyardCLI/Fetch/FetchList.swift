import Foundation

/// The URLs `switchyard fetch` downloads, and the file each goes to.
struct FetchList: Sendable {
    /// One download.
    struct Item: Hashable, Sendable {
        var url: String
        /// The file's name in the output folder.
        var name: String
    }

    /// Why the list cannot be used, naming where.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var items: [Item] = []

    /// The URLs of the arguments, then those of the list file: one per line; blank lines and lines starting with
    /// `#` are skipped; anything else that is not an `http(s)` URL with a host is an error naming its line.
    static func read(arguments: [String], listFile: String?) throws -> FetchList {
        var urls: [String] = []
        for (index, argument) in arguments.enumerated() {
            if let reason = problem(with: argument) {
                throw Failure(description: "argument \(index + 1): \(reason): \(TerminalText.visible(argument))")
            }
            urls.append(argument)
        }
        if let listFile {
            let text: String
            do {
                text = try String(contentsOfFile: listFile, encoding: .utf8)
            } catch {
                throw Failure(description: "\(listFile): cannot read the list (\(error.localizedDescription))")
            }
            for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
                if line.isEmpty || line.hasPrefix("#") { continue }
                if let reason = problem(with: line) {
                    throw Failure(description: "\(listFile):\(number + 1): \(reason): \(TerminalText.visible(line))")
                }
                urls.append(line)
            }
        }
        var list = FetchList()
        // Names differing only in case are made unique too: they are one file on case-insensitive file systems.
        var taken: Set<String> = []
        for url in urls {
            var name = fileName(for: url)
            if taken.contains(name.lowercased()) {
                let (stem, suffix) = split(name)
                var counter = 2
                while taken.contains("\(stem)-\(counter)\(suffix)".lowercased()) { counter += 1 }
                name = "\(stem)-\(counter)\(suffix)"
            }
            taken.insert(name.lowercased())
            list.items.append(Item(url: url, name: name))
        }
        return list
    }

    /// What is wrong with `text` as a URL to fetch, or nil.
    static func problem(with text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return "not a URL"
        }
        guard scheme == "http" || scheme == "https" else {
            return "unsupported scheme \"\(scheme)\" (http and https are)"
        }
        guard let host = components.host, !host.isEmpty else { return "no host" }
        return nil
    }

    /// The last path segment, percent-decoded, as a safe file name (`index.html` when there is none).
    static func fileName(for url: String) -> String {
        let path = URLComponents(string: url)?.percentEncodedPath ?? ""
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        let decoded = last.removingPercentEncoding ?? last
        let safe = decoded.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\0", with: "_")
        return safe.isEmpty || safe == "." || safe == ".." ? "index.html" : safe
    }

    private static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
}
