/// The parsers of the files a ``MemoryPressureSource`` reads: pure functions from a file's text to values, plus one
/// message per line they could not parse. They never fail as a whole: a bad line is reported and skipped.
///
/// `file` is only used to word the messages (`"/sys/fs/cgroup/memory.events line 2: …"`). Every parser is O(size of
/// the text) and thread-safe.
enum MemoryPressureFormats {
    /// What parsing one file gave: the value, and one message per line that could not be parsed.
    struct Parsed<Value> {
        var value: Value
        var problems: [String] = []
    }

    /// PSI averages from a `memory.pressure` or `/proc/pressure/memory` file.
    struct StallAverages: Hashable {
        /// `some avg10`, in percent.
        var some: Double?
        /// `full avg10`, in percent.
        var full: Double?
    }

    /// The two `/proc/meminfo` fields the monitor uses, in bytes.
    struct Meminfo: Hashable {
        var totalBytes: UInt64?
        var availableBytes: UInt64?
    }

    /// One line of `/proc/self/cgroup`: `hierarchy-ID:controller-list:cgroup-path`.
    struct CgroupMembership: Hashable {
        /// `"0"` for the cgroup v2 (unified) hierarchy.
        var hierarchyID: String
        /// The v1 controllers bound to the hierarchy (`["cpu", "cpuacct"]`); empty for cgroup v2.
        var controllers: [String]
        /// The process's cgroup, relative to the hierarchy's root (`"/user.slice/app.scope"`).
        var path: String
    }

    // MARK: Lines

    /// The non-blank lines of `text`, trimmed, with their 1-based line numbers.
    static func lines(of text: String) -> [(number: Int, text: Substring)] {
        let all = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        return all.enumerated().compactMap { index, line in
            let trimmed = trim(line)
            return trimmed.isEmpty ? nil : (index + 1, trimmed)
        }
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trim(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isBlank($0) }),
            let end = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return text[start...end]
    }

    /// The message for a line that could not be parsed.
    static func problem(_ file: String, _ number: Int, expected: String, got line: Substring) -> String {
        "\(file) line \(number): expected \(expected), got \"\(line)\""
    }

    /// Splits a line at runs of spaces and tabs.
    static func fields(_ line: Substring) -> [Substring] {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    // MARK: Shared formats

    /// A file holding one unsigned number (`memory.current`, `memory.usage_in_bytes`): the number, or `nil` and a
    /// problem if the file holds anything else (an empty file included).
    static func parseNumber(_ text: String, file: String) -> Parsed<UInt64?> {
        let lines = lines(of: text)
        guard let first = lines.first else {
            return Parsed(value: nil, problems: ["\(file): empty, expected a number"])
        }
        guard lines.count == 1, let number = UInt64(first.text) else {
            let bad = lines.count == 1 ? first : lines[1]
            return Parsed(value: nil, problems: [problem(file, bad.number, expected: "one number", got: bad.text)])
        }
        return Parsed(value: number)
    }

    /// A flat keyed file, one `key value` pair per line (`memory.events`, `memory.stat`): the pairs it could parse.
    /// A key that appears twice keeps its last value.
    static func parseKeyedNumbers(_ text: String, file: String) -> Parsed<[String: UInt64]> {
        var result = Parsed<[String: UInt64]>(value: [:])
        for (number, line) in lines(of: text) {
            let parts = fields(line)
            guard parts.count == 2, let value = UInt64(parts[1]) else {
                result.problems.append(problem(file, number, expected: "\"<key> <number>\"", got: line))
                continue
            }
            result.value[String(parts[0])] = value
        }
        return result
    }

    /// A PSI file (`some avg10=1.23 avg60=0.50 avg300=0.10 total=12345` and a `full` line): the two `avg10`
    /// values. Unknown line kinds (a future kernel's) are ignored; a `some` or `full` line without a numeric
    /// `avg10=` is a problem.
    static func parsePressure(_ text: String, file: String) -> Parsed<StallAverages> {
        var result = Parsed(value: StallAverages())
        for (number, line) in lines(of: text) {
            let parts = fields(line)
            guard let kind = parts.first, kind == "some" || kind == "full" else { continue }
            let average = parts.dropFirst().first { $0.hasPrefix("avg10=") }.flatMap { Double($0.dropFirst(6)) }
            guard let average, average.isFinite, average >= 0 else {
                result.problems.append(problem(file, number, expected: "\"\(kind) avg10=<percent> …\"", got: line))
                continue
            }
            if kind == "some" { result.value.some = average } else { result.value.full = average }
        }
        return result
    }

    // MARK: /proc

    /// `/proc/meminfo` (`MemTotal:       24576000 kB`): `MemTotal` and `MemAvailable` in bytes. Lines are
    /// `<Key>: <number>` with an optional `kB` unit; malformed lines are problems even if their key is not used.
    static func parseMeminfo(_ text: String, file: String) -> Parsed<Meminfo> {
        var result = Parsed(value: Meminfo())
        for (number, line) in lines(of: text) {
            let expected = "\"<Key>: <number> [kB]\""
            guard let colon = line.firstIndex(of: ":") else {
                result.problems.append(problem(file, number, expected: expected, got: line))
                continue
            }
            let parts = fields(line[line.index(after: colon)...])
            let unit: UInt64? =
                switch parts.count {
                case 1: 1
                case 2 where parts[1] == "kB": 1024
                default: nil
                }
            guard let unit, let value = UInt64(parts[0]) else {
                result.problems.append(problem(file, number, expected: expected, got: line))
                continue
            }
            let (bytes, overflow) = value.multipliedReportingOverflow(by: unit)
            switch line[..<colon] {
            case "MemTotal": result.value.totalBytes = overflow ? nil : bytes
            case "MemAvailable": result.value.availableBytes = overflow ? nil : bytes
            default: break
            }
        }
        return result
    }

    /// `/proc/self/cgroup`: one membership per well-formed line (`4:memory:/user.slice`, `0::/app.slice`).
    static func parseProcCgroup(_ text: String, file: String) -> Parsed<[CgroupMembership]> {
        var result = Parsed<[CgroupMembership]>(value: [])
        for (number, line) in lines(of: text) {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, parts[2].hasPrefix("/") else {
                result.problems.append(problem(file, number, expected: "\"<id>:<controllers>:/<path>\"", got: line))
                continue
            }
            let controllers = parts[1].split(separator: ",").map(String.init)
            result.value.append(
                CgroupMembership(
                    hierarchyID: String(parts[0]), controllers: controllers,
                    path: String(parts[2])))
        }
        return result
    }
}
