import Foundation

/// The line-counting anchors: `wc -l` as a subprocess, `readLine()` on the file as standard input, and reading the
/// whole file into a `String` and splitting it.
enum LineAnchors {
    /// `wc -l PATH`, run as a child process; returns its count.
    static func wc(_ path: String) -> Int? {
        ChildProcess.output("/usr/bin/wc", arguments: ["-l", path])?.split(separator: " ").first.flatMap { Int($0) }
    }

    /// `switchyard lines PATH` (the command beside this benchmark's executable), run as a child process; returns
    /// its count.
    static func switchyardLines(_ executable: String, _ path: String) -> Int? {
        ChildProcess.output(executable, arguments: ["lines", path])?.split(separator: " ").first.flatMap { Int($0) }
    }

    /// The `switchyard` executable built beside this benchmark, or nil.
    static let switchyardExecutable: String? = {
        let path = ChildProcess.builtBeside("switchyard")
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// `readLine()` until nil in a child process of this executable whose standard input is the file (so the
    /// anchor, like `wc -l`, includes starting a process: a few milliseconds).
    static func readLines(_ path: String) -> Int {
        guard let file = FileHandle(forReadingAtPath: path) else { return -1 }
        defer { try? file.close() }
        return ChildProcess.probe("readline:-", standardInput: file).map { Int($0) } ?? -1
    }

    /// Runs in the child: counts `readLine()` results from standard input and prints the count.
    static func countStandardInputLines() {
        var count = 0
        while readLine(strippingNewline: true) != nil { count += 1 }
        print(count)
    }

    /// The whole file as one `String`, split at `\n` (the idiom that holds the file in memory twice).
    static func wholeFileSplit(_ path: String) -> Int {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return -1 }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count - (text.hasSuffix("\n") ? 1 : 0)
    }
}
