#if CLI
    import Foundation
    import WatchTestSupport
    import SwitchyardWatch
    import Testing

    /// `switchyard watch` run as a user would, against a temporary folder: `--json`, the busy policies, and Ctrl-C.
    /// The command's scripts record their runs in files outside the watched folder. No sleeps: every wait is for a
    /// line of output, a file's contents (watched) or a process's end (its pidfd), with a deadline.
    @Suite("switchyard watch", .timeLimit(.minutes(2)))
    struct WatchCommandTests {
        private let folder = WatchFolder()

        @Test("--json prints a created file as a JSON line")
        func jsonCreated() async throws {
            var watch = try WatchRun([folder.watched, "--json"])
            #expect(await watch.errorLine(containing: "watching") != nil)
            folder.touch("new.txt")
            let line = try #require(await watch.outputLine(containing: "new.txt"))
            #expect(line.contains("\"event\":\"created\""))
            #expect(line.contains("\"path\":\"\(folder.watched)/new.txt\""))
            #expect(await watch.stop(with: SIGINT) == 130)
        }

        @Test("--restart: a change stops the running command's whole group and runs it again")
        func restart() async throws {
            let script = "echo run >> '\(folder.runs)'; sleep 100 & echo $! >> '\(folder.pids)'; wait"
            var watch = try WatchRun([folder.watched, "--restart", "--grace", "500", "--", "sh", "-c", script])
            let folder = folder
            let first = try #require(await untilFolderChanges(folder.path, "the first run's sleep") { folder.pid(0) })
            folder.touch("change.txt")
            let second = try #require(await untilFolderChanges(folder.path, "a second run") { folder.pid(1) })
            await untilProcessExits(first, "the first run's sleep is gone")
            #expect(try await ProcessExit.wait(for: second, timeout: .zero) == false)  // still running
            #expect(await watch.stop(with: SIGINT) == 130)
            await untilProcessExits(second, "the second run's sleep is gone")
            #expect(folder.lines(folder.runs).count == 2)
        }

        @Test("--queue: changes during a run make one more run after it, however many came")
        func queue() async throws {
            let fifo = folder.path + "/go"
            #expect(mkfifo(fifo, 0o644) == 0)
            // Each run waits for a line on the FIFO (reading again if it met the end of the previous writer), then
            // fails with status 3.
            let script = "echo run >> '\(folder.runs)'; until read line < '\(fifo)'; do :; done; exit 3"
            var watch = try WatchRun([folder.watched, "--queue", "--", "sh", "-c", script])
            #expect(await watch.errorLine(containing: "running: sh -c") != nil)
            folder.touch("a.txt")
            #expect(await watch.errorLine(containing: "watched/a.txt") != nil)
            folder.touch("b.txt")
            #expect(await watch.errorLine(containing: "watched/b.txt") != nil)
            await Self.release(fifo)
            #expect(await watch.errorLine(containing: "command exited with status 3") != nil)
            #expect(await watch.errorLine(containing: "running: sh -c") != nil)
            await Self.release(fifo)
            #expect(await watch.errorLine(containing: "command exited with status 3") != nil)
            #expect(await watch.stop(with: SIGINT) == 130)
            let errors = await watch.allErrorLines()
            #expect(errors.filter { $0.contains("running: sh -c") }.count == 2)
            #expect(folder.lines(folder.runs).count == 2)
        }

        @Test("Ctrl-C stops the command's whole group and exits 130")
        func interrupt() async throws {
            let script = "sleep 100 & echo $! >> '\(folder.pids)'; wait"
            var watch = try WatchRun([folder.watched, "--grace", "300", "--", "sh", "-c", script])
            let folder = folder
            let sleeper = try #require(await untilFolderChanges(folder.path, "the command's sleep") { folder.pid(0) })
            #expect(await watch.stop(with: SIGINT) == 130)
            await untilProcessExits(sleeper, "the command's sleep is gone")
        }

        /// Opens the FIFO for writing (which waits for a reader), writes a line and closes it, on a thread of its own.
        private static func release(_ fifo: String) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    let descriptor = open(fifo, O_WRONLY)
                    if descriptor >= 0 {
                        _ = Array("go\n".utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                        close(descriptor)
                    }
                    continuation.resume()
                }
            }
        }
    }

    /// A running `switchyard watch`: its standard output and error as lines (read by threads of their own), and its
    /// exit status. Standard input is /dev/null.
    private struct WatchRun {
        let process: Process
        private var outputLines: AsyncStream<String>.Iterator
        private var errorLines: AsyncStream<String>.Iterator
        private var exits: AsyncStream<Int32>.Iterator
        /// The standard error lines read so far.
        private var errors: [String] = []

        init(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = SwitchyardProcess.executable
            process.arguments = ["watch"] + arguments
            let outputPipe = Pipe()
            let errorPipe = Pipe()
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = outputPipe
            process.standardError = errorPipe
            let (ended, ending) = AsyncStream.makeStream(of: Int32.self)
            process.terminationHandler = { process in
                ending.yield(process.terminationStatus)
                ending.finish()
            }
            try process.run()
            self.process = process
            outputLines = DashboardCommandTests.LineReader(outputPipe.fileHandleForReading).stream.makeAsyncIterator()
            errorLines = DashboardCommandTests.LineReader(errorPipe.fileHandleForReading).stream.makeAsyncIterator()
            exits = ended.makeAsyncIterator()
        }

        /// Reads standard error up to the first line containing `text`; `nil` if it ends first.
        mutating func errorLine(containing text: String) async -> String? {
            while let line = await errorLines.next() {
                errors.append(line)
                if line.contains(text) { return line }
            }
            return nil
        }

        /// Reads standard output up to the first line containing `text`; `nil` if it ends first.
        mutating func outputLine(containing text: String) async -> String? {
            while let line = await outputLines.next() {
                if line.contains(text) { return line }
            }
            return nil
        }

        /// Sends `signal` to `switchyard` and returns its exit status.
        mutating func stop(with signal: Int32) async -> Int32? {
            kill(process.processIdentifier, signal)
            return await exits.next()
        }

        /// Every standard error line, read to the end (once the process and everything it started are gone).
        mutating func allErrorLines() async -> [String] {
            while let line = await errorLines.next() { errors.append(line) }
            return errors
        }
    }

    /// A temporary folder: `watched/` is watched; the commands write `runs` and `pids` beside it.
    final class WatchFolder: Sendable {
        let path: String

        init() {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-watch-\(UUID())").path
            try? FileManager.default.createDirectory(atPath: path + "/watched", withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        var watched: String { path + "/watched" }
        var runs: String { path + "/runs" }
        var pids: String { path + "/pids" }

        /// Creates (or truncates) `name` in the watched folder, with a plain `open`: no temporary file.
        func touch(_ name: String) {
            let descriptor = open(watched + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if descriptor >= 0 { close(descriptor) }
        }

        /// The lines of `file`; none when it cannot be read.
        func lines(_ file: String) -> [String] {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// The process id on line `index` of `pids`, once it is there.
        func pid(_ index: Int) -> Int32? {
            let recorded = lines(pids)
            return index < recorded.count ? Int32(recorded[index]) : nil
        }
    }
#endif
