import Foundation

/// `watch`: SwitchyardWatch's `FileWatcher` and `switchyard watch` against inotifywait and entr, in the same run.
///
/// - **Initial watch**: a tree of 20,000 directories and 100,000 files; the time until `FileWatcher(root)` returns
///   (every directory watched) against `inotifywait -r -m ROOT` from its start until it prints "Watches
///   established."; best of 3 each, alternating. Goal: ≤ 1.2× inotifywait's time.
/// - **Latency**: 10,000 writes (`pwrite`) to one file of that tree, one at a time, each timed until our batch with
///   `modified(file)` arrives (quiet window zero), against `inotifywait -m -e modify` on the file's directory timed
///   until its line is read. Goal: p99 ≤ 2× inotifywait's p99.
/// - **Burst**: 50,000 files created as fast as possible in 10 directories made during the burst, under a watcher
///   in a child process (the consumer iterating; or paused until the burst ends), and in 10 watched directories
///   while the watcher's process is stopped (the kernel's queue overflows). Goal: every file reported within 60 s,
///   the watcher's peak RSS growth ≤ 64 MB.
/// - **Restart coalescing**: 1,000 editor saves (a temporary file renamed over the file), one every millisecond,
///   under `switchyard watch --restart --debounce 50` and `entr -n -r`, watching the same file at once. Goal: as
///   many command runs as entr or fewer, and a run that starts after the last save.
///
/// `Scripts/install-system-packages.sh` installs the anchors (Debian: inotify-tools, entr).
struct WatchSuite: BenchmarkSuite {
    let name = "watch"
    let summary =
        "file watching: initial watch and latency vs inotifywait, a 50,000-file burst, restart coalescing vs entr"

    func run(runner: Runner, report: Report) {
        #if os(Linux)
            let quick = runner.scale < 1
            // A write to the standard input of a child that has exited then fails (EPIPE) instead of ending the bench.
            signal(SIGPIPE, SIG_IGN)
            let tools = WatchTools.find()
            for missing in tools.missingAnchors { report.note("watch: " + missing) }
            let scratch = NSTemporaryDirectory() + "switchyard-bench-watch-\(getpid())"
            do {
                try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            } catch {
                report.note("watch: cannot create \(scratch): \(error); suite skipped")
                return
            }
            defer { WatchFiles.remove(scratch) }
            let folder = WatchFiles.realPath(scratch)
            do {
                let started = Clockwork.now()
                let tree = try WatchTree.make(
                    at: folder + "/tree", directories: quick ? 2_000 : 20_000, files: quick ? 10_000 : 100_000)
                report.note(
                    "watch: a tree of \(tree.directories) directories and \(tree.files) files made in "
                        + String(format: "%.1f s (not timed)", Double(Clockwork.now() - started) / 1e9))
                initialWatch(tree, tools: tools, report: report)
                latency(tree, tools: tools, quick: quick, report: report)
                WatchFiles.remove(tree.root)
            } catch {
                report.note("watch: the tree could not be made: \(error); no initial-watch or latency rows")
            }
            burst(folder: folder, quick: quick, report: report)
            restartCoalescing(folder: folder, tools: tools, quick: quick, report: report)
        #else
            report.note("watch: the suite runs on Linux only (inotify anchors, /proc); skipped")
        #endif
    }

    /// Waits a moment after a watch ends, so that the kernel's release of its watches is not timed in the next run.
    static func settle() { usleep(300_000) }
}

/// The programs the watch suite runs: the anchors from `PATH`, `switchyard` from the folder of this build.
struct WatchTools {
    var inotifywait: String?
    var entr: String?
    var switchyard: String?

    static func find() -> WatchTools {
        let switchyard = ChildProcess.builtBeside("switchyard")
        return WatchTools(
            inotifywait: executable(named: "inotifywait"), entr: executable(named: "entr"),
            switchyard: FileManager.default.isExecutableFile(atPath: switchyard) ? switchyard : nil)
    }

    /// What is missing, in words (a line each).
    var missingAnchors: [String] {
        var missing: [String] = []
        if inotifywait == nil {
            missing.append(
                "inotifywait not found (Debian: inotify-tools, Scripts/install-system-packages.sh): the initial-watch "
                    + "and latency rows run without their anchor, their goals unmet")
        }
        if entr == nil {
            missing.append(
                "entr not found (Debian: entr, Scripts/install-system-packages.sh): the restart row runs without its "
                    + "anchor, its goal unmet")
        }
        if switchyard == nil {
            missing.append(
                "switchyard not built beside the bench (swift build -c release --package-path Benchmarks): no "
                    + "restart rows")
        }
        return missing
    }

    /// The first executable `name` on `PATH` (then in `/usr/bin`, `/usr/local/bin`, `/bin`).
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
        return folders.lazy.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
