/// A blocking wait on a ``BlockingExecutor`` thread gave up: every thread of the executor, at its hard limit, was
/// waiting in a blocking call while work waited for a thread, so none of the waits could end.
public struct BlockingExecutorStarvation: Error, CustomStringConvertible {
    /// The executor's name.
    public let executor: String
    /// What the failing wait waited for, e.g. `send to channel "batches"`.
    public let waitingFor: String

    public var description: String {
        "BlockingExecutor \"\(executor)\": every thread waits in a blocking call while work waits for a thread "
            + "(this one: \(waitingFor)); the waits could never end. Give the waiting work and the work it waits "
            + "for separate executors, or use the asynchronous forms."
    }
}
