/// One piece of work waiting for a thread of a ``BlockingExecutor``: a node of ``PendingWorkQueue``.
///
/// Unchecked-Sendable invariant: every `var` is read and written only while the owning executor's lock is held
/// (the queue that links it is guarded by that lock). Exercised under Thread Sanitizer by `BlockingExecutorTests`.
final class PendingWork: @unchecked Sendable {
    enum Item {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
        /// Runs a body and returns the wake-up of whoever waits for it. The worker performs the wake-up only after
        /// it counts as available again, so a caller that submits its next piece of work straight away finds this
        /// thread instead of starting another one.
        case handshake(@Sendable () -> (@Sendable () -> Void)?)
    }

    let item: Item
    /// The priority band it waits in (``PendingWorkQueue/band(of:)``); raised by escalation while it waits.
    fileprivate(set) var band: Int
    fileprivate var next: PendingWork?
    fileprivate unowned(unsafe) var previous: PendingWork?
    fileprivate(set) var isQueued = false

    init(_ item: Item, priority: TaskPriority) {
        self.item = item
        band = PendingWorkQueue.band(of: priority)
    }
}

/// The work waiting for a ``BlockingExecutor``'s threads: served by priority, first in first out within one
/// priority. Guarded by the executor's lock.
///
/// Five bands, one per named `TaskPriority` (background, utility, low/medium, high/user-initiated, above), each a
/// doubly linked list, so that appending, taking the next, withdrawing a cancelled piece and moving an escalated one
/// are all O(1).
struct PendingWorkQueue {
    static let bandCount = 5
    private var heads = [PendingWork?](repeating: nil, count: bandCount)
    private var tails = [PendingWork?](repeating: nil, count: bandCount)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The band of `priority`: background 0, utility 1, medium and low 2, high (user-initiated) 3, above 4.
    static func band(of priority: TaskPriority) -> Int {
        switch priority.rawValue {
        case ..<TaskPriority.utility.rawValue: 0
        case ..<TaskPriority.medium.rawValue: 1
        case ..<TaskPriority.high.rawValue: 2
        case TaskPriority.high.rawValue: 3
        default: 4
        }
    }

    mutating func append(_ work: PendingWork) {
        precondition(!work.isQueued, "Switchyard internal error: pending work queued twice")
        let band = work.band
        work.previous = tails[band]
        work.next = nil
        if let tail = tails[band] { tail.next = work } else { heads[band] = work }
        tails[band] = work
        work.isQueued = true
        count += 1
    }

    /// The oldest piece of the highest band. - Complexity: O(bands).
    mutating func popFirst() -> PendingWork? {
        for band in stride(from: Self.bandCount - 1, through: 0, by: -1) {
            if let head = heads[band] {
                remove(head)
                return head
            }
        }
        return nil
    }

    /// Takes `work` out of the queue if it is still there; returns whether it was. - Complexity: O(1).
    @discardableResult
    mutating func remove(_ work: PendingWork) -> Bool {
        guard work.isQueued else { return false }
        let band = work.band
        if let previous = work.previous { previous.next = work.next } else { heads[band] = work.next }
        if let next = work.next { next.previous = work.previous } else { tails[band] = work.previous }
        work.next = nil
        work.previous = nil
        work.isQueued = false
        count -= 1
        return true
    }

    /// Moves waiting `work` to the band of `priority` if that is higher (at the back of it: FIFO among the work
    /// already at that priority). - Complexity: O(1).
    mutating func escalate(_ work: PendingWork, to priority: TaskPriority) {
        let band = Self.band(of: priority)
        guard work.isQueued, band > work.band else { return }
        remove(work)
        work.band = band
        append(work)
    }
}
