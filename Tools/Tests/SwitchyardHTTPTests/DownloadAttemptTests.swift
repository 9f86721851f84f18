import NIOCore
import NIOHTTP1
import NIOPosix
import Switchyard
import SwitchyardHTTPTesting
import Testing

@testable import SwitchyardHTTP

@Suite("Download attempts: what a response head decides, without a server")
struct DownloadHeadDecisionTests {
    private static let partial = (size: Int64(2_000_000), validators: HTTPValidators(etag: "\"v1\"", lastModified: nil))

    private static func decide(
        _ status: Int, _ fields: [(String, String)] = [], retry: AttemptOutcome<Never>? = nil,
        resume: (size: Int64, validators: HTTPValidators)? = nil, conditional: Bool = false, limit: Int = .max
    ) -> DownloadHeadDecision {
        DownloadHeadDecision.decide(
            status: status, HTTPHeaders(fields), retry: retry, resume: resume, isConditional: conditional,
            limit: limit)
    }

    @Test("a 200 is written from zero, with its validators and announced size")
    func whole() {
        let decision = Self.decide(200, [("content-length", "300"), ("etag", "\"v2\"")])
        guard case .write(nil, let validators, .some(300)) = decision else {
            Issue.record("not written from zero")
            return
        }
        #expect(validators.etag == "\"v2\"")
        guard case .write(nil, _, nil) = Self.decide(200) else {
            Issue.record("a body of unknown size")
            return
        }
    }

    @Test("a 206 continuing the partial file, same version, is appended; any other 206 starts over")
    func ranges() {
        let rest = [("content-range", "bytes 2000000-2999999/3000000"), ("etag", "\"v1\"")]
        guard
            case .write(.some(2_000_000), let validators, .some(3_000_000)) = Self.decide(
                206, rest, resume: Self.partial)
        else {
            Issue.record("the rest was not appended")
            return
        }
        #expect(validators == Self.partial.validators)
        let otherStart = [("content-range", "bytes 0-2999999/3000000")]
        let otherVersion = [("content-range", "bytes 2000000-2999999/3000000"), ("etag", "\"v2\"")]
        let notToTheEnd = [("content-range", "bytes 2000000-2499999/3000000")]
        for fields in [otherStart, otherVersion, notToTheEnd, []] {
            guard case .startOver = Self.decide(206, fields, resume: Self.partial) else {
                Issue.record("\(fields) was appended")
                return
            }
        }
        guard case .startOver = Self.decide(206, rest) else {
            Issue.record("a 206 nobody asked for")
            return
        }
    }

    @Test("a 304 is unchanged only for a conditional request; a 416 starts over; other statuses fail")
    func statuses() {
        guard case .unchanged = Self.decide(304, conditional: true) else {
            Issue.record("304")
            return
        }
        guard case .verdict(.fail(.status(304))) = Self.decide(304) else {
            Issue.record("unasked 304")
            return
        }
        guard case .startOver = Self.decide(416, resume: Self.partial) else {
            Issue.record("416")
            return
        }
        guard case .verdict(.fail(.status(404))) = Self.decide(404) else {
            Issue.record("404")
            return
        }
    }

    @Test("the retry verdict comes first; an announced size over the limit fails before the body")
    func retryAndLimit() {
        let retry = AttemptOutcome<Never>.retry(.status(503), retryAfter: .seconds(7))
        guard case .verdict(.retry(.status(503), .seconds(7))) = Self.decide(503, retry: retry) else {
            Issue.record("the retry verdict was not kept")
            return
        }
        guard
            case .verdict(.fail(.responseTooLarge(limit: 100))) = Self.decide(
                200, [("content-length", "101")], limit: 100)
        else {
            Issue.record("a body over the limit was accepted")
            return
        }
        let range = [("content-range", "bytes 2000000-2999999/3000000")]
        guard
            case .verdict(.fail(.responseTooLarge)) = Self.decide(
                206, range, resume: Self.partial, limit: 2_500_000)
        else {
            Issue.record("a resumed file over the limit was accepted")
            return
        }
    }
}

