import Dispatch
import Foundation
import Synchronization

/// The measured cost of one case: the median of the repetitions, and their range.
struct Sample {
    var median: Double
    var minimum: Double
    var maximum: Double

    init(_ samples: [Double]) {
        median = Clockwork.median(samples)
        minimum = samples.min() ?? median
        maximum = samples.max() ?? median
    }

    /// (max - min) / median: how much the repetitions disagreed.
    var spread: Double { median > 0 ? (maximum - minimum) / median : 0 }
}

/// Repeats a case, after warm-up runs, and reports the median cost per operation with its spread.
struct Runner {
    var repetitions: Int
    var warmups: Int
    /// Scales operation counts down for quick smoke runs.
    var scale: Double

    /// Median nanoseconds per operation of `body(thread, operations)` run on `threads` threads at once
    /// (for `threads > 1`: wall time divided by the total operations, i.e. inverse throughput).
    func nanosecondsPerOperation(
        operations requested: Int, threads: Int = 1, _ body: @escaping @Sendable (Int, Int) -> Void
    ) -> Sample {
        let operations = max(1, Int(Double(requested) * scale))
        var samples: [Double] = []
        for round in 0..<(warmups + repetitions) {
            let elapsed: UInt64
            if threads == 1 {
                let start = Clockwork.now()
                body(0, operations)
                elapsed = Clockwork.now() - start
            } else {
                elapsed = Clockwork.timeOnThreads(threads) { index in body(index, operations) }
            }
            if round >= warmups { samples.append(Double(elapsed) / Double(operations * threads)) }
        }
        return Sample(samples)
    }

    /// As `nanosecondsPerOperation`, for a body that must run in a task. The main thread waits (it is not a
    /// cooperative-pool thread).
    func nanosecondsPerOperationAsync(
        operations requested: Int, _ body: @escaping @Sendable (Int) async -> Void
    ) -> Sample {
        nanosecondsPerOperationAsync(timing: requested) { operations in
            let start = Clockwork.now()
            await body(operations)
            return Clockwork.now() - start
        }
    }

    /// As above, for a body that times only part of itself (setup excluded): it returns the nanoseconds that count.
    func nanosecondsPerOperationAsync(
        timing requested: Int, _ body: @escaping @Sendable (Int) async -> UInt64
    ) -> Sample {
        let operations = max(1, Int(Double(requested) * scale))
        var samples: [Double] = []
        for round in 0..<(warmups + repetitions) {
            let done = DispatchSemaphore(value: 0)
            let result = ResultSlot()
            Task.detached {
                result.nanoseconds.store(await body(operations), ordering: .releasing)
                done.signal()
            }
            done.wait()
            if round >= warmups { samples.append(Double(result.nanoseconds.load(ordering: .acquiring)) / Double(operations)) }
        }
        return Sample(samples)
    }
}

/// Carries one timing out of a task to the waiting main thread.
private final class ResultSlot: Sendable {
    let nanoseconds = Atomic<UInt64>(0)
}
