import Dispatch

/// Where a completion handler runs: the caller chooses, the API that produces the result obeys.
///
/// The rule of objc.io issue #2, "Low-Level Concurrency APIs", for asynchronous APIs (take "a result block and a
/// queue to deliver the result on") as a value. Producers call `deliver(_:)` once per result, in the order they
/// produce results.
///
/// Ordering: `.queue(_:)` with a serial queue and `.main` run deliveries in the order they were made.
/// `.task(priority:)` and `.executor(_:priority:)` start one task per delivery and promise no order among them.
///
/// A custom `Delivery` must hand `work` off (to a queue, executor, run loop…) rather than run it inline: producers
/// may call `deliver(_:)` while they still hold internal state, and work that runs inline and calls back into the
/// producer synchronously would be a re-entrant access.
public struct Delivery: Sendable {
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// A delivery that passes each piece of work to `schedule`, which must run it later, exactly once.
    public init(_ schedule: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void) {
        self.schedule = schedule
    }

    /// Schedules `work` at this delivery's destination. Never runs `work` before returning unless the custom
    /// `schedule` closure does.
    public func deliver(_ work: @escaping @Sendable () -> Void) {
        schedule(work)
    }

    /// Runs work asynchronously on `queue` (FIFO on a serial queue).
    public static func queue(_ queue: DispatchQueue) -> Delivery {
        Delivery { work in queue.async(execute: work) }
    }

    /// Runs work on the main queue, in order; the main actor's executor on every platform Switchyard supports.
    /// Inside the work, `MainActor.assumeIsolated { … }` gives main-actor isolation.
    public static var main: Delivery { .queue(.main) }

    /// Runs each piece of work in a new unstructured task on the global concurrent executor. No ordering.
    public static func task(priority: TaskPriority? = nil) -> Delivery {
        Delivery { work in Task.detached(priority: priority) { work() } }
    }

    /// Runs each piece of work in a new task that prefers `executor` (for example `BlockingExecutor.shared`).
    /// No ordering among deliveries.
    public static func executor(_ executor: any TaskExecutor, priority: TaskPriority? = nil) -> Delivery {
        Delivery { work in Task(executorPreference: executor, priority: priority) { work() } }
    }
}
