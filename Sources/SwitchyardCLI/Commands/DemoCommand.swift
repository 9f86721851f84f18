#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard

    /// `switchyard demo`: a short background job that shows the core at work.
    ///
    /// Writes `--files` temporary files, then checksums them in the background: the blocking file reads run on
    /// `BlockingExecutor.shared` (never on the cooperative pool), progress lives in an `Isolated` value whose
    /// observers print it, and results land in a `ReadWriteIsolated` table that readers query while writers fill it.
    struct DemoCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Checksum generated files in the background and show Switchyard's isolation at work.")

        @Option(help: "How many files to generate and checksum.")
        var files = 64

        @Option(help: "Size of each file in KiB.")
        var kibibytes = 256

        @Option(help: "How many checksums run at once.")
        var width = 8

        func validate() throws {
            guard files >= 1 else { throw ValidationError("--files must be at least 1, got \(files)") }
            guard kibibytes >= 1 else { throw ValidationError("--kibibytes must be at least 1, got \(kibibytes)") }
            guard width >= 1 else { throw ValidationError("--width must be at least 1, got \(width)") }
        }

        struct Progress: Sendable {
            var done = 0
            var bytes = 0
        }

        func run() async throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("switchyard-demo-\(ProcessInfo.processInfo.processIdentifier)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }

            let paths = try await BlockingExecutor.shared.run { [files, kibibytes] in
                try Self.generate(files: files, kibibytes: kibibytes, in: directory)
            }
            print("generated \(files) files of \(kibibytes) KiB in \(directory.path)")

            let progress = Isolated(Progress(), label: "demo progress")
            let checksums = ReadWriteIsolated([String: UInt64](), label: "demo checksums")
            let total = files
            let reporter = Task {
                var lastPrinted = -1
                for await snapshot in progress.values() where snapshot.done != lastPrinted {
                    lastPrinted = snapshot.done
                    if snapshot.done == total || snapshot.done % max(1, total / 8) == 0 {
                        print("  progress: \(snapshot.done)/\(total) files, \(snapshot.bytes / 1024) KiB")
                    }
                    if snapshot.done == total { break }
                }
            }

            let clock = ContinuousClock()
            let started = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = paths.makeIterator()
                func startNext() -> Bool {
                    guard let path = next.next() else { return false }
                    group.addTask {
                        let (sum, size) = try await BlockingExecutor.shared.run { try Self.checksum(of: path) }
                        await checksums.write { $0[(path as NSString).lastPathComponent] = sum }
                        await progress.withValue {
                            $0.done += 1
                            $0.bytes += size
                        }
                    }
                    return true
                }
                for _ in 0..<width where startNext() {}
                while try await group.next() != nil { _ = startNext() }
            }
            await reporter.value
            let elapsed = clock.now - started

            let (count, combined) = await checksums.read { table in
                (table.count, table.values.reduce(0, ^))
            }
            print("checksummed \(count) files in \(elapsed.formatted(.units(allowed: [.milliseconds])))")
            print(String(format: "combined checksum: %016llx", combined))
            print("isolation: \(progress.debugDescription); \(checksums.debugDescription)")
            print("blocking executor: \(BlockingExecutor.shared.statistics)")
        }

        /// Writes deterministic pseudo-random files (blocking I/O: called on the blocking executor).
        private static func generate(files: Int, kibibytes: Int, in directory: URL) throws -> [String] {
            var state: UInt64 = 0x5357_4954_4348_5944
            return try (0..<files).map { index in
                var bytes = [UInt8](repeating: 0, count: kibibytes * 1024)
                for offset in bytes.indices {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    bytes[offset] = UInt8(truncatingIfNeeded: state >> 56)
                }
                let path = directory.appendingPathComponent("file-\(index).bin").path
                guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                    throw ValidationError("could not write \(path)")
                }
                return path
            }
        }

        /// FNV-1a over the file's bytes, read in 64 KiB chunks (blocking I/O: called on the blocking executor).
        private static func checksum(of path: String) throws -> (UInt64, Int) {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ValidationError("could not open \(path)")
            }
            defer { try? handle.close() }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var size = 0
            while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
                size += chunk.count
                for byte in chunk { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            }
            return (hash, size)
        }
    }
#endif
