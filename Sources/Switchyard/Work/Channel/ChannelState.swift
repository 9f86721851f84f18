import DequeModule

/// The state behind a ``BoundedChannel``: the buffer, the waiting sides, and the one lock that guards them.
///
/// Continuations are resumed and dropped elements released after the lock is released (`Effects`), so no user code
/// and no deinitializer runs under it.
///
/// Exercised under Thread Sanitizer by `BoundedChannelTests` (async and blocking producers and consumers on several
/// threads, randomized). Unchecked-Sendable invariant: every stored `var` is read and written only between
/// `condition.lock()` and `condition.unlock()` (each method below brackets its whole access).
final class ChannelState<Element: Sendable>: @unchecked Sendable {
    enum Waiter<Value> {
        case async(UInt64, CheckedContinuation<Value, any Error>)
    }

    private struct WaitingSender {
        let element: Element
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What to do once the lock is released.
    private struct Effects {
        var resumeSenders: [(CheckedContinuation<Void, any Error>, Result<Void, any Error>)] = []
        var resumeReceivers: [(CheckedContinuation<Element?, any Error>, Result<Element?, any Error>)] = []
        var dropped: [Element] = []

        func run() {
            for (continuation, result) in resumeSenders { continuation.resume(with: result) }
            for (continuation, result) in resumeReceivers { continuation.resume(with: result) }
        }
    }

    private static var blockingPollInterval: Duration { .milliseconds(50) }

    private let capacity: Int
    private let condition = PlatformCondition()
    private var buffer = Deque<Element>()
    private var senders = WaiterQueue<WaitingSender>()
    private var receivers = WaiterQueue<CheckedContinuation<Element?, any Error>>()
    private var blockingWaiters = 0
    private var closed = false
    private var failure: (any Error)?
    private var lastIdentifier: UInt64 = 0

    init(capacity: Int) { self.capacity = capacity }

    func nextIdentifier() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        lastIdentifier += 1
        return lastIdentifier
    }

    func snapshot() -> (count: Int, closed: Bool, waitingSenders: Int, waitingReceivers: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (buffer.count, closed, senders.count, receivers.count)
    }

    // MARK: Sending

    func send(_ element: sending Element, waiting waiter: Waiter<Void>) {
        // A switch, not `guard case`: a new kind of waiter must be handled here, not leak its continuation.
        let (identifier, continuation): (UInt64, CheckedContinuation<Void, any Error>)
        switch waiter {
        case .async(let id, let waiting): (identifier, continuation) = (id, waiting)
        }
        var effects = Effects()
        condition.lock()
        if let error = closedError {
            effects.resumeSenders.append((continuation, .failure(error)))
        } else if accept(element, &effects) {
            effects.resumeSenders.append((continuation, .success(())))
        } else if Task.isCancelled {
            // Checked under the lock: a cancellation handler that runs later finds this sender registered.
            effects.resumeSenders.append((continuation, .failure(CancellationError())))
        } else {
            senders.append(WaitingSender(element: element, continuation: continuation), identifier: identifier)
        }
        condition.unlock()
        effects.run()
    }

    func sendBlocking(_ element: sending Element, channel name: String) throws {
        var effects = Effects()
        var slot: BlockingExecutor?
        condition.lock()
        defer {
            condition.unlock()
            slot?.reacquireSlot()
            effects.run()
        }
        while true {
            if let error = closedError { throw error }
            if accept(element, &effects) { return }
            if Task.isCancelled { throw CancellationError() }
            try waitBlocking(&slot, for: "send to channel \"\(name)\"")
        }
    }

    func trySend(_ element: sending Element) throws -> Bool {
        var effects = Effects()
        condition.lock()
        defer {
            condition.unlock()
            effects.run()
        }
        if let error = closedError { throw error }
        return accept(element, &effects)
    }

    /// Hands `element` to a waiting receiver or buffers it; false if the buffer is full. Lock held.
    private func accept(_ element: Element, _ effects: inout Effects) -> Bool {
        if let receiver = receivers.popFirst() {
            effects.resumeReceivers.append((receiver, .success(element)))
            return true
        }
        guard buffer.count < capacity else { return false }
        buffer.append(element)
        wakeBlockingWaiters()
        return true
    }

