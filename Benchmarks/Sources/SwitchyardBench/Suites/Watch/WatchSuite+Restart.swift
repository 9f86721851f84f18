import Foundation

extension WatchSuite {
    // MARK: Restart coalescing

    /// The command both tools run on a change: it appends `START CONTENTS` to the file `$2`, START from
    /// `date +%s%N` as the run starts, CONTENTS the watched file `$1` as the run read it.
    static let runLogScript = "echo \"$(date +%s%N) $(cat \"$1\")\" >> \"$2\""

    /// Nanoseconds between two saves.
    static let savePace: UInt64 = 1_000_000

    static let restartGoal = "runs <= entr's runs, a run after the last save"

    /// What one tool did in one round.
    struct CommandRuns {
        /// Runs logged after the saves began (the run at start not counted).
        var runs: Int
        /// Whether the last run started after the last save (and read its contents).
        var finalStateSeen: Bool
    }

    /// What one round measured of each tool.
    struct RestartRound {
        var ours: CommandRuns?
        var anchor: CommandRuns?
        var problems: [String] = []
    }

    /// Editor saves of one file, watched at once by `switchyard watch --restart --debounce 50` and `entr -n -r`,
    /// each running ``runLogScript``; the runs each made, and whether each ran after the last save.
    func restartCoalescing(folder: String, tools: WatchTools, quick: Bool, report: Report) {
        guard let switchyard = tools.switchyard else { return }
        let saves = quick ? 100 : 1_000
        let directory = folder + "/restart"
        do {
            try WatchFiles.makeDirectory(directory)
        } catch {
            report.note("watch: restart: \(error); no restart rows")
            return
        }
        var ours: [CommandRuns] = []
        var anchor: [CommandRuns] = []
        var problems: [String] = []
        for round in 0..<(quick ? 1 : 3) {
            let result = Self.restartRound(
                directory: directory, round: round, saves: saves, switchyard: switchyard, entr: tools.entr)
            if let runs = result.ours { ours.append(runs) }
            if let runs = result.anchor { anchor.append(runs) }
            problems += result.problems
        }
        for problem in Set(problems).sorted() { report.note("watch: restart: " + problem) }
        recordRestart(ours: ours, anchor: anchor, saves: saves, complete: problems.isEmpty, report: report)
    }

    /// One round: both tools started on a new file, each waited for until it ran its command at start, then
    /// `saves` editor saves, then both waited for until their logs stay unchanged for 2 s; both stopped.
    static func restartRound(
        directory: String, round: Int, saves: Int, switchyard: String, entr: String?
    ) -> RestartRound {
        var result = RestartRound()
        let file = directory + "/watched-\(round).txt"
        guard WatchFiles.createFile(file, contents: "save 0\n") else {
            result.problems.append("cannot create \(file)")
            return result
        }
        let oursLog = directory + "/runs-switchyard-\(round).txt"
        let anchorLog = directory + "/runs-entr-\(round).txt"
        let oursErrors = directory + "/switchyard-\(round).stderr"
        let command = ["/bin/sh", "-c", runLogScript, "sh", file]
        guard
            let oursChild = WatchProcess(
                switchyard, ["watch", file, "--restart", "--debounce", "50", "--"] + command + [oursLog],
                errors: .file(oursErrors))
        else {
            result.problems.append("switchyard watch did not start")
            return result
        }
        defer { oursChild.stop() }
        var anchorChild: WatchProcess?
        if let entr {
            // entr reads the files to watch from its standard input, to its end.
            anchorChild = WatchProcess(entr, ["-n", "-r"] + command + [anchorLog])
            anchorChild?.send(file + "\n")
            anchorChild?.closeInput()
            if anchorChild == nil { result.problems.append("entr did not start") }
        }
        defer { anchorChild?.stop() }
        let logs = [oursLog] + (anchorChild == nil ? [] : [anchorLog])
        // Each runs the command once at start; the saves begin once both have, and their watches are in place.
        if !waitForRuns(logs, within: 15) { result.problems.append("a command did not run at start within 15 s") }
        usleep(300_000)
        let oursBefore = runLog(oursLog).count
        let anchorBefore = runLog(anchorLog).count
        let lastSave = editorSaves(file, count: saves)
        if !waitUntilQuiet(logs, quietSeconds: 2, within: 30) {
            result.problems.append("commands still ran 30 s after the last save")
        }
        oursChild.stop()
        anchorChild?.stop()
        result.ours = commandRuns(runLog(oursLog), before: oursBefore, lastSave: lastSave, saves: saves)
        if anchorChild != nil {
            result.anchor = commandRuns(runLog(anchorLog), before: anchorBefore, lastSave: lastSave, saves: saves)
        }
        if oursBefore == 0 && result.ours?.runs == 0 {
            let text = (try? String(contentsOfFile: oursErrors, encoding: .utf8)) ?? ""
            let first = text.split(separator: "\n").first.map(String.init) ?? "nothing"
            result.problems.append("switchyard watch never ran its command (its standard error began: \(first))")
        }
        return result
    }

