/// One step in a job's life, as delivered by ``WorkQueue/events(bufferingPolicy:)``.
///
/// Events of one queue are delivered in the order they happened (one FIFO stream per observer).
public struct JobEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// Submitted to the queue.
        case submitted
        /// An attempt started running.
        case started
        /// An attempt failed and another is scheduled after the retry backoff.
        case retrying
        /// The running attempt exceeded its timeout; its task was cancelled.
        case timedOut
        /// The effective priority changed (escalation, or a new requested priority).
        case priorityChanged
        /// The job finished; ``JobEvent/state`` says how.
        case finished
    }

    /// The job's process-unique identifier.
    public let jobIdentifier: UInt64
    /// The job's number in its queue (``Job/number``).
    public let jobNumber: UInt64
    /// The job's name.
    public let jobName: String
    /// The queue's name.
    public let queueName: String
    /// What happened.
    public let kind: Kind
    /// The job's state right after the event.
    public let state: JobState
    /// The job's effective priority right after the event.
    public let effectivePriority: JobPriority
    /// When it happened.
    public let time: ContinuousClock.Instant
    /// When the job's first attempt started, or nil if it has not started (so a ``Kind/finished`` event gives the
    /// job's running time as `time - startedAt`).
    public let startedAt: ContinuousClock.Instant?
    /// How many attempts have started, the current one included.
    public let attempts: Int

    /// Built under the engine lock.
    init(job: JobNode, kind: Kind) {
        jobIdentifier = job.identifier
        jobNumber = job.number
        jobName = job.name
        queueName = job.queue.name
        self.kind = kind
        state = JobState(job)
        effectivePriority = JobPriority(level: job.effectiveLevel)
        time = .now
        startedAt = job.startedAt.map(EngineClock.instant)
        attempts = job.attempts
    }

    public var description: String {
        "\(queueName)/\(jobName) #\(jobNumber): \(kind) → \(state) at \(effectivePriority)"
    }
}

extension WorkQueue {
    /// How many undelivered events ``events(bufferingPolicy:)`` keeps by default.
    public static let defaultEventBuffer = 4_096

    /// Every lifecycle event of this queue's jobs from now on, in order. The stream ends when the queue is
    /// deallocated; stop iterating to unsubscribe. Emission costs nothing while nobody observes.
    ///
    /// - Parameter bufferingPolicy: what happens when the consumer falls behind. By default the stream keeps the
    ///   newest ``defaultEventBuffer`` events it has not delivered and drops older ones (a job emits about three),
    ///   so a slow observer costs bounded memory; `.unbounded` keeps every event, with memory growing with the
    ///   backlog.
    public func events(
        bufferingPolicy: AsyncStream<JobEvent>.Continuation.BufferingPolicy = .bufferingNewest(
            WorkQueue.defaultEventBuffer)
    ) -> AsyncStream<JobEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: JobEvent.self, bufferingPolicy: bufferingPolicy)
        let identifier = Engine.perform(in: region) { _ in
            events.add(.init(yield: { continuation.yield($0) }, finish: { continuation.finish() }))
        }
        continuation.onTermination = { [weak self] _ in self?.events.remove(identifier) }
        return stream
    }
}
