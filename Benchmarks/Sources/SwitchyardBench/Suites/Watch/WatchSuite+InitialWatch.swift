import Foundation
import SwitchyardWatch
import SystemPackage

extension WatchSuite {
    // MARK: Initial watch

    /// Rounds of the initial-watch row: the best of each side is kept, the two sides alternating.
    static let initialWatchRounds = 3

    /// The time until a recursive watch of `tree` is in place: `FileWatcher(root)` returning, against
    /// `inotifywait -r -m ROOT` from its start until it prints "Watches established."; best of 3 each, alternating.
    func initialWatch(_ tree: WatchTree, tools: WatchTools, report: Report) {
        var anchor: [Double] = []
        var ours: [Double] = []
        var watched: [Int] = []
        var problems: [String] = []
        for _ in 0..<Self.initialWatchRounds {
            if let inotifywait = tools.inotifywait {
                do {
                    let nanoseconds = try Self.inotifywaitSetup(inotifywait, root: tree.root)
                    anchor.append(Double(nanoseconds))
                } catch {
                    problems.append("inotifywait -r: \(error)")
                }
                Self.settle()
            }
            do {
                let (nanoseconds, directories) = try Self.fileWatcherSetup(root: tree.root)
                ours.append(Double(nanoseconds))
                watched.append(directories)
            } catch {
                problems.append("FileWatcher: \(error)")
            }
            Self.settle()
        }
        for problem in Set(problems).sorted() { report.note("watch: initial watch: " + problem) }
        let label = "\(tree.directories) dirs, \(tree.files) files"
        if let best = anchor.min() {
            var row = Measurement(
                suite: name, name: "initial watch/inotifywait -r -m, \(label) (anchor)", nanosecondsPerOperation: best,
                range: (best, anchor.max()!))
            row.extra = [("ms", best / 1e6)]
            report.record(row)
        }
        guard let best = ours.min() else { return }
        // Every directory under the root, and the root.
        let expected = tree.directories + 1
        let everyDirectory = watched.allSatisfy { $0 >= expected }
        var row = Measurement(
            suite: name, name: "initial watch/FileWatcher, \(label)", nanosecondsPerOperation: best,
            range: (best, ours.max()!))
        row.extra = [("ms", best / 1e6), ("watched_directories", Double(watched.min() ?? 0))]
        let anchorBest = anchor.min()
        if let anchorBest { row.anchor = ("inotifywait -r", anchorBest) }
        row.goal = (
            "<= 1.2x inotifywait's time, every directory watched",
            anchorBest.map { best <= 1.2 * $0 } == true && everyDirectory
        )
        report.record(row)
        if !everyDirectory {
            report.note("watch: initial watch: FileWatcher watched \(watched.min() ?? 0) of \(expected) directories")
        }
        report.note(
            "initial watch: the whole setup in the ns/op column (best of \(Self.initialWatchRounds), the two "
                + "alternating); inotifywait's time runs from its process's start until \"Watches established.\" "
                + "is read from its standard error")
    }

    /// `inotifywait -r -m root`, from just before it is started until "Watches established." is read from its
    /// standard error, in nanoseconds; then it is ended.
    static func inotifywaitSetup(_ executable: String, root: String) throws -> UInt64 {
        let start = Clockwork.now()
        guard let child = WatchProcess(executable, ["-r", "-m", root], output: .discard, errors: .pipe) else {
            throw WatchBenchError("did not start")
        }
        defer { child.stop() }
        guard child.errors?.waitForLine(containing: "Watches established.", within: 120) == true else {
            throw WatchBenchError("did not print \"Watches established.\" within 120 s")
        }
        return Clockwork.now() - start
    }

    /// The time until `FileWatcher(root)` (quiet window zero) returns, in nanoseconds, and how many directories it
    /// then watches; the watcher is stopped after.
    static func fileWatcherSetup(root: String) throws -> (nanoseconds: UInt64, watched: Int) {
        try blockingRun { () async throws -> (nanoseconds: UInt64, watched: Int) in
            let start = Clockwork.now()
            let watcher = try await FileWatcher(FilePath(root), options: .init(quietWindow: .zero))
            let elapsed = Clockwork.now() - start
            let watched = watcher.watchedDirectories
            watcher.stop()
            return (elapsed, watched)
        }
    }
}
