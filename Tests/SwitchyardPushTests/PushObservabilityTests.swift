#if Push
    import Foundation
    import Logging
    import MetricsTestKit
    import ServiceLifecycle
    import SwitchyardHTTPTesting
    import SwitchyardPush
    import SwitchyardPushTesting
    import SwitchyardTesting
    import Synchronization
    import Testing

    /// Log lines kept in memory, with the logger's own metadata merged into each (as a real handler does), and waits
    /// for a line.
    final class PushLogCapture: Sendable {
        struct Entry: Sendable {
            var level: Logger.Level
            var message: String
            var metadata: [String: String]

            /// The message and every metadata key and value.
            var texts: [String] { [message] + Array(metadata.keys) + Array(metadata.values) }
        }

        private struct State {
            var entries: [Entry] = []
            var waiters: [(message: String, logged: CallbackExpectation)] = []
        }

        private let state = LockedState(State())

        /// A logger at `trace` writing here.
        var logger: Logger {
            var logger = Logger(label: "push") { _ in Handler(log: self) }
            logger.logLevel = .trace
            return logger
        }

        var entries: [Entry] { state.withLock { $0.entries } }

        /// The lines whose message is `message`.
        func lines(_ message: String) -> [Entry] {
            entries.filter { $0.message == message }
        }

        /// Suspends until a line with `message` was logged; fails the test naming the line after `limit`, and
        /// returns early if the test is cancelled (its time limit).
        func wait(
            for message: String, within limit: Duration = .seconds(60), fileID: String = #fileID,
            filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
        ) async {
            let logged = CallbackExpectation("the log line \"\(message)\"")
            let present = state.withLock { state -> Bool in
                if state.entries.contains(where: { $0.message == message }) { return true }
                state.waiters.append((message, logged))
                return false
            }
            guard !present else { return }
            await logged.fulfillment(within: limit, fileID: fileID, filePath: filePath, line: line, column: column)
        }

        fileprivate func append(_ entry: Entry) {
            let ready = state.withLock { state -> [CallbackExpectation] in
                state.entries.append(entry)
                let ready = state.waiters.filter { $0.message == entry.message }.map(\.logged)
                state.waiters.removeAll { $0.message == entry.message }
                return ready
            }
            for logged in ready { logged.fulfill() }
        }

        struct Handler: LogHandler {
            let log: PushLogCapture
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                let merged = metadata.merging(event.metadata ?? [:]) { $1 }
                log.append(
                    Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
            }
        }
    }

    /// The client's metrics (swift-metrics), log lines (swift-log), and life as a service (swift-service-lifecycle),
    /// and the mock's; against the mock APNs with scripted faults.
    @Suite("PushClient's metrics, logs and service", .serialized, .timeLimit(.minutes(2)))
    struct PushObservabilityTests {
        static let payload = #"{"aps":{"alert":"observed payload"}}"#

        /// `count` notifications to devices whose tokens differ in their first 8 digits (`a0000000`, `a0000001`, …).
        static func notifications(_ count: Int) -> [PushNotification] {
            (0..<count).map { index in
                let token = String(0xa000_0000 + index, radix: 16) + String(repeating: "5e", count: 28)
                return PushNotification(deviceToken: token, json: Array(payload.utf8))
            }
        }

        /// A client of `mock` reporting to `metrics` and `log`.
        static func client(
            _ mock: MockAPNs, metrics: TestMetrics, log: PushLogCapture, connections: Int = 1,
            configure: (inout PushClient.Configuration) -> Void = { _ in }
        ) -> PushClient {
            var configuration = PushClient.Configuration(
                endpoint: .custom(host: "127.0.0.1", port: mock.port), connections: connections,
                tls: PushClientTests.certificates.clientConfiguration, backoff: .zero)
            configure(&configuration)
            return PushClient(
                key: PushClientTests.signing, bundleID: "org.example.app", configuration: configuration,
                logger: log.logger, metricsFactory: metrics)
        }

        /// `task.value`, cancelling `task` if the test is cancelled meanwhile (its time limit), so that a test whose
        /// task never ends stops at its limit.
        static func value<Success: Sendable>(of task: Task<Success, any Error>) async throws -> Success {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }

        /// The device refused as a bad token, and the one unregistered, in ``faultyBatch(_:)``.
        static let badDevice = 3
        static let goneDevice = 7
        static let goneSince = 1_699_000_000_000

        /// 20 notifications against `mock`: the first two requests answered 503 (and retried), one device refused
        /// `400 BadDeviceToken`, one `410 Unregistered`.
        static func faultyBatch(_ mock: MockAPNs) -> [PushNotification] {
            let batch = Self.notifications(20)
            let (gone, since) = (batch[goneDevice].deviceToken, goneSince)
            mock.updateRules { $0.unregistered[gone] = since }
            mock.script([
                .answer(status: 503, reason: .serviceUnavailable, times: 2),
                .answerDevice(batch[badDevice].deviceToken, status: 400, reason: .badDeviceToken, times: 1),
            ])
            return batch
        }

        @Test("metrics: each notification counted once by result; requests with retries; durations; connections")
        func countsByResult() async throws {
            let mock = try await PushClientTests.start()
            let metrics = TestMetrics()
            let client = Self.client(mock, metrics: metrics, log: PushLogCapture())
            let summary = try await client.send(Self.faultyBatch(mock), total: 20)
            #expect(summary.delivered == 18 && summary.requests == 22)

            func results(_ result: String) throws -> Int64 {
                try metrics.expectCounter("switchyard_push_results_total", [("result", result)]).totalValue
            }
            #expect(try results("delivered") == 18)
            #expect(try results("BadDeviceToken") == 1)
            #expect(try results("Unregistered") == 1)
            #expect(try results("ServiceUnavailable") == 0, "retried, then delivered: not a result")
            #expect(try results("not_sent") == 0)
            #expect(try results("unconfirmed") == 0)
            let total = metrics.counters(label: "switchyard_push_results_total").map(\.totalValue).reduce(0, +)
            #expect(total == 20, "exactly one result per notification")

            let requests = try metrics.expectCounter("switchyard_push_requests_total").totalValue
            #expect(requests == 22 && requests >= 20, "retries included")
            #expect(mock.requests == 22)
            let durations = try metrics.expectTimer("switchyard_push_request_duration_seconds").values
            #expect(durations.count == 22, "one per answered request")
            #expect(durations.allSatisfy { $0 >= 0 })
            let connections = try metrics.expectMeter("switchyard_push_connections")
            #expect(connections.lastValue == 1, "the one connection, still open")
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("reasons outside APNs's table: a series each for the first 32, then `other`, as is `delivered`")
        func unknownReasons() async throws {
            let mock = try await PushClientTests.start()
            let metrics = TestMetrics()
            let client = Self.client(mock, metrics: metrics, log: PushLogCapture())
            #expect(
                try metrics.expectCounter("switchyard_push_results_total", [("result", "other")]).totalValue == 0,
                "made with the client")
            let reasons = (0..<34).map { PushReason(rawValue: "Odd\($0)") } + [PushReason(rawValue: "delivered")]
            mock.script(reasons.map { MockAPNsFault.answer(status: 400, reason: $0, times: 1) })
            let summary = try await client.send(Self.notifications(reasons.count))
            #expect(summary.failedCount == 35 && summary.requests == 35)
            let series = metrics.counters(label: "switchyard_push_results_total")
            let odd = series.filter { counter in
                counter.dimensions.contains { $0.0 == "result" && $0.1.hasPrefix("Odd") }
            }
            #expect(odd.count == 32 && odd.allSatisfy { $0.totalValue == 1 })
            #expect(
                try metrics.expectCounter("switchyard_push_results_total", [("result", "other")]).totalValue == 3,
                "two past the limit, and `delivered`")
            #expect(
                try metrics.expectCounter("switchyard_push_results_total", [("result", "delivered")]).totalValue == 0)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("logs: connections, the token's signing, failures and the batch, with metadata; no token, key or payload")
        func logLines() async throws {
            let mock = try await PushClientTests.start()
            let log = PushLogCapture()
            let client = Self.client(mock, metrics: TestMetrics(), log: log)
            let notifications = Self.faultyBatch(mock)
            _ = try await client.send(notifications, total: 20)
            await client.shutdown()
            try await mock.shutdown()
            let entries = log.entries

            let host = "127.0.0.1:\(mock.port)"
            #expect(entries.allSatisfy { $0.metadata["apns_host"] == host }, "every line names the server")
            let opened = try #require(log.lines("connection opened").first)
            #expect(opened.level == .debug && opened.metadata["connection"] == "1")
            let signed = log.lines("provider token signed")
            #expect(signed.count == 1 && signed.first?.metadata["key_id"] == "KEY1234567")

            let bad = notifications[Self.badDevice]
            let failed = try #require(log.lines("notification failed").first)
            #expect(log.lines("notification failed").count == 1)
            #expect(failed.level == .debug)
            #expect(failed.metadata["reason"] == "BadDeviceToken" && failed.metadata["status"] == "400")
            #expect(failed.metadata["apns_id"] == bad.id.uuidString)
            #expect(failed.metadata["device_token"] == String(bad.deviceToken.prefix(8)))
            let gone = notifications[Self.goneDevice]
            let unregistered = try #require(log.lines("device token unregistered").first)
            #expect(unregistered.level == .debug && unregistered.metadata["reason"] == "Unregistered")
            #expect(unregistered.metadata["device_token"] == String(gone.deviceToken.prefix(8)))
            #expect(unregistered.metadata["timestamp"] == "\(Self.goneSince)")
            let retries = log.lines("request failed; retrying")
            #expect(retries.count == 2 && retries.allSatisfy { $0.metadata["reason"] == "ServiceUnavailable" })
            #expect(log.lines("notification delivered").count == 18)
            #expect(log.lines("notification delivered").allSatisfy { $0.level == .trace })

            let batch = try #require(log.lines("push batch finished").first)
            #expect(batch.level == .warning, "a device token refused: worth a look")
            #expect(batch.metadata["failures"] == "BadDeviceToken=1, Unregistered=1")
            #expect(batch.metadata["delivered"] == "18" && batch.metadata["failed"] == "2")
            #expect(batch.metadata["requests"] == "22")

            // What must never be logged: the provider token (a JWT: `{"alg"…` is `eyJhbGci…`), the key, a payload, a
            // whole device token.
            let pemBody = PushClientTests.key.pemRepresentation.split(separator: "\n")[1]
            let never = ["eyJhbGci", "bearer", "PRIVATE KEY", String(pemBody), "observed payload"]
            let secrets = never + notifications.map(\.deviceToken)
            for entry in entries {
                for text in entry.texts {
                    let leaked = secrets.filter { text.contains($0) }
                    #expect(leaked.isEmpty, "\(entry.message): \(text)")
                }
            }
        }

        @Test("GOAWAY: a notice naming the connection and its last stream; a new connection opened")
        func goAwayNotice() async throws {
            let mock = try await PushClientTests.start()
            mock.script([.goAway(afterStreams: 5)])
            let log = PushLogCapture()
            let client = Self.client(mock, metrics: TestMetrics(), log: log)
            let summary = try await client.send(Self.notifications(50))
            #expect(summary.delivered == 50)
            let notice = try #require(log.lines("GOAWAY received").first)
            #expect(notice.level == .notice)
            #expect(notice.metadata["connection"] == "1" && notice.metadata["last_stream_id"] != nil)
            #expect(notice.metadata["error_code"] == "0x0")
            #expect(log.lines("connection opened").compactMap { $0.metadata["connection"] }.contains("2"))
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("an untrusted certificate: an error line saying why, failures counted by reason, no request")
        func untrustedCertificateLogged() async throws {
            let mock = try await PushClientTests.start()
            let metrics = TestMetrics()
            let log = PushLogCapture()
            let distrusted = try StubCertificates.generate().clientConfiguration
            let client = Self.client(mock, metrics: metrics, log: log, connections: 2) { configuration in
                configuration.tls = distrusted
                configuration.backoff = .milliseconds(10)
                configuration.maximumBackoff = .milliseconds(100)
            }
            let summary = try await client.send(Self.notifications(50))
            #expect(summary.failed[.untrustedCertificate] == 50)
            #expect(
                try metrics.expectCounter("switchyard_push_results_total", [("result", "UntrustedCertificate")])
                    .totalValue == 50)
            #expect(try metrics.expectCounter("switchyard_push_requests_total").totalValue == 0)
            let failure = try #require(log.lines("connection failed to open").first)
            #expect(failure.level == .error, "permanent: it will not mend by itself")
            #expect(failure.metadata["reason"] == "UntrustedCertificate")
            #expect(failure.metadata["error"]?.contains("no trusted authority signed") == true, "\(failure.metadata)")
            let batch = try #require(log.lines("push batch finished").first)
            #expect(batch.level == .warning && batch.metadata["failures"] == "UntrustedCertificate=50")
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("a ServiceGroup's graceful shutdown: the client finishes its batch in flight, then shuts down")
        func gracefulShutdownDrains() async throws {
            let time = PushClientTests.Time()
            let mock = try await MockAPNs.start(
                certificates: PushClientTests.certificates, rules: PushClientTests.rules(),
                now: { Int(Date().timeIntervalSince1970) }, clock: time.clock)
            let metrics = TestMetrics()
            let log = PushLogCapture()
            // The held answer is released by the test's clock alone: no real-time timeout may end it first.
            let client = Self.client(mock, metrics: metrics, log: log) { $0.requestTimeout = .seconds(3600) }
            // The mock first: the group shuts its services down in reverse order, the client before the mock.
            let group = ServiceGroup(
                services: [mock, client], logger: Logger(label: "group") { _ in SwiftLogNoOpLogHandler() })
            let running = Task { try await group.run() }
            mock.script([.delay(.seconds(60), times: 1)])  // the first answer held until the clock moves
            let batch = Task { try await client.send(Self.notifications(5)) }
            await mock.waitForRequests(count: 1)

            await group.triggerGracefulShutdown()
            await log.wait(for: "push client draining")
            #expect(client.queue.counts.running == 1, "the batch still waits for its held answer")
            try await time.clock.waitForSleepers(count: 1)
            time.clock.advance(by: .seconds(60))
            try await Self.value(of: running)  // the client's run() ended, then the mock's

            let summary = try await Self.value(of: batch)
            #expect(summary.delivered == 5, "drained: every notification of the batch in flight was sent")
            #expect(log.lines("push client stopped").count == 1)
            let after = await client.send(Self.notifications(1)[0])
            guard case .failed(let failure) = after.outcome else {
                Issue.record("a send after the shutdown: \(after.outcome)")
                return
            }
            #expect(failure.reason == .unreachable)
            do {
                try await mock.shutdown()
                Issue.record("the mock's run() should have stopped it")
            } catch {
                // Closed already.
            }
        }

        @Test("cancelling run(): the batch in flight is cancelled (unconfirmed, not sent), then the client shuts down")
        func cancelledRun() async throws {
            let time = PushClientTests.Time()
            let mock = try await MockAPNs.start(
                certificates: PushClientTests.certificates, rules: PushClientTests.rules(),
                now: { Int(Date().timeIntervalSince1970) }, clock: time.clock)
            let metrics = TestMetrics()
            let client = Self.client(mock, metrics: metrics, log: PushLogCapture()) {
                $0.requestTimeout = .seconds(3600)  // the held answer outlasts any slowness of the machine
            }
            let running = Task { try await client.run() }
            mock.script([.delay(.seconds(60), times: 1)])  // one request in flight (one stream until a success)
            let batch = Task { try await client.send(Self.notifications(5)) }
            await mock.waitForRequests(count: 1)

            running.cancel()
            try await Self.value(of: running)
            let summary = try await Self.value(of: batch)
            #expect(summary.unconfirmed == 1 && summary.notSent == 4)
            func results(_ result: String) throws -> Int64 {
                try metrics.expectCounter("switchyard_push_results_total", [("result", result)]).totalValue
            }
            #expect(try results("unconfirmed") == 1)
            #expect(try results("not_sent") == 4)
            let after = await client.send(Self.notifications(1)[0])
            #expect(after.outcome != .delivered, "shut down: \(after.outcome)")
            time.clock.advance(by: .seconds(60))
            try await mock.shutdown()
        }
    }
#endif
