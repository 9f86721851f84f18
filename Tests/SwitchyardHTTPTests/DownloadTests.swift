#if HTTP && SWITCHYARD_TEST_HOOKS  // waits on test hooks of the library (debug builds only)
    import Switchyard
    @_spi(Testing) import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Synchronization
    import Testing
    import SwitchyardTesting

    @Suite("HTTPSession downloads: temporary file, resume, conditional, progress")
    struct DownloadTests {
        static let retrying = HTTPSession.Configuration(
            retry: HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .zero, jitter: 0))

        // A response that breaks off does so only once the client has read the bytes before the break (see
        // `openWhenReceived`): the partial file then always reaches the resumable size.

        @Test("a download is written whole, under the final name only when complete")
        func plainDownload() async throws {
            try await withServer { server, session in
                let bytes = patternBytes(300_000)
                server.route("/feed.zip", StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 16_384))
                try await withTemporaryFolder { folder in
                    let progress = TransferProgress()
                    let result = try await session.download(
                        HTTPRequest(url: server.url("/feed.zip")), to: folder + "/feed.zip", progress: progress)
                    #expect(result.outcome == .downloaded)
                    #expect(result.size == 300_000)
                    #expect(result.validators.etag == "\"v1\"")
                    #expect(try FileSystem.read(folder + "/feed.zip") == bytes)
                    #expect(!FileSystem.exists(folder + "/feed.zip.partial"))
                    #expect(!FileSystem.exists(folder + "/feed.zip.partial.validators"))
                    let snapshot = progress.snapshot()
                    #expect(snapshot.bytesReceived == 300_000)
                    #expect(snapshot.bytesExpected == 300_000)
                    #expect(snapshot.finished == 1)
                    #expect(snapshot.active.isEmpty)
                }
            }
        }

        @Test(
            "a small file is linked in whole: a new one, one replacing an older file, and stale partial files removed")
        func smallFiles() async throws {
            try await withServer { server, session in
                let (first, second) = (patternBytes(20_000), Array(patternBytes(20_001).reversed()))
                server.route("/a.txt", StubResponse(body: first))
                try await withTemporaryFolder { folder in
                    let path = folder + "/a.txt"
                    // A partial file and its validators from an earlier download that was never resumed.
                    try FileSystem.write(Array("stale".utf8), to: path + ".partial")
                    try FileSystem.write(Array("\"old\"\n\nurl\n".utf8), to: path + ".partial.validators")
                    _ = try await session.download(HTTPRequest(url: server.url("/a.txt")), to: path)
                    #expect(try FileSystem.read(path) == first)
                    #expect(!FileSystem.exists(path + ".partial") && !FileSystem.exists(path + ".partial.validators"))
                    server.route("/a.txt", StubResponse(body: second))
                    _ = try await session.download(HTTPRequest(url: server.url("/a.txt")), to: path)
                    // An existing file is replaced (through a partial file).
                    #expect(try FileSystem.read(path) == second)
                    #expect(!FileSystem.exists(path + ".partial"))
                    server.route("/empty", StubResponse(body: []))
                    _ = try await session.download(HTTPRequest(url: server.url("/empty")), to: folder + "/empty")
                    #expect(try FileSystem.read(folder + "/empty").isEmpty)
                }
            }
        }

        @Test("a connection dropped mid-download is resumed with Range and If-Range, and the bytes are identical")
        func resumeAfterDrop() async throws {
            try await withServer(Self.retrying) { server, session in
                let gate = StubGate()
                let progress = TransferProgress()
                let opener = openWhenReceived(gate, progress, bytes: 5 << 19)
                defer { opener.cancel() }
                // Past PartialFile.resumableSize, so that the partial file is kept resumable.
                let bytes = patternBytes(3 << 20)
                let whole = StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 64 << 10)
                server.route("/feed.zip") { request in
                    request.header("range") == nil ? whole.dropping(afterBytes: 5 << 19, when: gate) : whole
                }
                try await withTemporaryFolder { folder in
                    let result = try await session.download(
                        HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f", progress: progress)
                    // The client keeps what reached the file before the connection broke: at most what was sent.
                    guard case .resumed(let start) = result.outcome else {
                        Issue.record("not resumed: \(result.outcome)")
                        return
                    }
                    #expect((1...(5 << 19)).contains(start))
                    #expect(try FileSystem.read(folder + "/f") == bytes)
                    let second = try #require(server.requests(to: "/feed.zip").last)
                    #expect(second.header("range") == "bytes=\(start)-")
                    #expect(second.header("if-range") == "\"v1\"")
                }
            }
        }

        @Test("a server that ignores Range gets a full re-download")
        func serverIgnoresRange() async throws {
            try await withServer(Self.retrying) { server, session in
                let gate = StubGate()
                let progress = TransferProgress()
                let opener = openWhenReceived(gate, progress, bytes: 5 << 19)
                defer { opener.cancel() }
                let bytes = patternBytes(3 << 20)
                let whole = StubResponse(body: bytes, honoursRanges: false).header("etag", "\"v1\"").chunked(
                    by: 64 << 10)
                let served = Atomic<Int>(0)
                server.route("/feed.zip") { _ in
                    served.add(1, ordering: .relaxed).oldValue == 0
                        ? whole.dropping(afterBytes: 5 << 19, when: gate) : whole
                }
                try await withTemporaryFolder { folder in
                    let result = try await session.download(
                        HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f", progress: progress)
                    #expect(result.outcome == .downloaded)
                    #expect(try FileSystem.read(folder + "/f") == bytes)
                    #expect(server.requests(to: "/feed.zip").last?.header("range")?.hasPrefix("bytes=") == true)
                }
            }
        }

        @Test("a resource that changed since the partial download restarts from zero (If-Range does not match)")
        func changedResourceRestarts() async throws {
            try await withServer(Self.retrying) { server, session in
                let gate = StubGate()
                let progress = TransferProgress()
                let opener = openWhenReceived(gate, progress, bytes: 5 << 19)
                defer { opener.cancel() }
                let old = StubResponse(body: patternBytes(3 << 20, seed: 1)).header("etag", "\"v1\"").chunked(
                    by: 64 << 10)
                let new = StubResponse(body: patternBytes(120_000, seed: 2)).header("etag", "\"v2\"")
                let served = Atomic<Int>(0)
                server.route("/feed.zip") { request in
                    let first = served.add(1, ordering: .relaxed).oldValue == 0
                    if !first { #expect(request.header("if-range") == "\"v1\"") }
                    return first ? old.dropping(afterBytes: 5 << 19, when: gate) : new
                }
                try await withTemporaryFolder { folder in
                    let result = try await session.download(
                        HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f", progress: progress)
                    #expect(result.outcome == .downloaded)
                    #expect(result.validators.etag == "\"v2\"")
                    #expect(try FileSystem.read(folder + "/f") == patternBytes(120_000, seed: 2))
                }
            }
        }

        @Test("a 206 that stops short of the end restarts the file instead of completing a truncated one")
        func shortRangeRestarts() async throws {
            try await withServer(Self.retrying) { server, session in
                let gate = StubGate()
                let progress = TransferProgress()
                let opener = openWhenReceived(gate, progress, bytes: 5 << 19)
                defer { opener.cancel() }
                let bytes = patternBytes(3 << 20)
                let whole = StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 64 << 10)
                let served = Atomic<Int>(0)
                server.route("/feed.zip") { request in
                    switch served.add(1, ordering: .relaxed).oldValue {
                    case 0: return whole.dropping(afterBytes: 5 << 19, when: gate)
                    case 1:
                        // Ten bytes of the rest, labelled as such: not what a `bytes=N-` request asked for.
                        let start = Int(request.header("range")!.dropFirst("bytes=".count).dropLast())!
                        return StubResponse(status: 206, body: Array(bytes[start..<start + 10]), honoursRanges: false)
                            .header("etag", "\"v1\"").header(
                                "content-range", "bytes \(start)-\(start + 9)/\(bytes.count)")
                    default: return whole
                    }
                }
                try await withTemporaryFolder { folder in
                    let result = try await session.download(
                        HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f", progress: progress)
                    #expect(result.outcome == .downloaded)
                    #expect(try FileSystem.read(folder + "/f") == bytes)
                    #expect(server.requests(to: "/feed.zip").count == 3)
                }
            }
        }

        @Test("a partial file below the resumable size is started over, not resumed")
        func smallPartialRestarts() async throws {
            try await withServer(Self.retrying) { server, session in
                let bytes = patternBytes(200_000)
                let whole = StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 10_000)
                let served = Atomic<Int>(0)
                server.route("/small.bin") { _ in
                    served.add(1, ordering: .relaxed).oldValue == 0 ? whole.dropping(afterBytes: 100_000) : whole
                }
                try await withTemporaryFolder { folder in
                    let result = try await session.download(
                        HTTPRequest(url: server.url("/small.bin")), to: folder + "/f")
                    #expect(result.outcome == .downloaded)
                    #expect(try FileSystem.read(folder + "/f") == bytes)
                    #expect(server.requests(to: "/small.bin").allSatisfy { $0.header("range") == nil })
                }
            }
        }

        @Test("a 304 to a conditional download leaves the file as it is")
        func notModifiedReusesFile() async throws {
            try await withServer { server, session in
                let bytes = patternBytes(50_000)
                server.route("/feed.zip", StubResponse(body: bytes).header("etag", "\"v1\""))
                try await withTemporaryFolder { folder in
                    let path = folder + "/feed.zip"
                    let first = try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: path)
                    let second = try await session.download(
                        HTTPRequest(url: server.url("/feed.zip")), to: path, ifChanged: first.validators)
                    #expect(second.outcome == .unchanged)
                    #expect(second.size == 50_000)
                    #expect(server.requests(to: "/feed.zip").last?.header("if-none-match") == "\"v1\"")
                    #expect(try FileSystem.read(path) == bytes)
                }
            }
        }

        @Test("a cancelled download never leaves a file under the final name; the partial is kept for a resume")
        func cancelledDownloadLeavesPartial() async throws {
            try await withServer { server, session in
                let chunk = Int(1 << 20) + 4096  // the first chunk makes the partial file resumable
                let bytes = patternBytes(2 * chunk)
                let slow = StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: chunk)
                server.route("/feed.zip") { request in
                    request.header("range") == nil ? slow.dripping(every: .seconds(3600)) : slow
                }
                try await withTemporaryFolder { folder in
                    let path = folder + "/feed.zip"
                    let progress = TransferProgress()
                    let task = Task {
                        try await session.download(
                            HTTPRequest(url: server.url("/feed.zip")), to: path, progress: progress)
                    }
                    await CallbackExpectation.event("the first chunk written", within: .seconds(30)) {
                        await progress.waitUntilReceived(Int64(chunk))
                    }
                    #expect(progress.snapshot().bytesReceived == Int64(chunk))
                    task.cancel()
                    let error = await #expect(throws: HTTPError.self) { try await task.value }
                    #expect(error?.isCancelled == true, "\(String(describing: error))")
                    #expect(!FileSystem.exists(path))
                    #expect(try FileSystem.read(path + ".partial") == Array(bytes.prefix(chunk)))
                    let resumed = try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: path)
                    #expect(resumed.outcome == .resumed(fromByte: Int64(chunk)))
                    #expect(try FileSystem.read(path) == bytes)
                }
            }
        }
    }
#endif