    /// Saves `file` `count` times as an editor does: the new contents (`save N`) written to a temporary file beside
    /// it, then renamed over it; one save every ``savePace``. The realtime of the last rename.
    static func editorSaves(_ file: String, count: Int) -> UInt64 {
        let temporary = file + ".tmp"
        let start = Clockwork.now()
        var last: UInt64 = 0
        for save in 1...count {
            let due = start + UInt64(save - 1) * savePace
            let now = Clockwork.now()
            if now < due { usleep(useconds_t((due - now) / 1_000)) }
            WatchFiles.createFile(temporary, contents: "save \(save)\n")
            rename(temporary, file)
            last = WatchClock.realtime()
        }
        return last
    }

    /// The runs a log holds: each line's start (nanoseconds since 1970) and the contents the run read.
    static func runLog(_ path: String) -> [(started: UInt64, contents: String)] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> (started: UInt64, contents: String)? in
            guard let space = line.firstIndex(of: " "), let started = UInt64(line[..<space]) else { return nil }
            return (started, String(line[line.index(after: space)...]))
        }
    }

    static func commandRuns(
        _ log: [(started: UInt64, contents: String)], before: Int, lastSave: UInt64, saves: Int
    ) -> CommandRuns {
        let runs = max(0, log.count - before)
        let sawLastSave = log.last.map { $0.started >= lastSave && $0.contents == "save \(saves)" } ?? false
        return CommandRuns(runs: runs, finalStateSeen: runs > 0 && sawLastSave)
    }

    /// Waits until every log holds a run; false if `seconds` passed first.
    static func waitForRuns(_ logs: [String], within seconds: Double) -> Bool {
        let deadline = Clockwork.now() + UInt64(seconds * 1e9)
        while !logs.allSatisfy({ !runLog($0).isEmpty }) {
            if Clockwork.now() > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    /// Waits until none of `paths` has changed size for `quietSeconds`; false if `seconds` passed first.
    static func waitUntilQuiet(_ paths: [String], quietSeconds: Double, within seconds: Double) -> Bool {
        func sizes() -> [Int] { paths.map { FileManager.default.contents(atPath: $0)?.count ?? 0 } }
        let start = Clockwork.now()
        var last = sizes()
        var changed = start
        while true {
            usleep(50_000)
            let now = Clockwork.now()
            let current = sizes()
            if current != last {
                last = current
                changed = now
            }
            if Double(now - changed) / 1e9 >= quietSeconds { return true }
            if Double(now - start) / 1e9 >= seconds { return false }
        }
    }

    private func recordRestart(
        ours: [CommandRuns], anchor: [CommandRuns], saves: Int, complete: Bool, report: Report
    ) {
        func runs(_ rounds: [CommandRuns]) -> Double { Clockwork.median(rounds.map { Double($0.runs) }) }
        func seen(_ rounds: [CommandRuns]) -> Double {
            Double(rounds.filter(\.finalStateSeen).count) / Double(rounds.count)
        }
        if !anchor.isEmpty {
            report.recordValues(
                suite: name, name: "restart/entr -n -r, \(saves) saves (anchor)",
                values: [("runs", runs(anchor)), ("final_state_seen", seen(anchor)), ("saves", Double(saves))],
                goal: nil)
        }
        guard !ours.isEmpty else { return }
        var values: [(key: String, value: Double)] = [
            ("runs", runs(ours)), ("final_state_seen", seen(ours)), ("saves", Double(saves)),
        ]
        if !anchor.isEmpty { values.append(("entr_runs", runs(anchor))) }
        let met = !anchor.isEmpty && runs(ours) <= runs(anchor) && ours.allSatisfy(\.finalStateSeen) && complete
        report.recordValues(
            suite: name, name: "restart/switchyard watch --restart --debounce 50, \(saves) saves", values: values,
            goal: (Self.restartGoal, met))
        report.note(
            "restart: \(saves) saves (a temporary file renamed over the watched file) one every "
                + "\(Self.savePace / 1_000_000) ms, both tools watching that file at once, each running "
                + "sh -c 'echo \"$(date +%s%N) $(cat FILE)\" >> LOG'; runs = runs logged after the saves began "
                + "(median of rounds); final_state_seen = share of rounds whose last run started after the last "
                + "save and read its contents")
    }
}
