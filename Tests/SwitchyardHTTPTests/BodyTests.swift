#if HTTP
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing

    @Suite("HTTPSession bodies: streams in fixed memory, size limits")
    struct BodyTests {
        @Test("a streamed body reads as the core's CSV records")
        func streamAsCSV() async throws {
            try await withServer { server, session in
                let rows = (0..<5_000).map { "stop_\($0),Stop \($0),52.\($0)" }.joined(separator: "\n")
                server.route(
                    "/stops.txt", StubResponse.text("stop_id,stop_name,stop_lat\n" + rows + "\n").chunked(by: 997))
                let count = try await session.stream(HTTPRequest(url: server.url("/stops.txt"))) { head, body in
                    #expect(head.status == 200)
                    var records = 0
                    for try await _ in CSVRecords(body.input) { records += 1 }
                    return records
                }
                #expect(count == 5_000)  // the header row is not a record
            }
        }

        @Test("a body announced larger than the limit fails before any of it is read")
        func announcedOversize() async throws {
            try await withServer { server, session in
                server.route("/big", StubResponse(body: patternBytes(4 << 20)))
                var request = HTTPRequest(url: server.url("/big"))
                request.maximumResponseSize = 1 << 20
                let error = await #expect(throws: HTTPError.self) { try await session.data(for: request) }
                #expect(error?.reason == .responseTooLarge(limit: 1 << 20))
            }
        }

        @Test("a body that grows past the limit fails as soon as it does, in bounded memory: the rest is never sent")
        func growingOversize() async throws {
            try await withServer { server, session in
                // 1 GiB in chunked transfer (no length announced, so the limit is enforced while reading); the chunks
                // share one 64 KiB buffer, and the server sends each only once the previous one was written.
                let chunk = [UInt8](repeating: 7, count: 64 << 10)
                var response = StubResponse(body: []).header("transfer-encoding", "chunked")
                response.chunks = Array(repeating: chunk, count: 16_384)
                server.route("/endless", response)
                var request = HTTPRequest(url: server.url("/endless"))
                request.maximumResponseSize = 1 << 20
                let error = await #expect(throws: HTTPError.self) { try await session.data(for: request) }
                #expect(error?.reason == .responseTooLarge(limit: 1 << 20))
                await server.waitForAbandonedResponses(count: 1)
                // What the client never received it never held: the limit, the client's read-ahead and what the two
                // sockets' buffers took in before the connection closed, out of 1 GiB.
                let sent = server.bodyBytesSent
                print("BodyTests.growingOversize: \(sent >> 10) KiB of 1 GiB sent before the client closed")
                #expect(sent < 64 << 20)
            }
        }

        @Test("a request's own job (a body sent, or a limit past 4 GiB) reads bodies whole, and fails past the limit")
        func bodiesOfOwnJobs() async throws {
            try await withServer { server, session in
                let bytes = patternBytes(300_000)
                server.route("/echo", StubResponse(body: bytes).chunked(by: 7_001))
                let chunk = [UInt8](repeating: 7, count: 64 << 10)
                var endless = StubResponse(body: []).header("transfer-encoding", "chunked")
                endless.chunks = Array(repeating: chunk, count: 64)
                server.route("/endless", endless)
                // A body sent: a job of its own, the body collected by AsyncHTTPClient within the limit.
                let posted = try await session.data(
                    for: HTTPRequest(url: server.url("/echo"), method: .POST, body: [1]))
                #expect(posted.body == bytes)
                var tooLarge = HTTPRequest(url: server.url("/endless"), method: .POST, body: [1])
                tooLarge.maximumResponseSize = 1 << 20
                let error = await #expect(throws: HTTPError.self) { try await session.data(for: tooLarge) }
                #expect(error?.reason == .responseTooLarge(limit: 1 << 20))
                // A limit a `ByteBuffer` cannot hold: read chunk by chunk into the array.
                var huge = HTTPRequest(url: server.url("/echo"))
                huge.maximumResponseSize = 5 << 30
                #expect(try await session.data(for: huge).body == bytes)
            }
        }

        @Test("HEAD of a resource larger than the size limit succeeds (no body is read)")
        func headIgnoresLimit() async throws {
            try await withServer { server, session in
                server.route("/big", StubResponse(body: [UInt8](repeating: 1, count: 2 << 20)))
                var request = HTTPRequest(url: server.url("/big"), method: .HEAD)
                request.maximumResponseSize = 1 << 20
                let response = try await session.data(for: request)
                #expect(response.headers.first(name: "content-length") == "\(2 << 20)")
                #expect(response.body.isEmpty)
            }
        }

        @Test("bad URLs fail with an error that names them")
        func badURLs() async throws {
            try await withServer { _, session in
                for (url, words) in [
                    ("ftp://example.org/feed.zip", "unsupported scheme \"ftp\""), ("example.org/feed.zip", "no scheme"),
                    ("http://", "no host"), ("http://exa mple.org/", "is not a URL"),
                    ("mailto:someone@example.org", "unsupported scheme \"mailto\""),
                    ("http://example.org:99999/", "invalid port"), ("https://user@:443/", "no host"),
                ] {
                    let error = await #expect(throws: HTTPError.self) {
                        try await session.data(for: HTTPRequest(url: url))
                    }
                    #expect(error?.description.contains(words) == true, "\(url): \(String(describing: error))")
                }
            }
        }
    }
#endif
