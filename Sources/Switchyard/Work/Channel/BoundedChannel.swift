/// A bounded first-in, first-out buffer between producers and consumers — the back-pressure link between the jobs
/// of a pipeline (a parser job that reads ahead by at most `capacity` batches of a writer job).
///
/// ```swift
/// let batches = BoundedChannel<Batch>(capacity: 2, name: "stop_times batches")
/// let parser = try await queue.submit("parse") {
///     for batch in parse(feed) { try await batches.send(batch) }     // suspends while 2 batches wait
///     batches.finish()
/// }
/// let writer = try await queue.submitBlocking("write") {
///     while let batch = try batches.receiveBlocking() { try database.insert(batch) }   // blocks a blocking thread
/// }
/// ```
///
/// Each side comes in two forms: asynchronous (`send`, `receive`, `for try await`), which suspends and never blocks,
/// and blocking (`sendBlocking`, `receiveBlocking`) for blocking jobs and threads — never call those on Swift's
/// cooperative pool. Both forms may be mixed freely on one channel.
///
/// ## Guarantees
/// - **Order**: elements are received in the order their sends completed; asynchronous waiters on each side are
///   served first in, first out (blocking waiters compete).
/// - **Bound**: at most `capacity` elements are buffered; a send beyond that waits until a receive makes room.
///   A waiting sender's element is not counted in `count` and not visible to receivers until it is accepted.
/// - **Finishing**: after `finish()`, sends throw ``ChannelError/finished``; receivers drain what is buffered, then
///   get `nil`. After `fail(_:)`, buffered elements are dropped and every waiting and later call on either side
///   throws the given error — the way a consumer that stops early (or an import that is cancelled) releases a
///   producer that waits for room.
/// - **Cancellation**: a task cancelled while waiting in `send` or `receive` stops waiting and throws
///   `CancellationError`; its element is not sent. A blocking wait notices its task's cancellation within 50 ms.
/// - **Cost**: O(1) per operation, amortized; one lock (a pthread mutex) guards the state. A cancelled waiter
///   leaves in O(1) amortized however many wait (see `WaiterQueue`).
///
/// Thread-safe: every method may be called from any thread or task.
public final class BoundedChannel<Element: Sendable>: Sendable, CustomStringConvertible {
    /// The most elements buffered at once.
    public let capacity: Int
    /// The name shown in `description` and diagnostics.
    public let name: String
    private let state: ChannelState<Element>

    /// Creates a channel that buffers at most `capacity` elements.
    /// - Precondition: `capacity >= 1`.
    public init(capacity: Int, name: String) {
        precondition(capacity >= 1, "BoundedChannel \"\(name)\": capacity must be at least 1 (got \(capacity))")
        self.capacity = capacity
        self.name = name
        state = ChannelState(capacity: capacity)
    }

    // MARK: Sending

    /// Appends `element`, suspending while the channel is full.
    /// - Throws: ``ChannelError/finished`` after `finish()`; the failure after `fail(_:)`; `CancellationError` if
    ///   the task is cancelled while waiting (the element is then not sent).
    public func send(_ element: sending Element) async throws {
        try Task.checkCancellation()
        let identifier = state.nextIdentifier()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.send(element, waiting: .async(identifier, continuation))
            }
        } onCancel: {
            state.cancelWaiter(identifier)
        }
    }

    /// Appends `element`, blocking the calling thread while the channel is full. For blocking jobs and threads.
    ///
    /// On a ``BlockingExecutor`` thread the wait gives up the thread's slot (a replacement thread may run queued
    /// work, such as this channel's consumer), and fails with ``BlockingExecutorStarvation`` if every thread of the
    /// executor, at its hard limit, waits while work waits for a thread.
    /// - Throws: as `send(_:)`; ``BlockingExecutorStarvation``; the task's cancellation is noticed within 50 ms.
    public func sendBlocking(_ element: sending Element) throws {
        try state.sendBlocking(element, channel: name)
    }

    /// Appends `element` if there is room, without waiting; returns false if the channel is full.
    /// - Throws: ``ChannelError/finished`` after `finish()`; the failure after `fail(_:)`.
    public func trySend(_ element: sending Element) throws -> Bool {
        try state.trySend(element)
    }

    // MARK: Receiving

    /// The next element, suspending while the channel is empty; `nil` once it is finished and drained.
    /// - Throws: the failure after `fail(_:)`; `CancellationError` if the task is cancelled while waiting.
    public func receive() async throws -> Element? {
        try Task.checkCancellation()
        let identifier = state.nextIdentifier()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
                state.receive(waiting: .async(identifier, continuation))
            }
        } onCancel: {
            state.cancelWaiter(identifier)
        }
    }

    /// The next element, blocking the calling thread while the channel is empty; `nil` once finished and drained.
    /// For blocking jobs and threads; on a ``BlockingExecutor`` thread, as for ``sendBlocking(_:)``.
    /// - Throws: as `receive()`; ``BlockingExecutorStarvation``; the task's cancellation is noticed within 50 ms.
    public func receiveBlocking() throws -> Element? {
        try state.receiveBlocking(channel: name)
    }

    // MARK: Closing

    /// Ends the channel: later sends throw ``ChannelError/finished`` (also those waiting for room), receivers drain
    /// the buffer and then get `nil`. Idempotent; a no-op after `fail(_:)`.
    public func finish() { state.close(with: nil) }

    /// Fails the channel: buffered elements are dropped (released outside the lock) and every waiting and later
    /// call on either side throws `error`. Idempotent: the first `finish` or `fail` wins, except that `fail`
    /// after `finish` still fails the receivers (a consumer giving up on a finished producer).
    public func fail(_ error: any Error) { state.close(with: error) }

    // MARK: Introspection

    /// The number of buffered elements. O(1).
    public var count: Int { state.snapshot().count }

    /// Whether `finish()` or `fail(_:)` has been called.
    public var isClosed: Bool { state.snapshot().closed }

    /// The number of tasks suspended in `send` until there is room (blocking senders not included). O(1).
    public var waitingSenders: Int { state.snapshot().waitingSenders }

    /// The number of tasks suspended in `receive` until an element arrives (blocking receivers not included). O(1).
    public var waitingReceivers: Int { state.snapshot().waitingReceivers }

    /// One line: name, buffered count against capacity, waiting tasks when there are any, and whether it is closed.
    public var description: String {
        let snapshot = state.snapshot()
        var details = ""
        if snapshot.waitingSenders > 0 { details += ", \(snapshot.waitingSenders) senders waiting" }
        if snapshot.waitingReceivers > 0 { details += ", \(snapshot.waitingReceivers) receivers waiting" }
        if snapshot.closed { details += ", closed" }
        return "BoundedChannel(\"\(name)\", \(snapshot.count)/\(capacity)\(details))"
    }
}

extension BoundedChannel: AsyncSequence {
    /// Iterating receives: each `next()` is a `receive()`. Several iterators share the elements between them.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: BoundedChannel

        /// The next element, or `nil` once the channel is finished and drained.
        public mutating func next() async throws -> Element? {
            try await channel.receive()
        }
    }

    /// An iterator that receives from this channel.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: self) }
}

/// Why a channel operation failed.
public enum ChannelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `send` after the channel was finished.
    case finished

    public var description: String {
        switch self {
        case .finished: "the channel is finished: no more elements can be sent"
        }
    }
}
