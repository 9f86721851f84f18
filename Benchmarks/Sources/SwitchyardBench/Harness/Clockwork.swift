import Dispatch
import Foundation
import Synchronization

/// Timing primitives for benchmarks: monotonic nanoseconds, medians, and a start line for threads.
enum Clockwork {
    /// Monotonic nanoseconds (`DispatchTime`, backed by `CLOCK_MONOTONIC` on Linux).
    @inline(__always)
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The median of `samples` (the mean of the middle two for an even count).
    static func median(_ samples: [Double]) -> Double {
        precondition(!samples.isEmpty, "median of no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Runs `body(threadIndex)` on `threads` fresh OS threads released at the same instant; returns the wall
    /// time in nanoseconds from the release until the last thread finished. Blocks the calling thread (the
    /// benchmark's main thread, never a task).
    static func timeOnThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) -> UInt64 {
        let finished = DispatchGroup()
        let state = StartLine()
        for index in 0..<threads {
            finished.enter()
            let thread = Thread {
                state.arriveAndWait()
                body(index)
                finished.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        while state.ready.load(ordering: .acquiring) < threads { sched_yield() }
        let start = now()
        state.go.store(true, ordering: .releasing)
        finished.wait()
        return now() - start
    }
}

/// Holds worker threads at a start line until the timer starts.
private final class StartLine: Sendable {
    let ready = Atomic<Int>(0)
    let go = Atomic<Bool>(false)

    func arriveAndWait() {
        ready.wrappingAdd(1, ordering: .acquiringAndReleasing)
        while !go.load(ordering: .acquiring) {}
    }
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
enum Blackhole {
    private static let sink = Atomic<Int>(0)
    @inline(never)
    static func consume(_ value: Int) { sink.store(value, ordering: .relaxed) }
}
