#if HTTP && SWITCHYARD_TEST_HOOKS  // waits on test hooks of the library (debug builds only)
    import Dispatch
    import NIOCore
    import NIOPosix
    import Switchyard
    @_spi(Testing) import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing
    import SwitchyardTesting

    @Suite("Download attempts: what a response's head decides")
    struct DownloadHeadTests {
        /// Downloads `/f.bin` (2,000,000 pattern bytes, served whole with `etag`) over the partial file an earlier
        /// call would have left (its first `partial` bytes, started with ETag `"v1"`), the ranged requests answered by
        /// `ranged`. Checks the file ends whole, with no partial file left; returns the result and each request's
        /// `Range` header.
        private static func resume(
            partial: Int, etag: String = "\"v1\"", ranged: @escaping @Sendable ([UInt8]) -> StubResponse
        ) async throws -> (result: DownloadResult, ranges: [String?]) {
            try await withServer { server, session in  // no retries: a restart is not one
                let bytes = patternBytes(2_000_000)
                server.route("/f.bin") { request in
                    request.header("range") != nil ? ranged(bytes) : StubResponse(body: bytes).header("etag", etag)
                }
                return try await withTemporaryFolder { folder in
                    let path = folder + "/f.bin"
                    try FileSystem.write(Array(bytes[..<partial]), to: path + ".partial")
                    try FileSystem.write(
                        Array("\"v1\"\n\n\(server.url("/f.bin"))\n".utf8), to: path + ".partial.validators")
                    let result = try await session.download(HTTPRequest(url: server.url("/f.bin")), to: path)
                    #expect(try FileSystem.read(path) == bytes)
                    #expect(!FileSystem.exists(path + ".partial") && !FileSystem.exists(path + ".partial.validators"))
                    return (result, server.requests(to: "/f.bin").map { $0.header("range") })
                }
            }
        }

        @Test("a 416 to a resumed download starts the file over at once, without counting a failed attempt")
        func rangeNotSatisfiable() async throws {
            let (result, ranges) = try await Self.resume(partial: 1_500_000) { _ in StubResponse(status: 416) }
            #expect(result.outcome == .downloaded)
            #expect(ranges == ["bytes=1500000-", nil])
        }

        @Test("a 416 naming the partial file's size as the length: the file is already whole and put in place")
        func alreadyWhole() async throws {
            let (result, ranges) = try await Self.resume(partial: 2_000_000) { _ in
                StubResponse(status: 416, body: Array("range not satisfiable".utf8))
                    .header("content-range", "bytes */2000000")
            }
            #expect(result.outcome == .resumed(fromByte: 2_000_000))
            #expect(result.size == 2_000_000 && result.validators.etag == "\"v1\"")
            #expect(ranges == ["bytes=2000000-"])
        }

        @Test(
            "a 206 of another version, or of another range, starts the file over",
            arguments: [("\"v2\"", 1_500_000), ("\"v1\"", 1_000_000)])
        func mismatchedPartialContent(etag: String, start: Int) async throws {
            let (result, ranges) = try await Self.resume(partial: 1_500_000, etag: etag) { bytes in
                StubResponse(status: 206, body: Array(bytes[start...]))
                    .header("content-range", "bytes \(start)-1999999/2000000").header("etag", etag)
            }
            #expect(result.outcome == .downloaded)
            #expect(ranges == ["bytes=1500000-", nil])
        }

        @Test("a 304 to a request that named no condition fails with its status; nothing is written")
        func unaskedNotModified() async throws {
            try await withServer { server, session in
                server.route("/f.bin", StubResponse(status: 304))
                try await withTemporaryFolder { folder in
                    let error = await #expect(throws: HTTPError.self) {
                        try await session.download(HTTPRequest(url: server.url("/f.bin")), to: folder + "/f.bin")
                    }
                    #expect(error?.reason == .status(304))
                    #expect(!FileSystem.exists(folder + "/f.bin") && !FileSystem.exists(folder + "/f.bin.partial"))
                }
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
                server.route(
                    "/chunked", StubResponse(body: bytes).header("transfer-encoding", "chunked").chunked(by: 8192))
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

        @Test("a download with a completion handler delivers its result where the caller said")
        func completionHandler() async throws {
            try await withServer { server, session in
                let bytes = patternBytes(30_000)
                server.route("/f.bin", StubResponse(body: bytes))
                try await withTemporaryFolder { folder in
                    let queue = DispatchQueue(label: "delivered here")
                    let key = DispatchSpecificKey<Bool>()
                    queue.setSpecific(key: key, value: true)
                    let outcome = AsyncStream<(Result<DownloadResult, HTTPError>, Bool)>.makeStream()
                    session.download(
                        HTTPRequest(url: server.url("/f.bin")), to: folder + "/f.bin", delivery: .queue(queue)
                    ) { result in
                        outcome.continuation.yield((result, DispatchQueue.getSpecific(key: key) == true))
                    }
                    var results = outcome.stream.makeAsyncIterator()
                    let (result, onQueue) = try #require(await results.next())
                    #expect(onQueue)
                    #expect(try result.get().size == 30_000)
                    #expect(try FileSystem.read(folder + "/f.bin") == bytes)
                }
            }
        }

        @Test("shutdown ends a download in flight before it returns: the caller's group can be shut down next")
        func shutdownMidDownload() async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let server = try await StubServer.start()
            let session = HTTPSession(eventLoopGroup: group)
            let gate = StubGate()
            let bytes = patternBytes(3 << 20)
            server.route(
                "/big.bin",
                StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 64 << 10).dropping(
                    afterBytes: 3 << 19, when: gate))
            try await withTemporaryFolder { folder in
                let progress = TransferProgress()
                let download = Task {
                    try await session.download(
                        HTTPRequest(url: server.url("/big.bin")), to: folder + "/big.bin", progress: progress)
                }
                await CallbackExpectation.event("1 MiB received", within: .seconds(30)) {
                    await progress.waitUntilReceived(1 << 20)
                }
                try await session.shutdown()
                try await group.shutdownGracefully()
                let error = await #expect(throws: HTTPError.self) { try await download.value }
                #expect(error?.reason == .sessionShutDown, "\(String(describing: error))")
                #expect(!FileSystem.exists(folder + "/big.bin"))
                #expect(FileSystem.exists(folder + "/big.bin.partial"))
            }
            gate.open()
            try await server.shutdown()
        }

        @Test("a session on the caller's event loop group downloads there, and the group shuts down after it")
        func callersEventLoopGroup() async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let server = try await StubServer.start()
            let session = HTTPSession(eventLoopGroup: group)
            let bytes = patternBytes(40_000)
            server.route("/one.bin", StubResponse(body: bytes))
            try await withTemporaryFolder { folder in
                let result = try await session.download(
                    HTTPRequest(url: server.url("/one.bin")), to: folder + "/one.bin")
                #expect(result.size == 40_000)
                #expect(try FileSystem.read(folder + "/one.bin") == bytes)
            }
            try await session.shutdown()
            try await server.shutdown()
            try await group.shutdownGracefully()
        }
    }
#endif
