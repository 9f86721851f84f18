#if CLI
    import Foundation
    import Testing

    /// Runs the built `switchyard` binary as a child process, as a user would.
    enum SwitchyardProcess {
        /// The `switchyard` executable next to the test bundle in the build folder.
        static var executable: URL {
            var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("switchyard").path),
                directory.path != "/"
            {
                directory.deleteLastPathComponent()
            }
            return directory.appendingPathComponent("switchyard")
        }

        struct Output {
            var status: Int32
            var standardOutput: String
            var standardError: String
        }

        /// Runs the executable to its end. Its output goes to temporary files, not pipes: a child that writes more
        /// than a pipe holds (progress lines of a slow import, under Thread Sanitizer) never blocks on a reader that
        /// waits for it to end.
        /// `environment` is added to this process's; `directory`, when given, is the child's working directory.
        static func run(
            _ arguments: [String], executable: URL = executable, environment: [String: String] = [:],
            directory: String? = nil
        ) async throws -> Output {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-process-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let outURL = folder.appendingPathComponent("stdout")
            let errURL = folder.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let out = try FileHandle(forWritingTo: outURL)
            let err = try FileHandle(forWritingTo: errURL)
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            process.standardOutput = out
            process.standardError = err
            // Completion arrives through the termination handler: no thread blocks waiting for the child.
            let status: Int32 = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do { try process.run() } catch { continuation.resume(throwing: error) }
            }
            try out.close()
            try err.close()
            let standardOutput = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
            let standardError = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
            return Output(status: status, standardOutput: standardOutput, standardError: standardError)
        }

        /// Starts the executable with its output discarded, for a test that stops it: its process identifier, and a
        /// task that ends with its exit status (or `128 + signal` when a signal ended it).
        static func start(_ arguments: [String]) throws -> (pid: Int32, exit: Task<Int32, Never>) {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let (ended, continuation) = AsyncStream.makeStream(of: Int32.self)
            process.terminationHandler = { process in
                let signalled = process.terminationReason == .uncaughtSignal
                continuation.yield(signalled ? 128 + process.terminationStatus : process.terminationStatus)
                continuation.finish()
            }
            try process.run()
            let exit = Task {
                var iterator = ended.makeAsyncIterator()
                return await iterator.next() ?? -1
            }
            return (process.processIdentifier, exit)
        }

        /// Waits until `condition` holds (checked between yields: it watches another process, whose progress no
        /// clock of this one controls); fails the test and returns after `limit`.
        static func waitUntil(_ what: String, within limit: Duration = .seconds(60), _ condition: () -> Bool) async {
            let deadline = ContinuousClock.now + limit
            while !condition() {
                if ContinuousClock.now > deadline {
                    Issue.record("timed out waiting until \(what)")
                    return
                }
                await Task.yield()
            }
        }

        /// Runs `switchyard` with `arguments` plus JSON progress after every batch, sends `signal` once a progress
        /// line reports `rows` committed rows, and returns the exit status.
        ///
        /// The child's output is read by a dedicated thread with blocking reads (no polling), not by a task: the
        /// import of the tiny feed takes well under a second, and when other suites keep the cooperative pool busy a
        /// reader task could wait longer than that to run, so every signal would land after the import finished.
        static func runUntil(_ arguments: [String], rows: Int, then signal: Int32) async throws -> Int32 {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments + ["--progress", "json", "--progress-interval", "1"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            return try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do { try process.run() } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let pid = process.processIdentifier
                let handle = output.fileHandleForReading
                let reader = Thread {
                    // Reads until the child closes its end; the thread keeps the read end open until then.
                    let descriptor = handle.fileDescriptor
                    defer { withExtendedLifetime(handle) {} }
                    var pending: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                    var signalled = false
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        if count < 0 && errno == EINTR { continue }
                        if count <= 0 { break }
                        pending += buffer[..<count]
                        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                            let line = String(decoding: pending[..<newline], as: UTF8.self)
                            pending.removeSubrange(...newline)
                            if !signalled, line.hasPrefix("{\"progress\""), committedRows(Substring(line)) >= rows {
                                kill(pid, signal)
                                signalled = true
                            }
                        }
                    }
                }
                reader.start()
            }
        }

        /// The rows committed over all files in one `--progress json` line.
        private static func committedRows(_ line: Substring) -> Int {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let progress = object["progress"] as? [String: Any],
                let files = progress["files"] as? [String: [String: Any]]
            else { return 0 }
            return files.values.reduce(0) { $0 + ($1["rows"] as? Int ?? 0) }
        }

        /// The size of the file at `path`, or -1 when there is none.
        static func fileSize(_ path: String) -> Int64 {
            ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? -1
        }
    }
#endif
