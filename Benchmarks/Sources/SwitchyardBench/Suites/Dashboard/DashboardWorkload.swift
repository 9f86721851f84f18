import Foundation
import Switchyard
import Synchronization

/// Holds running jobs at ``pass()`` until ``open()``, and lets a task wait until a number of them have arrived:
/// running jobs that stay running without sleeping.
final class JobGate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        var parked: [CheckedContinuation<Void, Never>] = []
        var watcher: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state = Mutex(State())

    /// Suspends until the gate opens (returns at once if it is open).
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (passes, watcher) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                state.arrivals += 1
                var watcher: CheckedContinuation<Void, Never>?
                if let waiting = state.watcher, state.arrivals >= waiting.count {
                    watcher = waiting.continuation
                    state.watcher = nil
                }
                if state.isOpen { return (true, watcher) }
                state.parked.append(continuation)
                return (false, watcher)
            }
            watcher?.resume()
            if passes { continuation.resume() }
        }
    }

    /// Waits until `count` callers have reached ``pass()`` in all. One waiter at a time.
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                if state.arrivals >= count { return true }
                state.watcher = (count, continuation)
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Lets every parked caller, and every later one, through.
    func open() {
        let parked = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.parked = [] }
            return state.parked
        }
        for continuation in parked { continuation.resume() }
    }
}

/// A flag set once, read from any thread.
final class DashboardFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// A count shared between threads and tasks.
final class DashboardCounter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// The jobs a watched queue holds in the snapshot and memory cases.
enum DashboardWorkload {
    /// Fills `queue` (as wide as `running` or wider) with `running` jobs that stay running at `gate` and `waiting`
    /// jobs that never start: one held job, then alternately held jobs and jobs that depend on it, so that the first
    /// jobs a dashboard lists wait for both reasons. Returns once the running jobs run. Teardown: ``drain(_:gate:)``.
    static func fill(_ queue: WorkQueue, running: Int, waiting: Int, gate: JobGate) async {
        for _ in 0..<running { try! queue.trySubmit("gated") { await gate.pass() } }
        await gate.waitForArrivals(running)
        guard waiting > 0 else { return }
        let root = try! queue.trySubmit("never released", options: JobOptions(isHeld: true)) {}
        let held = JobOptions(isHeld: true)
        let behind = JobOptions().after(root)
        for index in 1..<waiting {
            if index % 2 == 0 {
                try! queue.trySubmit("held", options: held) {}
            } else {
                try! queue.trySubmit("behind a held job", options: behind) {}
            }
        }
    }

    /// Cancels every job of `queue`, opens `gate` so that its running jobs return, and waits until it is idle.
    static func drain(_ queue: WorkQueue, gate: JobGate) async {
        queue.cancelAll()
        gate.open()
        await queue.waitUntilIdle()
    }

    /// `n` tiny jobs (empty bodies) submitted to `queue` and awaited one by one, as the `engine` suite's tiny-job
    /// case does, in windows of at most 100,000 submitted jobs (so that millions of them never wait at once).
    static func tinyJobs(_ queue: WorkQueue, _ n: Int) async {
        let window = 100_000
        var handles: [Job<Void, Never>] = []
        handles.reserveCapacity(min(n, window))
        var submitted = 0
        while submitted < n {
            let batch = min(window, n - submitted)
            for _ in 0..<batch { handles.append(try! queue.trySubmit("tiny") {}) }
            for handle in handles { try! await handle.value }
            handles.removeAll(keepingCapacity: true)
            submitted += batch
        }
    }

    /// ``tinyJobs(_:_:)`` run from the calling (main) thread, which waits; the nanoseconds it took.
    static func timedTinyJobs(_ queue: WorkQueue, _ n: Int) -> UInt64 {
        try! blockingRun {
            let start = Clockwork.now()
            await tinyJobs(queue, n)
            return Clockwork.now() - start
        }
    }
}