@Suite("Download attempts against the stub server: limits, file errors, the caller's event loops")
struct DownloadAttemptTests {
    @Test("a body over the limit fails, announced or not, and leaves no file under the final name")
    func sizeLimit() async throws {
        try await withServer { server, session in
            let bytes = patternBytes(200_000)
            server.route("/announced", StubResponse(body: bytes))
            server.route("/chunked", StubResponse(body: bytes).header("transfer-encoding", "chunked").chunked(by: 8192))
            try await withTemporaryFolder { folder in
                for name in ["announced", "chunked"] {
                    var request = HTTPRequest(url: server.url("/" + name))
                    request.maximumResponseSize = 100_000
                    let error = await #expect(throws: HTTPError.self) {
                        try await session.download(request, to: folder + "/" + name)
                    }
                    #expect(error?.reason == .responseTooLarge(limit: 100_000))
                    #expect(!FileSystem.exists(folder + "/" + name))
                }
            }
        }
    }

    @Test("a folder that cannot be written fails with a file error naming the path")
    func unwritableFolder() async throws {
        try await withServer { server, session in
            server.route("/a.bin", StubResponse(body: patternBytes(1_000)))
            server.route("/b.bin", StubResponse(body: patternBytes(600_000)).chunked(by: 65_536))
            for name in ["a.bin", "b.bin"] {  // linked in whole, and written through a partial file
                let path = "/nonexistent-switchyard-folder/" + name
                let error = await #expect(throws: HTTPError.self) {
                    try await session.download(HTTPRequest(url: server.url("/" + name)), to: path)
                }
                guard case .file(let message)? = error?.reason else {
                    Issue.record("not a file error: \(String(describing: error))")
                    continue
                }
                #expect(message.contains("/nonexistent-switchyard-folder/"))
            }
        }
    }

    @Test("a redirected download is written from the final response, small or large")
    func redirect() async throws {
        try await withServer { server, session in
            let (small, large) = (patternBytes(20_000), patternBytes(700_000, seed: 3))
            server.route("/old-small", StubResponse(status: 301).header("location", server.url("/small")))
            server.route("/old-large", StubResponse(status: 302).header("location", server.url("/large")))
            server.route("/small", StubResponse(body: small).header("etag", "\"s\""))
            server.route("/large", StubResponse(body: large).chunked(by: 65_536))
            try await withTemporaryFolder { folder in
                let first = try await session.download(
                    HTTPRequest(url: server.url("/old-small")), to: folder + "/small")
                let second = try await session.download(
                    HTTPRequest(url: server.url("/old-large")), to: folder + "/large")
                #expect(first.validators.etag == "\"s\"" && first.size == 20_000)
                #expect(second.size == 700_000)
                #expect(try FileSystem.read(folder + "/small") == small)
                #expect(try FileSystem.read(folder + "/large") == large)
            }
        }
    }

    @Test("a partial file left by an earlier call is continued with Range, found before the first request")
    func resumesEarlierPartialFile() async throws {
        try await withServer { server, session in
            let bytes = patternBytes(3_000_000)
            server.route("/feed.zip", StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 65_536))
            try await withTemporaryFolder { folder in
                let path = folder + "/feed.zip"
                try FileSystem.write(Array(bytes[..<1_500_000]), to: path + ".partial")
                try FileSystem.write(
                    Array("\"v1\"\n\n\(server.url("/feed.zip"))\n".utf8), to: path + ".partial.validators")
                let result = try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: path)
                #expect(result.outcome == .resumed(fromByte: 1_500_000))
                #expect(server.requests(to: "/feed.zip").map { $0.header("range") } == ["bytes=1500000-"])
                #expect(try FileSystem.read(path) == bytes)
                #expect(!FileSystem.exists(path + ".partial") && !FileSystem.exists(path + ".partial.validators"))
            }
        }
    }

    @Test("a session on the caller's event loop group downloads there, and the group shuts down after it")
    func callersEventLoopGroup() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await StubServer.start()
        let session = HTTPSession(eventLoopGroup: group)
        let bytes = patternBytes(40_000)
        server.route("/one.bin", StubResponse(body: bytes))
        try await withTemporaryFolder { folder in
            let result = try await session.download(HTTPRequest(url: server.url("/one.bin")), to: folder + "/one.bin")
            #expect(result.size == 40_000)
            #expect(try FileSystem.read(folder + "/one.bin") == bytes)
        }
        try await session.shutdown()
        try await server.shutdown()
        try await group.shutdownGracefully()
    }
}
