import Foundation

extension WatchSuite {
    // MARK: Burst

    /// The directories a burst's files go into.
    static let burstDirectories = 10

    static let burstGoal = "every file reported within 60 s, peak RSS growth <= 64 MB"

    /// What one burst measured.
    struct BurstOutcome {
        var plan: WatchBurstPlan
        var mode: WatchBurstMode
        /// The probe's report; nil if it gave none.
        var probe: WatchBurstReport?
        /// How long making the files took.
        var burstSeconds = 0.0
        /// From the end of the burst until the probe had every file reported; nil if it never had.
        var settleSeconds: Double?
        var problems: [String] = []
    }

    /// A burst of files under a watcher in a probe child (`WatchBurstProbe`), once per mode: the consumer iterating,
    /// the consumer paused until the burst ends, and the whole watching process stopped (the kernel's queue
    /// overflows, so the watcher must rescan).
    func burst(folder: String, quick: Bool, report: Report) {
        let files = quick ? 5_000 : 50_000
        let queueLimit = WatchFiles.inotifySetting("max_queued_events") ?? 16_384
        for mode in WatchBurstMode.allCases {
            // Stopped: more files than the kernel's queue holds events, whatever else the watcher subscribes to.
            let total = mode == .stopped ? max(files, queueLimit + queueLimit / 4) : files
            let plan = WatchBurstPlan(
                root: folder + "/burst-\(mode.rawValue)", directories: Self.burstDirectories,
                perDirectory: (total + Self.burstDirectories - 1) / Self.burstDirectories)
            let outcome = Self.runBurst(plan, mode: mode)
            WatchFiles.remove(plan.root)
            recordBurst(outcome, report: report)
        }
        report.note(
            "burst: files created empty by one thread as fast as it can (mkdir of each directory, then its files: "
                + "the new-directory scan; stopped: into directories watched before SIGSTOP, more files than "
                + "max_queued_events = \(queueLimit)); the watcher (default options) runs in a child process of "
                + "this benchmark, whose memory is its own; growth_mb = its peak RSS (VmHWM, reset just before the "
                + "watcher started) minus its resident set then (baseline_rss_mb: this binary, not the watcher), "
                + "the goal's measure; settle_s = from the burst's end until every file was reported")
    }

    /// Runs one burst: the probe started and watching, the files made (the probe stopped meanwhile in mode
    /// `stopped`), then the probe's report awaited.
    static func runBurst(_ plan: WatchBurstPlan, mode: WatchBurstMode) -> BurstOutcome {
        var outcome = BurstOutcome(plan: plan, mode: mode)
        do {
            try WatchFiles.makeDirectory(plan.root)
            if mode == .stopped {
                for index in 0..<plan.directories { try WatchFiles.makeDirectory(plan.directory(index)) }
            }
        } catch {
            outcome.problems.append("\(error)")
            return outcome
        }
        let specification = "watch-burst:\(mode.rawValue):\(plan.directories):\(plan.perDirectory):\(plan.root)"
        guard
            let child = WatchProcess(
                ChildProcess.ownExecutable, [], environment: ["SWITCHYARD_BENCH_PROBE": specification],
                output: .pipe, errors: .inherit),
            let output = child.output
        else {
            outcome.problems.append("the probe did not start")
            return outcome
        }
        defer { child.stop() }
        guard output.waitForLine(containing: "ready", within: 120) else {
            outcome.problems.append("the probe did not start watching within 120 s")
            return outcome
        }
        if mode == .stopped {
            child.send(signal: SIGSTOP)
            if !waitUntilStopped(child.processIdentifier) {
                outcome.problems.append("the probe was not seen stopped (/proc/PID/stat) within 1 s")
            }
        }
        let start = WatchClock.monotonic()
        let failures = makeBurst(plan, makeDirectories: mode != .stopped)
        let end = WatchClock.monotonic()
        if mode == .stopped { child.send(signal: SIGCONT) }
        child.send("go\nend\n")
        outcome.burstSeconds = Double(end - start) / 1e9
        if failures > 0 { outcome.problems.append("\(failures) files or directories could not be created") }
        guard let line = output.nextLine(within: Double(WatchBurstProbe.timeoutSeconds) + 30) else {
            outcome.problems.append("the probe gave no report")
            return outcome
        }
        guard let probe = WatchBurstReport(parsing: line) else {
            outcome.problems.append("the probe: \(line)")
            return outcome
        }
        outcome.probe = probe
        if probe.doneAt > 0 { outcome.settleSeconds = Double(probe.doneAt > end ? probe.doneAt - end : 0) / 1e9 }
        _ = child.waitForExit(within: 10)
        return outcome
    }

