#if CLI
    import Foundation
    import SwitchyardHTTPTesting
    import Testing

    @Suite("switchyard fetch: many URLs, summary, conditional re-fetch, resume, bad input")
    struct FetchCommandTests {
        private func scratch(_ name: String = #function) -> String {
            let path =
                NSTemporaryDirectory() + "switchyard-fetch-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        /// The byte at `i` is `i + seed` modulo 256: a 256-byte block, repeated (megabytes computed byte by byte
        /// would take seconds of a debug build's cooperative pool).
        private static func body(_ count: Int, _ seed: UInt8) -> [UInt8] {
            let block = (0..<256).map { UInt8(truncatingIfNeeded: $0) &+ seed }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            while bytes.count < count { bytes.append(contentsOf: block.prefix(count - bytes.count)) }
            return bytes
        }

        @Test("fetches a list, names what failed, then finds the fetched files unchanged")
        func fetchThenUnchanged() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            server.route("/a.bin", StubResponse(body: Self.body(70_000, 1)).header("etag", "\"a\"").chunked(by: 8192))
            server.route("/data/b.csv", StubResponse(body: Self.body(5_000, 2)).header("etag", "\"b\""))
            let list = folder + "/urls.txt"
            try """
            # feeds to mirror
            \(server.url("/a.bin"))

            \(server.url("/data/b.csv"))
            \(server.url("/gone.txt"))
            """.write(toFile: list, atomically: true, encoding: .utf8)
            let out = folder + "/out"
            let first = try await SwitchyardProcess.run(["fetch", "-i", list, "--out", out, "--per-host", "2"])
            #expect(first.status == 1)
            #expect(first.standardOutput.contains("fetched 2"))
            #expect(first.standardOutput.contains("failed 1"))
            #expect(first.standardOutput.contains("gone.txt: GET \(server.url("/gone.txt")) failed: status 404"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/a.bin")) == Data(Self.body(70_000, 1)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/b.csv")) == Data(Self.body(5_000, 2)))

            let second = try await SwitchyardProcess.run([
                "fetch", server.url("/a.bin"), server.url("/data/b.csv"), "--out", out,
            ])
            #expect(second.status == 0, "\(second.standardError)")
            #expect(second.standardOutput.contains("fetched 0 (0 B), unchanged 2, failed 0"))
            #expect(server.requests(to: "/a.bin").last?.header("if-none-match") == "\"a\"")
            try await server.shutdown()
        }

        @Test("--resume continues a partial file with Range; without it the file starts over")
        func resumePartial() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            let bytes = Self.body(50_000, 3)
            server.route("/big.bin", StubResponse(body: bytes).header("etag", "\"v\""))
            let partial = Data(bytes.prefix(20_000))
            for resume in [true, false] {
                try partial.write(to: URL(fileURLWithPath: folder + "/big.bin.partial"))
                try "\"v\"\n\n\(server.url("/big.bin"))\n".write(
                    toFile: folder + "/big.bin.partial.validators", atomically: true, encoding: .utf8)
                var arguments = ["fetch", server.url("/big.bin"), "--out", folder]
                if resume { arguments.append("--resume") }
                let result = try await SwitchyardProcess.run(arguments)
                #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/big.bin")) == Data(bytes))
                #expect(server.requests(to: "/big.bin").last?.header("range") == (resume ? "bytes=20000-" : nil))
                try FileManager.default.removeItem(atPath: folder + "/big.bin")
                try? FileManager.default.removeItem(atPath: folder + "/.switchyard-fetch.json")
            }
            try await server.shutdown()
        }

        @Test(
            "a fetch stopped by Ctrl-C (exit 130) or killed with SIGKILL mid-download is continued by --resume",
            arguments: [SIGINT, SIGKILL])
        func stoppedThenResumed(signal: Int32) async throws {
            let folder = scratch("stopped\(signal)")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            let bytes = Self.body(3 << 20, 5)
            let full = StubResponse(body: bytes).header("etag", "\"k\"").chunked(by: 65_536)
            // The first response stops after 2 MiB and stays open (its drop waits behind a gate that opens only after
            // the signal): the client is stopped while it waits for more, with at least 1 MiB on disk.
            let stall = StubGate()
            server.route("/stopped.bin") { request in
                request.header("range") == nil ? full.dropping(afterBytes: 2 << 20, when: stall) : full
            }
            let partial = folder + "/stopped.bin.partial"
            // The stall must outlast this test's wait however slowly it runs (Thread Sanitizer, a loaded machine):
            // the child's idle timeout, which would end it with a retry, is far longer than the wait.
            let child = try SwitchyardProcess.start([
                "fetch", server.url("/stopped.bin"), "--out", folder, "--idle-timeout", "3600",
            ])
            await SwitchyardProcess.waitUntil("the partial file is resumable", within: .seconds(600)) {
                SwitchyardProcess.fileSize(partial) >= 1 << 20
                    && FileManager.default.fileExists(atPath: partial + ".validators")
            }
            kill(child.pid, signal)
            #expect(await child.exit.value == (signal == SIGINT ? 130 : 128 + SIGKILL))
            stall.open()
            let kept = SwitchyardProcess.fileSize(partial)
            #expect(kept >= 1 << 20 && kept <= 2 << 20)
            #expect(
                !FileManager.default.fileExists(atPath: folder + "/stopped.bin"), "no half file under the final name")

            let resumed = try await SwitchyardProcess.run([
                "fetch", server.url("/stopped.bin"), "--out", folder, "--resume",
            ])
            #expect(resumed.status == 0, "\(resumed.standardError)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/stopped.bin")) == Data(bytes))
            #expect(server.requests(to: "/stopped.bin").last?.header("range") == "bytes=\(kept)-")
            #expect(!FileManager.default.fileExists(atPath: partial))
            #expect(!FileManager.default.fileExists(atPath: partial + ".validators"))
            try await server.shutdown()
        }

        @Test("a download silent for --idle-timeout fails its attempt, and the retry resumes where the bytes stopped")
        func idleTimeout() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            let bytes = Self.body(3 << 20, 7)
            let full = StubResponse(body: bytes).header("etag", "\"i\"").chunked(by: 65_536)
            // The first response stops after 2 MiB (past the 1 MiB from which a partial file is resumed) and stays
            // open until the end of the test.
            let stall = StubGate()
            defer { stall.open() }
            server.route("/silent.bin") { request in
                request.header("range") == nil ? full.dropping(afterBytes: 2 << 20, when: stall) : full
            }
            let result = try await SwitchyardProcess.run([
                "fetch", server.url("/silent.bin"), "--out", folder, "--idle-timeout", "2",
            ])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/silent.bin")) == Data(bytes))
            // The stall is the first response's; on a loaded machine a retry may also go quiet for the idle timeout
            // (the default policy makes three attempts), and resumes again.
            let ranges = server.requests(to: "/silent.bin").map { $0.header("range") }
            #expect((2...3).contains(ranges.count) && ranges[0] == nil, "\(ranges)")
            #expect(ranges.dropFirst().allSatisfy { $0?.hasPrefix("bytes=") == true }, "\(ranges)")
            let invalid = try await SwitchyardProcess.run(["fetch", server.url("/silent.bin"), "--idle-timeout", "0"])
            #expect(invalid.status == 64 && invalid.standardError.contains("--idle-timeout must be at least 1"))
            try await server.shutdown()
        }

        @Test("a list line's sha256= is checked: a match is fetched, a mismatch is removed and reported")
        func checksums() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            let bytes = Self.body(70_000, 3)
            server.route("/good.bin", StubResponse(body: bytes).header("etag", "\"g\""))
            server.route("/bad.bin", StubResponse(body: bytes))
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/expected.bin"))
            let sha256sum = try await SwitchyardProcess.run(
                [folder + "/expected.bin"], executable: URL(fileURLWithPath: "/usr/bin/sha256sum"))
            let digest = try #require(sha256sum.standardOutput.split(separator: " ").first.map(String.init))
            let wrong = String(repeating: "ab", count: 32)
            let list = folder + "/urls.txt"
            try "\(server.url("/good.bin")) sha256=\(digest.uppercased())\n\(server.url("/bad.bin"))\tsha256=\(wrong)\n"
                .write(toFile: list, atomically: true, encoding: .utf8)
            let out = folder + "/out"
            let run = try await SwitchyardProcess.run(["fetch", "-i", list, "--out", out])
            #expect(run.status == 1)
            #expect(run.standardOutput.contains("fetched 1"))
            #expect(run.standardOutput.contains("bad.bin: GET \(server.url("/bad.bin")) failed: SHA-256 \(digest)"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/good.bin")) == Data(bytes))
            #expect(!FileManager.default.fileExists(atPath: out + "/bad.bin"))
            #expect(!FileManager.default.fileExists(atPath: out + "/bad.bin.partial"))
            // Run again: the checked file is unchanged (a conditional request); once its line names another digest,
            // it is fetched again and checked, never reported unchanged.
            try "\(server.url("/good.bin")) sha256=\(digest)\n".write(toFile: list, atomically: true, encoding: .utf8)
            let again = try await SwitchyardProcess.run(["fetch", "-i", list, "--out", out])
            #expect(again.status == 0, "\(again.standardOutput)")
            #expect(again.standardOutput.contains("unchanged 1"))
            try "\(server.url("/good.bin")) sha256=\(wrong)\n".write(toFile: list, atomically: true, encoding: .utf8)
            let changed = try await SwitchyardProcess.run(["fetch", "-i", list, "--out", out])
            #expect(changed.status == 1)
            #expect(changed.standardOutput.contains("good.bin: GET"))
            try await server.shutdown()
        }

        @Test("names too long for the file system are shortened, keeping the extension, and stay distinct")
        func longNames() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            let stem = String(repeating: "ä", count: 150)  // 300 bytes of UTF-8
            let encoded = stem.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
            server.route("/a/\(encoded).csv", StubResponse(body: Self.body(1_000, 1)))
            server.route("/b/\(encoded).csv", StubResponse(body: Self.body(2_000, 2)))
            let accented = "e" + String(repeating: "\u{301}", count: 150)  // one character of 301 bytes
            let accentedPath = "/c/" + accented.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + ".txt"
            server.route(accentedPath, StubResponse(body: Self.body(3_000, 3)))
            let out = folder + "/out"
            let result = try await SwitchyardProcess.run([
                "fetch", server.url("/a/\(encoded).csv"), server.url("/b/\(encoded).csv"), server.url(accentedPath),
                "--out", out,
            ])
            #expect(result.status == 0, "\(result.standardError)")
            let first = String(repeating: "ä", count: 116) + ".csv"  // 232 + 4 bytes: 255 less ".partial.validators"
            let second = String(repeating: "ä", count: 115) + "-2.csv"  // 230 + 6 bytes
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/" + first)) == Data(Self.body(1_000, 1)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/" + second)) == Data(Self.body(2_000, 2)))
            let third = "e" + String(repeating: "\u{301}", count: 115) + ".txt"  // cut between scalars: 231 + 4 bytes
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/" + third)) == Data(Self.body(3_000, 3)))
            try await server.shutdown()
        }

        @Test("a bad list line is named (LIST:LINE: error: …) and skipped, every other line is fetched, exit 1")
        func badLines() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            server.route("/a.bin", StubResponse(body: Self.body(3_000, 1)))
            server.route("/b.bin", StubResponse(body: Self.body(3_000, 2)))
            server.route("/c.bin", StubResponse(body: Self.body(3_000, 3)))
            let list = folder + "/urls.txt"
            let lines = [
                server.url("/a.bin"), "", "not a url at all", server.url("/b.bin") + " sha256=12ab",
                "ftp://example.org/feed.zip", server.url("/c.bin"),
            ]
            for (label, text) in [
                ("LF", lines.joined(separator: "\n") + "\n"),
                // Windows line ends and a byte-order mark: the same lines, numbered the same.
                ("CRLF", "\u{FEFF}" + lines.joined(separator: "\r\n") + "\r\n"),
            ] {
                try text.write(toFile: list, atomically: true, encoding: .utf8)
                let out = folder + "/out-" + label
                let run = try await SwitchyardProcess.run(["fetch", "-i", list, "--out", out])
                #expect(run.status == 1, "\(label): \(run.standardError)")
                for expected in [
                    "\(list):3: error: not a URL: not a url at all\n",
                    "\(list):4: error: sha256= needs 64 hex digits: \(server.url("/b.bin")) sha256=12ab\n",
                    "\(list):5: error: unsupported scheme \"ftp\" (http and https are): ftp://example.org/feed.zip\n",
                ] {
                    #expect(run.standardError.contains(expected), "\(label): \(run.standardError)")
                }
                #expect(run.standardOutput.hasPrefix("fetched 2 ("), "\(label): \(run.standardOutput)")
                #expect(run.standardOutput.contains("unchanged 0, failed 0, bad lines 3\n"), "\(run.standardOutput)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/a.bin")) == Data(Self.body(3_000, 1)))
                #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/c.bin")) == Data(Self.body(3_000, 3)))
                #expect(!FileManager.default.fileExists(atPath: out + "/b.bin"))
            }
            #expect(server.requests(to: "/b.bin").isEmpty, "a line with a bad digest is not fetched")
            // No usable line at all: still exit 1, as wget -i does; nothing is requested.
            try "not a url\nhttp://\n".write(toFile: list, atomically: true, encoding: .utf8)
            let requests = server.requests.count
            let none = try await SwitchyardProcess.run(["fetch", "-i", list, "--out", folder + "/none"])
            #expect(none.status == 1, "\(none.standardError)")
            #expect(none.standardOutput.hasPrefix("fetched 0 (0 B), unchanged 0, failed 0, bad lines 2"))
            #expect(none.standardError.contains("\(list):1: error: not a URL: not a url\n"))
            #expect(none.standardError.contains("\(list):2: error: "), "\(none.standardError)")
            #expect(server.requests.count == requests)
            try await server.shutdown()
        }

        @Test("a bad URL argument or an unreadable list stops the run before anything is downloaded (exit 2)")
        func badArguments() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let scheme = try await SwitchyardProcess.run(["fetch", "ftp://example.org/feed.zip", "--out", folder])
            #expect(scheme.status == 2)
            #expect(scheme.standardError.contains("argument 1: unsupported scheme \"ftp\""))
            let missing = try await SwitchyardProcess.run(["fetch", "-i", folder + "/nope.txt"])
            #expect(missing.status == 2)
            #expect(missing.standardError.contains("nope.txt: cannot read the list"))
        }

        @Test("a URL listed twice is fetched once, the second listing noted; colliding file names are still numbered")
        func duplicates() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            server.route("/a.bin", StubResponse(body: Self.body(4_000, 1)))
            server.route("/b.bin", StubResponse(body: Self.body(4_000, 2)))
            server.route("/other/a.bin", StubResponse(body: Self.body(4_000, 3)))
            let list = folder + "/urls.txt"
            let upper = server.url("/a.bin").replacingOccurrences(of: "http://", with: "HTTP://") + "#top"
            let escaped = server.url("/%61.bin")  // %61 is "a": the same path
            try [server.url("/a.bin"), server.url("/b.bin"), upper, escaped, server.url("/other/a.bin")]
                .joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
            let out = folder + "/out"
            let run = try await SwitchyardProcess.run(["fetch", server.url("/b.bin"), "-i", list, "--out", out])
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            #expect(run.standardOutput.hasPrefix("fetched 3 ("), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("failed 0, listed twice 3"), "\(run.standardOutput)")
            for expected in [
                "\(list):2: note: \(server.url("/b.bin")) already given as argument 1; fetched once\n",
                "\(list):3: note: \(upper) already listed on line 1; fetched once\n",
                "\(list):4: note: \(escaped) already listed on line 1; fetched once\n",
            ] {
                #expect(run.standardError.contains(expected), "\(run.standardError)")
            }
            #expect(!run.standardError.contains("error:"))
            #expect(server.requests(to: "/a.bin").count == 1)
            #expect(server.requests(to: "/b.bin").count == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/a.bin")) == Data(Self.body(4_000, 1)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/b.bin")) == Data(Self.body(4_000, 2)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/a-2.bin")) == Data(Self.body(4_000, 3)))
            #expect(!FileManager.default.fileExists(atPath: out + "/a-3.bin"))
            #expect(!FileManager.default.fileExists(atPath: out + "/b-2.bin"))

            // A later listing's sha256= applies when the first names none; a different one is an error (exit 1).
            let wrong = String(repeating: "ab", count: 32)
            let other = String(repeating: "cd", count: 32)
            let a = server.url("/a.bin")
            try [a, a + " sha256=" + wrong, a + " sha256=" + other].joined(separator: "\n")
                .write(toFile: list, atomically: true, encoding: .utf8)
            let digests = try await SwitchyardProcess.run(["fetch", "-i", list, "--out", folder + "/digests"])
            #expect(digests.status == 1)
            for expected in [
                "\(list):2: note: \(a) already listed on line 1; fetched once, checked against this line's sha256=\n",
                "\(list):3: error: \(a) already listed on line 1 with another sha256=\n",
            ] {
                #expect(digests.standardError.contains(expected), "\(digests.standardError)")
            }
            #expect(
                digests.standardOutput.hasPrefix("fetched 0 (0 B), unchanged 0, failed 1, bad lines 1, listed twice 1"),
                "\(digests.standardOutput)")
            #expect(digests.standardOutput.contains("a.bin: GET \(a) failed: SHA-256"), "\(digests.standardOutput)")
            try await server.shutdown()
        }
    }
#endif
