#if HTTP && SWITCHYARD_TEST_HOOKS  // waits on test hooks of the library (debug builds only)
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Synchronization
    import Testing

    @Suite("HTTPSession downloads: SHA-256 computed, checked, and a resumed mismatch downloaded again")
    struct DownloadChecksumTests {
        /// `patternBytes(3 << 20)`'s SHA-256, computed apart (Python's hashlib), not by the code under test.
        static let patternDigest = "715f9963f3b2ce8ceacb4be1377340dd38ca160aae75afb3cb1d161136d7796b"

        @Test("the file's SHA-256 is reported, and a matching expected digest (either case) passes")
        func computedAndChecked() async throws {
            try await withServer { server, session in
                server.route("/feed.zip", StubResponse(body: patternBytes(3 << 20)).chunked(by: 64 << 10))
                try await withTemporaryFolder { folder in
                    let request = HTTPRequest(url: server.url("/feed.zip"))
                    let computed = try await session.download(request, to: folder + "/a", checksum: .sha256())
                    #expect(computed.sha256 == Self.patternDigest)
                    let checked = try await session.download(
                        request, to: folder + "/b", checksum: .sha256(expected: Self.patternDigest.uppercased()))
                    #expect(checked.sha256 == Self.patternDigest)
                    #expect(try FileSystem.read(folder + "/b") == patternBytes(3 << 20))
                    let plain = try await session.download(request, to: folder + "/c")
                    #expect(plain.sha256 == nil)
                }
            }
        }

        @Test("a malformed expected digest fails before anything is requested")
        func malformedDigest() async throws {
            try await withServer { server, session in
                server.route("/feed.zip", StubResponse(body: [1, 2, 3]))
                try await withTemporaryFolder { folder in
                    for digest in [
                        "sha256:" + Self.patternDigest, String(Self.patternDigest.dropLast()),
                        "ｆ" + Self.patternDigest.dropFirst(),
                    ] {
                        let error = await #expect(throws: HTTPError.self) {
                            try await session.download(
                                HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f",
                                checksum: .sha256(expected: digest))
                        }
                        if case .invalidChecksum = error?.reason {
                        } else {
                            Issue.record("\(String(describing: error))")
                        }
                    }
                    #expect(server.requests.isEmpty)
                }
            }
        }

        @Test("a mismatch fails with both digests, leaves nothing under the final name, and removes the partial file")
        func mismatchFails() async throws {
            try await withServer { server, session in
                server.route("/feed.zip", StubResponse(body: patternBytes(3 << 20)).header("etag", "\"v1\""))
                try await withTemporaryFolder { folder in
                    let expected = String(repeating: "0", count: 64)
                    let error = await #expect(throws: HTTPError.self) {
                        try await session.download(
                            HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f",
                            checksum: .sha256(expected: expected))
                    }
                    #expect(error?.reason == .checksumMismatch(expected: expected, actual: Self.patternDigest))
                    #expect(!FileSystem.exists(folder + "/f"))
                    #expect(!FileSystem.exists(folder + "/f.partial"))
                    #expect(!FileSystem.exists(folder + "/f.partial.validators"))
                }
            }
        }

        @Test("a resumed file that does not match (the resource changed under the same ETag) is downloaded again whole")
        func resumedMismatchRestarts() async throws {
            try await withServer(DownloadTests.retrying) { server, session in
                let gate = StubGate()
                let progress = TransferProgress()
                let opener = openWhenReceived(gate, progress, bytes: 5 << 19)
                defer { opener.cancel() }
                let old = patternBytes(3 << 20, seed: 7)
                let new = patternBytes(3 << 20)
                let fullRequests = Atomic(0)
                server.route("/feed.zip") { request in
                    let changed = StubResponse(body: new).header("etag", "\"v1\"").chunked(by: 64 << 10)
                    if request.header("range") != nil { return changed }
                    let (first, _) = fullRequests.add(1, ordering: .relaxed)
                    let stale = StubResponse(body: old).header("etag", "\"v1\"").chunked(by: 64 << 10)
                    // The drop waits until the client has read what came before it (see `openWhenReceived`).
                    return first == 0 ? stale.dropping(afterBytes: 5 << 19, when: gate) : changed
                }
                try await withTemporaryFolder { folder in
                    let result = try await session.download(
                        HTTPRequest(url: server.url("/feed.zip")), to: folder + "/f",
                        checksum: .sha256(expected: Self.patternDigest), progress: progress)
                    #expect(result.outcome == .downloaded)
                    #expect(result.sha256 == Self.patternDigest)
                    #expect(try FileSystem.read(folder + "/f") == new)
                    #expect(server.requests.map { $0.header("range") != nil } == [false, true, false])
                }
            }
        }
    }
#endif
