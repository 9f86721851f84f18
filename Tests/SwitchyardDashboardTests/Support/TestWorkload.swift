#if Dashboard
    import Switchyard
    import SwitchyardTesting

    /// Queues in the states a dashboard shows.
    ///
    /// "demo" (width 2, under the limit "shared" of width 2, full) runs "first" and "second" until cancelled;
    /// "blocked" waits on "second"; "ready" waits for a slot. "other" (width 1, under "shared") has "low" (low
    /// priority) waiting for a slot of "shared", escalated by "urgent" (high), which waits on it.
    struct TestWorkload {
        let shared = LimitDomain(name: "shared", width: 2)
        let demo: WorkQueue
        let other: WorkQueue
        let first: Job<Void, any Error>
        let second: Job<Void, any Error>

        init() async throws {
            demo = WorkQueue(name: "demo", width: 2, limit: shared)
            other = WorkQueue(name: "other", width: 1, limit: shared)
            let started = CallbackExpectation("both running jobs started", expectedCount: 2)
            first = try demo.trySubmit("first") { () async throws -> Void in
                started.fulfill()
                await Self.runUntilCancelled()
                try Task.checkCancellation()
            }
            second = try demo.trySubmit("second") { () async throws -> Void in
                started.fulfill()
                await Self.runUntilCancelled()
                try Task.checkCancellation()
            }
            await started.fulfillment(within: .seconds(10))
            _ = try demo.trySubmit("blocked", options: JobOptions(dependencies: [second.dependency()])) {}
            _ = try demo.trySubmit("ready") {}
            let low = try other.trySubmit("low", priority: .low) {}
            _ = try other.trySubmit("urgent", priority: .high, options: JobOptions(dependencies: [low.dependency()])) {}
        }

        var queues: [WorkQueue] { [demo, other] }

        /// Cancels the running jobs and waits until every job has finished.
        func finish() async {
            first.cancel()
            second.cancel()
            await demo.waitUntilIdle()
            await other.waitUntilIdle()
        }

        /// Returns when the calling task is cancelled.
        static func runUntilCancelled() async {
            let (never, continuation) = AsyncStream.makeStream(of: Void.self)
            for await _ in never {}
            continuation.finish()
        }
    }
#endif
