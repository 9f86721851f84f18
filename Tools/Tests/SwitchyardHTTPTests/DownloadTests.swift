import Switchyard
import SwitchyardHTTP
import SwitchyardHTTPTesting
import Synchronization
import Testing

@Suite("HTTPSession downloads: temporary file, resume, conditional, progress")
struct DownloadTests {
    static let retrying = HTTPSession.Configuration(
        retry: HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .zero, jitter: 0))

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

    @Test("a connection dropped mid-download is resumed with Range and If-Range, and the bytes are identical")
    func resumeAfterDrop() async throws {
        try await withServer(Self.retrying) { server, session in
            let bytes = patternBytes(500_000)
            let whole = StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 10_000)
            server.route("/feed.zip") { request in
                request.header("range") == nil ? whole.dropping(afterBytes: 123_456) : whole
            }
            try await withTemporaryFolder { folder in
                let result = try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f")
                // The client keeps what reached the file before the connection broke: at most what was sent.
                guard case .resumed(let start) = result.outcome else {
                    Issue.record("not resumed: \(result.outcome)")
                    return
                }
                #expect((1...123_456).contains(start))
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
            let bytes = patternBytes(200_000)
            let whole = StubResponse(body: bytes, honoursRanges: false).header("etag", "\"v1\"").chunked(by: 10_000)
            let served = Atomic<Int>(0)
            server.route("/feed.zip") { _ in
                served.add(1, ordering: .relaxed).oldValue == 0 ? whole.dropping(afterBytes: 50_000) : whole
            }
            try await withTemporaryFolder { folder in
                let result = try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f")
                #expect(result.outcome == .downloaded)
                #expect(try FileSystem.read(folder + "/f") == bytes)
                #expect(server.requests(to: "/feed.zip").last?.header("range")?.hasPrefix("bytes=") == true)
            }
        }
    }

    @Test("a resource that changed since the partial download restarts from zero (If-Range does not match)")
    func changedResourceRestarts() async throws {
        try await withServer(Self.retrying) { server, session in
            let old = StubResponse(body: patternBytes(100_000, seed: 1)).header("etag", "\"v1\"")
            let new = StubResponse(body: patternBytes(120_000, seed: 2)).header("etag", "\"v2\"")
            let served = Atomic<Int>(0)
            server.route("/feed.zip") { _ in
                served.add(1, ordering: .relaxed).oldValue == 0 ? old.dropping(afterBytes: 40_000) : new
            }
            try await withTemporaryFolder { folder in
                let result = try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f")
                #expect(result.outcome == .downloaded)
                #expect(result.validators.etag == "\"v2\"")
                #expect(try FileSystem.read(folder + "/f") == patternBytes(120_000, seed: 2))
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
            let bytes = patternBytes(40_000)
            let slow = StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 10_000)
            server.route("/feed.zip") { request in
                request.header("range") == nil ? slow.dripping(every: .seconds(3600)) : slow
            }
            try await withTemporaryFolder { folder in
                let path = folder + "/feed.zip"
                let progress = TransferProgress()
                let task = Task {
                    try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: path, progress: progress)
                }
                await yieldUntil("the first chunk written") { progress.snapshot().bytesReceived == 10_000 }
                task.cancel()
                let error = await #expect(throws: HTTPError.self) { try await task.value }
                #expect(error?.isCancelled == true)
                #expect(!FileSystem.exists(path))
                #expect(try FileSystem.read(path + ".partial") == Array(bytes.prefix(10_000)))
                let resumed = try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: path)
                #expect(resumed.outcome == .resumed(fromByte: 10_000))
                #expect(try FileSystem.read(path) == bytes)
            }
        }
    }
}