    /// Makes the plan's files as fast as one thread can: per directory, `mkdir` (with `makeDirectories`), then its
    /// files, created empty. The number of calls that failed.
    static func makeBurst(_ plan: WatchBurstPlan, makeDirectories: Bool) -> Int {
        var failures = 0
        for index in 0..<plan.directories {
            let directory = plan.directory(index)
            if makeDirectories && mkdir(directory, 0o755) != 0 { failures += 1 }
            for file in 0..<plan.perDirectory {
                let descriptor = open(directory + "/f\(file)", O_WRONLY | O_CREAT | O_EXCL, 0o644)
                if descriptor < 0 {
                    failures += 1
                } else {
                    close(descriptor)
                }
            }
        }
        return failures
    }

    /// Waits (up to a second) until `/proc/PID/stat` shows the process stopped (state `T`).
    static func waitUntilStopped(_ pid: Int32) -> Bool {
        for _ in 0..<200 {
            if let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let parenthesis = status.lastIndex(of: ")"),
                status[status.index(after: parenthesis)...].trimmingCharacters(in: .whitespaces).first == "T"
            {
                return true
            }
            usleep(5_000)
        }
        return false
    }

    private func recordBurst(_ outcome: BurstOutcome, report: Report) {
        let plan = outcome.plan
        let label: String
        switch outcome.mode {
        case .live: label = "burst/\(plan.files) files, \(plan.directories) new dirs, consumer iterating"
        case .paused: label = "burst/\(plan.files) files, \(plan.directories) new dirs, consumer paused"
        case .stopped: label = "burst/\(plan.files) files, \(plan.directories) dirs, watcher stopped (overflow)"
        }
        for problem in outcome.problems { report.note("watch: burst (\(outcome.mode.rawValue)): " + problem) }
        guard let probe = outcome.probe else {
            report.recordValues(
                suite: name, name: label, values: [("files", Double(plan.files)), ("reported", 0)],
                goal: (Self.burstGoal, false))
            return
        }
        let megabyte = Double(1 << 20)
        let growth = Double(max(0, probe.peakBytes - probe.baselineBytes))
        let met = probe.found == plan.files && growth <= 64 * megabyte && outcome.problems.isEmpty
        report.recordValues(
            suite: name, name: label,
            values: [
                ("files", Double(plan.files)), ("reported", Double(probe.found)), ("rescans", Double(probe.rescans)),
                ("batches", Double(probe.batches)), ("burst_s", outcome.burstSeconds),
                ("settle_s", outcome.settleSeconds ?? -1), ("growth_mb", growth / megabyte),
                ("peak_rss_mb", Double(probe.peakBytes) / megabyte),
                ("baseline_rss_mb", Double(probe.baselineBytes) / megabyte),
            ],
            goal: (Self.burstGoal, met))
        if probe.found < plan.files {
            report.note("watch: burst (\(outcome.mode.rawValue)): \(plan.files - probe.found) files never reported")
        }
        if outcome.mode == .stopped && probe.rescans == 0 {
            report.note("watch: burst (stopped): no rescanNeeded: the kernel's queue did not overflow")
        }
        if probe.limitReports > 0 {
            report.note("watch: burst (\(outcome.mode.rawValue)): \(probe.limitReports) watchLimitReached events")
        }
    }
}
