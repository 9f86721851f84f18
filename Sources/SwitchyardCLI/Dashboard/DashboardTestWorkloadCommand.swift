#if CLI && SWITCHYARD_TEST_HOOKS
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardDashboard

    /// `switchyard dashboard-test-workload` (debug builds only): in-process queues in every state a dashboard
    /// shows, served until Ctrl-C, for the browser tests.
    ///
    /// A limit domain "shared" (width 3) above the queues "demo" (width 2) and "other" (width 2). "demo" runs
    /// "progress" (reports progress every 100 ms until cancelled) and "slow parent"; "blocked" waits on "slow
    /// parent"; "ready 1" to "ready 3" wait for a slot of "demo". "other" runs "other long"; "low job" (low priority)
    /// waits for a slot of "shared", escalated by "urgent" (high priority), which waits on it. "failing" failed with
    /// "disk full (test)" before the rest was submitted.
    struct DashboardTestWorkloadCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dashboard-test-workload", abstract: "Serve a dashboard of a fixed test workload.",
            shouldDisplay: false)

        @Option var listen = "127.0.0.1:0"
        @Option var actionsToken: String?
        @Option var interval = 250

        struct DiskFull: Error, CustomStringConvertible {
            var description: String { "disk full (test)" }
        }

        func run() async throws {
            let shared = LimitDomain(name: "shared", width: 3)
            let demo = WorkQueue(name: "demo", width: 2, limit: shared)
            let other = WorkQueue(name: "other", width: 2, limit: shared)
            let failing = try await other.submit("failing") { () async throws -> Void in throw DiskFull() }
            _ = await failing.result
            try await demo.submit("progress") {
                var completed: Int64 = 0
                while !Task.isCancelled {
                    completed = (completed + 1) % 1_000
                    JobContext.current?.reportProgress(completed: completed, total: 1_000)
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            let parent = try await demo.submit("slow parent") { await Self.runUntilCancelled() }
            try await demo.submit("blocked", after: parent) { _ in }
            for index in 1...3 { try await demo.submit("ready \(index)") {} }
            try await other.submit("other long") { await Self.runUntilCancelled() }
            let low = try await other.submit("low job", priority: .low) {}
            try await other.submit("urgent", priority: .high, after: low) { _ in }
            let configuration = DashboardConfiguration(
                interval: .milliseconds(max(interval, 250)),
                actions: actionsToken.map { .enabled(token: $0) } ?? .disabled)
            let dashboard = Dashboard(
                sources: [WorkQueuesSource(id: "test", queues: [demo, other])], configuration: configuration)
            let url = try await DashboardLauncher.start(dashboard, at: try ListenAddress(listen))
            FileHandle.standardOutput.write(Data("Dashboard: \(url)\n".utf8))
            let target = CancellationTarget()
            let interrupts = InterruptHandler(notice: InterruptNotice(), stopping: "stopping") { target.cancel() }
            let (stop, continuation) = AsyncStream.makeStream(of: Void.self)
            target.set { continuation.finish() }
            for await _ in stop {}
            withExtendedLifetime(interrupts) {}
            demo.cancelAll()
            other.cancelAll()
        }

        static func runUntilCancelled() async {
            let (never, continuation) = AsyncStream.makeStream(of: Void.self)
            for await _ in never {}  // ends when the job's task is cancelled
            continuation.finish()
        }
    }
#endif
