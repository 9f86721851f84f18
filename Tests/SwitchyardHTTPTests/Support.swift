#if HTTP
    import Switchyard
    @_spi(Testing) import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import SwitchyardTesting
    import Testing

    /// `count` bytes whose every offset is recognisable: the byte at `i` is `31·i + seed + i/256` modulo 256.
    ///
    /// Copied in 256-byte blocks from a table (within a block only `31·i` changes), not computed byte by byte: the
    /// tests ask for megabytes, which a per-byte closure in a debug build makes seconds of cooperative-pool time.
    func patternBytes(_ count: Int, seed: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var block = 0
        while bytes.count < count {
            let shift = Int(UInt8(truncatingIfNeeded: seed &+ block))
            bytes.append(contentsOf: patternBlocks[shift].prefix(count - bytes.count))
            block += 1
        }
        return bytes
    }

    /// `patternBlocks[shift][j]` is `31·j + shift` modulo 256.
    private let patternBlocks: [[UInt8]] = (0..<256).map { shift in
        (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ shift) }
    }

    extension HTTPSession.Configuration {
        /// The tests' default: no retry, and an idle timeout of an hour (see ``holdingResponses``).
        static var heldResponses: Self { Self(retry: .never).holdingResponses }

        /// This configuration with an idle timeout of an hour where it has the default minute. Tests hold responses
        /// behind gates for as long as they need; on a loaded machine (Thread Sanitizer, two processors, thousands
        /// of requests) that can pass a minute, and an expiry would then end a request the test meant to hold,
        /// cancel or release itself. A configuration that sets its own idle timeout keeps it.
        var holdingResponses: Self {
            var configuration = self
            if configuration.timeouts.idle == HTTPTimeouts().idle { configuration.timeouts.idle = .seconds(3600) }
            return configuration
        }
    }

    /// Runs `body` with a started stub server and a session, shutting both down afterwards. With `tls`, the server
    /// speaks HTTPS (offering HTTP/2 unless `http2` is false) and the session trusts its authority. The session's
    /// configuration is `configuration.holdingResponses`: the default idle timeout becomes an hour.
    func withServer<Value>(
        _ configuration: HTTPSession.Configuration = .heldResponses,
        tls: StubCertificates? = nil, http2: Bool = true,
        _ body: (StubServer, HTTPSession) async throws -> Value
    ) async throws -> Value {
        let server = try await StubServer.start(tls: tls, http2: http2)
        let session = HTTPSession(
            configuration: configuration.holdingResponses, tlsConfiguration: tls?.clientConfiguration)
        do {
            let value = try await body(server, session)
            try await session.shutdown()
            try await server.shutdown()
            return value
        } catch {
            try? await session.shutdown()
            try? await server.shutdown()
            throw error
        }
    }

    /// Waits until `events` (subscribed before the work that emits them; iterated to its end here) has delivered
    /// `count` events of `kind`; fails the test if they have not come within `timeout`.
    func waitFor(
        _ count: Int, _ kind: JobEvent.Kind, in events: AsyncStream<JobEvent>, _ what: String,
        timeout: Duration = .seconds(30), fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        await CallbackExpectation.event(
            what, within: timeout, fileID: fileID, filePath: filePath, line: line, column: column
        ) {
            var seen = 0
            for await event in events where event.kind == kind {
                seen += 1
                if seen == count { return }
            }
        }
    }

    /// A temporary folder, removed after `body`.
    func withTemporaryFolder<Value>(_ body: (String) async throws -> Value) async throws -> Value {
        let path = "/tmp/switchyard-http-tests-\(UInt64.random(in: 0...UInt64.max))"
        try FileSystem.makeFolder(path)
        defer { FileSystem.removeTree(path) }
        return try await body(path)
    }

    #if SWITCHYARD_TEST_HOOKS
        /// Opens `gate` once `progress` shows `bytes` received: read by the client and written to its file. A drop held
        /// behind the gate (`StubResponse.dropping(afterBytes:when:)`) then breaks the connection only after the client
        /// has those bytes; without it, what the client had received but not yet read would be lost, more of it the busier
        /// the machine, and a test of resuming would depend on timing.
        func openWhenReceived(_ gate: StubGate, _ progress: TransferProgress, bytes: Int64) -> Task<Void, Never> {
            // The client gets there whatever the timing (the bytes are sent; only the drop waits), unless its download
            // fails first: the test then ends, and cancels this task.
            Task {
                await progress.waitUntilReceived(bytes)
                gate.open()
            }
        }
    #endif
#endif
