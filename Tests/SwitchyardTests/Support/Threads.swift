import Dispatch
import Foundation
import SwitchyardTesting
import Synchronization

/// Runs `body(index)` on `count` fresh OS threads at once and resumes when all have returned.
///
/// The awaiting task suspends; no cooperative thread is blocked.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let box = ContinuationBox(continuation, count: count)
        for index in 0..<count {
            let thread = Thread {
                body(index)
                if box.remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    box.continuation.resume()
                }
            }
            thread.start()
        }
    }
}

private final class ContinuationBox: Sendable {
    let continuation: CheckedContinuation<Void, Never>
    let remaining: Atomic<Int>
    init(_ continuation: CheckedContinuation<Void, Never>, count: Int = 0) {
        self.continuation = continuation
        self.remaining = Atomic(count)
    }
}

/// A gate that test threads (never tasks) block on until the test opens it.
final class ThreadGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let waiters: Int

    init(waiters: Int = 1) { self.waiters = waiters }

    /// Blocks the calling thread; call only from a dedicated thread, never from a task.
    func wait() { semaphore.wait() }

    /// Lets every waiter through.
    func open() { for _ in 0..<waiters { semaphore.signal() } }
}

/// Starts a thread that enters an access through `enter` and stays inside until the returned gate opens; returns
/// once the thread is inside. Usage: `let holder = await holdOnThread { stay in value.withValue { _ in stay() } }`.
func holdOnThread(_ enter: @escaping @Sendable (_ stayInside: () -> Void) -> Void) async -> ThreadGate {
    let gate = ThreadGate()
    let inside = CallbackExpectation("holding thread is inside the access")
    Thread.detachNewThread {
        enter {
            inside.fulfill()
            gate.wait()
        }
    }
    await inside.fulfillment(within: .seconds(30))
    return gate
}

/// An `Atomic<Int>` that escaping closures can share (a local `Atomic` cannot be captured: it is not copyable).
final class SharedCounter: Sendable {
    private let storage = Atomic<Int>(0)
    var value: Int { storage.load(ordering: .acquiring) }
    @discardableResult
    func add(_ amount: Int = 1) -> Int { storage.wrappingAdd(amount, ordering: .acquiringAndReleasing).newValue }
    func subtract(_ amount: Int = 1) { storage.wrappingSubtract(amount, ordering: .acquiringAndReleasing) }
    func reset() { storage.store(0, ordering: .releasing) }
    /// Raises the value to `candidate` if it is larger.
    func raise(to candidate: Int) {
        var current = storage.load(ordering: .relaxed)
        while candidate > current {
            let (exchanged, original) = storage.compareExchange(
                expected: current, desired: candidate, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}

/// An `Atomic<Bool>` that escaping closures can share.
final class SharedFlag: Sendable {
    private let storage = Atomic<Bool>(false)
    var value: Bool { storage.load(ordering: .acquiring) }
    func set(_ newValue: Bool) { storage.store(newValue, ordering: .releasing) }
}

/// The OS name of the calling thread (as `top -H` and `/proc` show it).
func currentThreadName() -> String {
    #if os(Linux)
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .newlines)
    #else
        return Thread.current.name ?? ""
    #endif
}