    // MARK: Receiving

    func receive(waiting waiter: Waiter<Element?>) {
        let (identifier, continuation): (UInt64, CheckedContinuation<Element?, any Error>)
        switch waiter {
        case .async(let id, let waiting): (identifier, continuation) = (id, waiting)
        }
        var effects = Effects()
        condition.lock()
        if let element = take(&effects) {
            effects.resumeReceivers.append((continuation, .success(element)))
        } else if let failure {
            effects.resumeReceivers.append((continuation, .failure(failure)))
        } else if closed {
            effects.resumeReceivers.append((continuation, .success(nil)))
        } else if Task.isCancelled {
            effects.resumeReceivers.append((continuation, .failure(CancellationError())))
        } else {
            receivers.append(continuation, identifier: identifier)
        }
        condition.unlock()
        effects.run()
    }

    func receiveBlocking(channel name: String) throws -> Element? {
        var effects = Effects()
        var slot: BlockingExecutor?
        condition.lock()
        defer {
            condition.unlock()
            slot?.reacquireSlot()
            effects.run()
        }
        while true {
            if let element = take(&effects) { return element }
            if let failure { throw failure }
            if closed { return nil }
            if Task.isCancelled { throw CancellationError() }
            try waitBlocking(&slot, for: "receive from channel \"\(name)\"")
        }
    }

    /// Removes the first buffered element and lets the first waiting sender's element in. Lock held.
    private func take(_ effects: inout Effects) -> Element? {
        guard let element = buffer.popFirst() else { return nil }
        if let sender = senders.popFirst() {
            buffer.append(sender.element)
            effects.resumeSenders.append((sender.continuation, .success(())))
        }
        wakeBlockingWaiters()
        return element
    }

    // MARK: Closing and cancelling

    func close(with error: (any Error)?) {
        var effects = Effects()
        condition.lock()
        if failure == nil, !(closed && error == nil) {
            closed = true
            let senderError = error ?? ChannelError.finished
            for sender in senders.removeAll() {
                effects.resumeSenders.append((sender.continuation, .failure(senderError)))
                effects.dropped.append(sender.element)
            }
            for receiver in receivers.removeAll() {
                effects.resumeReceivers.append((receiver, error.map { .failure($0) } ?? .success(nil)))
            }
            if let error {
                failure = error
                effects.dropped.append(contentsOf: buffer)
                buffer.removeAll()
            }
            wakeBlockingWaiters()
        }
        condition.unlock()
        effects.run()
    }

    /// Resumes the async waiter `identifier` with `CancellationError`, if it still waits. O(1) amortized.
    func cancelWaiter(_ identifier: UInt64) {
        var effects = Effects()
        condition.lock()
        if let sender = senders.remove(identifier) {
            effects.resumeSenders.append((sender.continuation, .failure(CancellationError())))
            effects.dropped.append(sender.element)
        } else if let receiver = receivers.remove(identifier) {
            effects.resumeReceivers.append((receiver, .failure(CancellationError())))
        }
        condition.unlock()
        effects.run()
    }

    // MARK: Helpers (lock held)

    private var closedError: (any Error)? {
        if let failure { return failure }
        return closed ? ChannelError.finished : nil
    }

    /// One poll of a blocking wait. On a ``BlockingExecutor`` thread, the first poll gives up the thread's slot
    /// (`slot`, taken back by the caller when the wait ends), and every poll checks that the executor is not starved.
    private func waitBlocking(_ slot: inout BlockingExecutor?, for description: String) throws {
        if slot == nil { slot = BlockingExecutor.releaseSlotForWait() }
        if let slot, slot.isStarved {
            throw BlockingExecutorStarvation(executor: slot.name, waitingFor: description)
        }
        blockingWaiters += 1
        _ = condition.wait(timeout: Self.blockingPollInterval)
        blockingWaiters -= 1
    }

    private func wakeBlockingWaiters() {
        if blockingWaiters > 0 { condition.broadcast() }
    }
}
