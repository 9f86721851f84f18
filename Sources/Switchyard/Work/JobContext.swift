/// The job the current task is running, for its body to report progress and read its identity.
///
/// ```swift
/// try await queue.submit("import stops") {
///     let context = JobContext.current!
///     for (index, batch) in batches.enumerated() {
///         try Task.checkCancellation()
///         try await write(batch)
///         context.reportProgress(completed: Int64(index + 1), total: Int64(batches.count))
///     }
/// }
/// ```
///
/// Set by the engine for exactly the duration of each attempt of a job's body (a task-local value), so it is
/// visible in the body and in child tasks it creates, and `nil` elsewhere.
public struct JobContext: Sendable {
    /// The job being run by the current task, or `nil` outside any job.
    @TaskLocal public static var current: JobContext?

    let node: JobNode

    init(node: JobNode) { self.node = node }

    /// The job's process-unique identifier.
    public var identifier: UInt64 { node.identifier }
    /// The job's name.
    public var name: String { node.name }
    /// The name of the job's queue.
    public var queueName: String { node.queue.name }

    /// Reports the job's progress in its own units. Queues and groups add the units of all their jobs and give
    /// each job an equal share of their ``WorkProgress/fractionCompleted``; observers receive throttled updates
    /// (see ``WorkQueue/progressUpdates(interval:minimumChange:clock:)``). `completed` is clamped to `0...total`.
    /// A job that never reports counts as one unit, completed when it finishes.
    ///
    /// Cheap enough to call per record: it stores the values in the job (two atomic writes, no lock). The engine
    /// applies the latest report when it aggregates: when an observer is due an update, when the queue's or group's
    /// progress or snapshot is read, and when the job finishes; only the first report after each of those takes
    /// the engine lock, once. Call it from one task at a time (the job's body or one of its child tasks).
    /// - Complexity: O(1).
    public func reportProgress(completed: Int64, total: Int64) {
        let total = min(max(total, 0), JobNode.progressPendingBit - 1)
        node.reportedCompleted.store(min(max(completed, 0), total), ordering: .relaxed)
        let previous = node.reportedTotal.exchange(total | JobNode.progressPendingBit, ordering: .releasing)
        if previous & JobNode.progressPendingBit == 0 {
            Engine.perform(in: node.queue.region) { transaction in Engine.progressReported(node, &transaction) }
        }
    }

    /// Adds `units` to the completed units reported so far, against the total reported last (1 before any
    /// report), as ``reportProgress(completed:total:)`` does.
    public func advanceProgress(by units: Int64 = 1) {
        let total = node.reportedTotal.load(ordering: .relaxed) & ~JobNode.progressPendingBit
        reportProgress(completed: node.reportedCompleted.load(ordering: .relaxed) &+ units, total: total)
    }
}

/// A task-local value carried from the task that submits a job to the task that runs it.
///
/// A pending job is not a task (that would cost kilobytes per job), so it cannot inherit task-locals the way a
/// child task does. Name the task-locals a queue should carry when creating it; each is read when a job is
/// submitted and bound around every attempt of its body:
///
/// ```swift
/// enum Trace { @TaskLocal static var requestID: String? }
/// let queue = WorkQueue(name: "api", propagating: [.value(Trace.$requestID)])
/// ```
///
/// The engine's own ``JobContext/current`` is always set; no other task-local reaches a job.
public struct TaskLocalPropagation: Sendable {
    let capture: @Sendable () -> CapturedTaskLocal

    /// Carries `local`'s value at submission into the job.
    public static func value<Value: Sendable>(_ local: TaskLocal<Value>) -> TaskLocalPropagation {
        TaskLocalPropagation {
            let value = local.get()
            return CapturedTaskLocal { body in await local.withValue(value) { await body() } }
        }
    }
}

/// One task-local value read at submission, able to bind it around an attempt.
struct CapturedTaskLocal: Sendable {
    let bind: @Sendable (_ body: () async -> AttemptEnd) async -> AttemptEnd
}

/// The task-local values captured for one job.
final class CapturedTaskLocals: Sendable {
    let values: [CapturedTaskLocal]

    private init(_ propagations: [TaskLocalPropagation]) {
        values = propagations.map { $0.capture() }
    }

    /// The task-locals `propagations` name, read now; nil (and nothing allocated) when there are none. (A static
    /// function rather than a failable initializer, which would allocate the object before returning nil.)
    static func capture(_ propagations: [TaskLocalPropagation]) -> CapturedTaskLocals? {
        propagations.isEmpty ? nil : CapturedTaskLocals(propagations)
    }

    func bind(_ body: () async -> AttemptEnd) async -> AttemptEnd {
        await bind(from: 0, body)
    }

    private func bind(from index: Int, _ body: () async -> AttemptEnd) async -> AttemptEnd {
        if index == values.count { return await body() }
        return await values[index].bind { await self.bind(from: index + 1, body) }
    }
}
