#if CLI
    import Foundation
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import Testing

    /// `--dashboard` on the import, and its option checks, through the `switchyard` binary.
    @Suite struct DashboardCommandTests {
        /// The lines a child writes on standard error, read by a thread of their own (blocking reads).
        struct LineReader {
            let stream: AsyncStream<String>

            init(_ handle: FileHandle) {
                let continuation: AsyncStream<String>.Continuation
                (stream, continuation) = AsyncStream.makeStream(of: String.self)
                Thread.detachNewThread {
                    var pending = Data()
                    while case let data = handle.availableData, !data.isEmpty {
                        pending += data
                        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                            continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                            pending = Data(pending[(newline + 1)...])
                        }
                    }
                    continuation.finish()
                }
            }

            /// The first line that starts with `prefix` (nil if the output ends first).
            func line(startingWith prefix: String, in iterator: inout AsyncStream<String>.Iterator) async -> String? {
                while let line = await iterator.next() { if line.hasPrefix(prefix) { return line } }
                return nil
            }
        }

        @Test func theImportServesItsDashboardAndStaysUntilInterrupted() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let process = Process()
            process.executableURL = SwitchyardProcess.executable
            process.arguments = [
                "import", "--sample", "tiny", "--database", folder + "/tiny.sqlite", "--progress", "none",
                "--dashboard", "127.0.0.1:0",
            ]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            let (ended, ending) = AsyncStream.makeStream(of: Int32.self)
            process.terminationHandler = { ending.yield($0.terminationStatus) }
            try process.run()
            let reader = LineReader(errors.fileHandleForReading)
            var lines = reader.stream.makeAsyncIterator()
            let announced = try #require(await reader.line(startingWith: "Dashboard: ", in: &lines))
            let url = try #require(URL(string: String(announced.dropFirst("Dashboard: ".count))))
            #expect(url.host == "127.0.0.1" && url.port != nil && url.port != 0)
            #expect(await reader.line(startingWith: "The dashboard stays at", in: &lines) != nil)
            let (data, response) = try await URLSession.shared.data(from: url.appendingPathComponent("snapshot.json"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("\"schema\":1") && text.contains("\"id\":\"import\""))
            kill(process.processIdentifier, SIGINT)
            var exits = ended.makeAsyncIterator()
            #expect(await exits.next() == 0)
        }

        @Test func dashboardOptionsNeedTheDashboard() async throws {
            let output = try await SwitchyardProcess.run(["import", "--sample", "tiny", "--dashboard-token", "t"])
            #expect(output.status == 64)
            #expect(output.standardError.contains("need --dashboard"))
            let interval = try await SwitchyardProcess.run([
                "import", "--sample", "tiny", "--dashboard", "127.0.0.1:0", "--dashboard-interval", "10",
            ])
            #expect(interval.status == 64 && interval.standardError.contains("at least 250"))
            let address = try await SwitchyardProcess.run([
                "dashboard", "--database", "postgres://x@h/d", "--listen", "nowhere",
            ])
            #expect(address.status == 64 && address.standardError.contains("HOST:PORT"))
        }
    }
#endif
