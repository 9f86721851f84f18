#if Observability
    import Logging
    import MetricsTestKit
    import ServiceLifecycle
    import Switchyard
    import SwitchyardObservability
    import SwitchyardTesting
    import Synchronization
    import Testing

    struct Failure: Error {}

    /// A job body that waits until the test lets it finish.
    final class HeldWork: Sendable {
        private let gate = LockedState<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resume = gate.withLock { state in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resume { continuation.resume() }
            }
        }

        func release() {
            let waiters = gate.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Log lines kept in memory.
    final class CapturedLog: Sendable {
        struct Entry: Sendable {
            var level: Logger.Level
            var message: String
            var metadata: [String: String]
        }

        let entries = LockedState<[Entry]>([])

        var logger: Logger {
            var logger = Logger(label: "test") { _ in Handler(log: self) }
            logger.logLevel = .trace
            return logger
        }

        struct Handler: LogHandler {
            let log: CapturedLog
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                let flat = (event.metadata ?? [:]).mapValues { "\($0)" }
                log.entries.withLock {
                    $0.append(Entry(level: event.level, message: "\(event.message)", metadata: flat))
                }
            }
        }
    }

    @Suite("WorkQueueService and WorkQueueMetrics")
    struct WorkQueueServiceTests {
        @Test("the documented metrics, exact from the counts: submitted, finished by outcome, pending, running")
        func countsAreExact() async throws {
            let metrics = TestMetrics()
            let queue = WorkQueue(name: "reports", width: 2)
            var measured = WorkQueueMetrics(queue, factory: metrics)
            _ = await (try await queue.submit("ok 1") { 1 }).result
            _ = await (try await queue.submit("ok 2") { 2 }).result
            _ = await (try await queue.submit("fails") { () async throws(Failure) -> Int in throw Failure() }).result
            measured.sample()
            let name = [("queue", "reports")]
            #expect(try metrics.expectCounter("switchyard_jobs_submitted_total", name).totalValue == 3)
            #expect(
                try metrics.expectCounter("switchyard_jobs_finished_total", name + [("outcome", "succeeded")])
                    .totalValue == 2)
            #expect(
                try metrics.expectCounter("switchyard_jobs_finished_total", name + [("outcome", "failed")])
                    .totalValue == 1)
            #expect(try metrics.expectGauge("switchyard_jobs_pending", name).lastValue == 0)
            #expect(try metrics.expectGauge("switchyard_jobs_running", name).lastValue == 0)
            // A second sample reports what changed since the first.
            _ = await (try await queue.submit("ok 3") { 3 }).result
            measured.sample()
            #expect(try metrics.expectCounter("switchyard_jobs_submitted_total", name).totalValue == 4)
        }

        @Test("a finished job's duration, by outcome, and retries, from its events")
        func durations() async throws {
            let metrics = TestMetrics()
            let queue = WorkQueue(name: "timed")
            let measured = WorkQueueMetrics(queue, factory: metrics)
            let events = queue.events()
            _ = await (try await queue.submit("ok") { 1 }).result
            for await event in events {
                measured.record(event)
                if event.kind == .finished { break }
            }
            let timer = try metrics.expectTimer(
                "switchyard_job_duration_seconds", [("queue", "timed"), ("outcome", "succeeded")])
            #expect(timer.values.count == 1 && timer.values[0] >= 0)
        }

        @Test("log levels: failures are errors, retries warnings, cancellations notices, the rest debug")
        func logLevels() async throws {
            let log = CapturedLog()
            let queue = WorkQueue(name: "logged")
            let events = queue.events()
            _ = await (try await queue.submit("ok") { 1 }).result
            _ = await (try await queue.submit("fails") { () async throws(Failure) -> Int in throw Failure() }).result
            var finished = 0
            for await event in events {
                WorkQueueLog.log(event, to: log.logger)
                if event.kind == .finished { finished += 1 }
                if finished == 2 { break }
            }
            let entries = log.entries.withLock { $0 }
            let failure = try #require(entries.first { $0.metadata["job"] == "fails" && $0.level == .error })
            #expect(failure.metadata["queue"] == "logged" && failure.metadata["attempt"] == "1")
            #expect(failure.metadata["duration"] != nil)
            #expect(entries.filter { $0.metadata["job"] == "ok" }.allSatisfy { $0.level == .debug })
        }

        @Test("graceful shutdown drains: a running job finishes, then the service returns with the counts reported")
        func gracefulShutdownDrains() async throws {
            let metrics = TestMetrics()
            let queue = WorkQueue(name: "drained")
            let held = HeldWork()
            let service = WorkQueueService(queue, metricsFactory: metrics, clock: ManualClock())
            let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
            let running = Task { try await group.run() }
            let job = try await queue.submit("held") {
                await held.wait()
                return 1
            }
            await group.triggerGracefulShutdown()
            held.release()
            try await running.value
            #expect(job.state == .succeeded)
            #expect(
                try metrics.expectCounter(
                    "switchyard_jobs_finished_total", [("queue", "drained"), ("outcome", "succeeded")]
                ).totalValue == 1)
        }

        @Test("a forceful end during the drain cancels what is left")
        func cancellationDuringDrain() async throws {
            let queue = WorkQueue(name: "drain cancelled")
            let held = HeldWork()
            let service = WorkQueueService(queue, clock: ManualClock())
            let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
            let running = Task { try await group.run() }
            let job = try await queue.submit("held until cancelled") {
                await withTaskCancellationHandler {
                    await held.wait()
                } onCancel: {
                    held.release()
                }
                try Task.checkCancellation()
                return 1
            }
            await group.triggerGracefulShutdown()
            running.cancel()
            _ = try? await running.value
            guard case .failure(.cancelled) = await job.result else {
                Issue.record("the held job was not cancelled")
                return
            }
        }

        @Test("cancellation cancels the queue's unfinished jobs")
        func cancellationCancels() async throws {
            let queue = WorkQueue(name: "cancelled")
            let held = HeldWork()
            let service = WorkQueueService(queue, clock: ManualClock())
            let job = try await queue.submit("held until cancelled") {
                await withTaskCancellationHandler {
                    await held.wait()
                } onCancel: {
                    held.release()
                }
                try Task.checkCancellation()
                return 1
            }
            let running = Task { try await service.run() }
            running.cancel()
            try await running.value  // returns once the cancelled job has finished
            guard case .failure(.cancelled) = await job.result else {
                Issue.record("the held job was not cancelled")
                return
            }
        }
    }
#endif
