import Dispatch
import Foundation
import Synchronization

/// The measured cost of one case: the median of the repetitions, and their range.
struct Sample {
    var median: Double
    var minimum: Double
    var maximum: Double
    /// Every repetition, in order (for `interleaved`: one per round).
    var values: [Double]

    init(_ samples: [Double]) {
        values = samples
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
        nanosecondsPerOperation(timing: requested) { operations in
            if threads == 1 {
                let start = Clockwork.now()
                body(0, operations)
                return Clockwork.now() - start
            }
            // Per operation of all threads together (nanoseconds cut to whole ones: no measurable loss).
            return Clockwork.timeOnThreads(threads) { index in body(index, operations) } / UInt64(threads)
        }
    }

    /// As `nanosecondsPerOperation` on one thread, for a body that returns the nanoseconds that count (setup
    /// excluded).
    func nanosecondsPerOperation(timing requested: Int, _ body: (Int) -> UInt64) -> Sample {
        let operations = max(1, Int(Double(requested) * scale))
        var samples: [Double] = []
        for round in 0..<(warmups + repetitions) {
            let elapsed = body(operations)
            if round >= warmups { samples.append(Double(elapsed) / Double(operations)) }
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
            let nanoseconds = Self.runDetached(operations, body)
            if round >= warmups { samples.append(nanoseconds / Double(operations)) }
        }
        return Sample(samples)
    }

    /// For linearity goals: `body` timed at `small` and at `large` operations, the two sizes alternating round by
    /// round so that a burst of load on the machine lands on both rather than on one size's rounds.
    func nanosecondsPerOperationAsync(
        operations small: Int, against large: Int, _ body: @escaping @Sendable (Int) async -> Void
    ) -> (small: Sample, large: Sample) {
        nanosecondsPerOperationAsync(timing: small, against: large, Self.timedWhole(body))
    }

    /// As above, for a body that returns the nanoseconds that count (setup excluded).
    func nanosecondsPerOperationAsync(
        timing small: Int, against large: Int, _ body: @escaping @Sendable (Int) async -> UInt64
    ) -> (small: Sample, large: Sample) {
        let samples = interleaved([(small, .task(body)), (large, .task(body))])
        return (samples[0], samples[1])
    }

    /// Several cases measured round by round in turn (case 1, case 2, …, then again), so that a burst of load on
    /// the machine lands on every case rather than on one case's rounds: for ratios between them. Each body returns
    /// the nanoseconds that count for its operation count; one sample per case.
    /// With `minimumRounds`, a full run (not a quick one) measures at least that many rounds: for ratios of ratios,
    /// whose noise compounds.
    func interleaved(_ cases: [(operations: Int, body: InterleavedBody)], minimumRounds: Int = 0) -> [Sample] {
        var samples = Array(repeating: [Double](), count: cases.count)
        let rounds = scale < 1 ? repetitions : max(repetitions, minimumRounds)
        for round in 0..<(warmups + rounds) {
            for (index, item) in cases.enumerated() {
                let operations = max(1, Int(Double(item.operations) * scale))
                let nanoseconds: Double
                switch item.body {
                case .task(let body): nanoseconds = Self.runDetached(operations, body)
                case .mainThread(let body): nanoseconds = Double(body(operations))
                }
                if round >= warmups { samples[index].append(nanoseconds / Double(operations)) }
            }
        }
        return samples.map(Sample.init)
    }

    /// A body timed whole, in the form `interleaved` takes.
    static func timedWhole(_ body: @escaping @Sendable (Int) async -> Void) -> @Sendable (Int) async -> UInt64 {
        { operations in
            let start = Clockwork.now()
            await body(operations)
            return Clockwork.now() - start
        }
    }

    /// Runs `body` in a detached task while the calling (main) thread waits; returns what it returned.
    private static func runDetached(
        _ operations: Int, _ body: @escaping @Sendable (Int) async -> UInt64
    ) -> Double {
        let done = DispatchSemaphore(value: 0)
        let result = ResultSlot()
        Task.detached {
            result.nanoseconds.store(await body(operations), ordering: .releasing)
            done.signal()
        }
        done.wait()
        return Double(result.nanoseconds.load(ordering: .acquiring))
    }
}

/// How ``Runner/interleaved(_:)`` runs one case's body.
enum InterleavedBody {
    /// In a detached task, while the main thread waits (for async code, which must not run on the main thread
    /// here: it is not a cooperative-pool thread).
    case task(@Sendable (Int) async -> UInt64)
    /// On the main thread (for synchronous anchors that block their caller until their work is done, such as
    /// `OperationQueue.waitUntilAllOperationsAreFinished()`: never on a cooperative-pool thread).
    case mainThread((Int) -> UInt64)
}

/// Carries one timing out of a task to the waiting main thread.
private final class ResultSlot: Sendable {
    let nanoseconds = Atomic<UInt64>(0)
}
