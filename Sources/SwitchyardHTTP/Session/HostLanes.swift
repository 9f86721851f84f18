#if HTTP
    import Switchyard

    /// One host's queue and the coalescer of its identical requests (their response, or their redirect).
    final class HostLane: Sendable {
        let key: HostKey
        let queue: WorkQueue
        let coalescer: Coalescer<ExchangeKey, HopEnd<HTTPResponse>>

        init(key: HostKey, queue: WorkQueue, coalescer: Coalescer<ExchangeKey, HopEnd<HTTPResponse>>) {
            self.key = key
            self.queue = queue
            self.coalescer = coalescer
        }
    }

    /// The lanes of the hosts in use, as a value: a host's lane exists while something holds it, and is removed when
    /// the last holder lets go, so that a session that has talked to a million hosts keeps the lanes of the hosts it
    /// talks to now, not a million.
    ///
    /// A holder is a call waiting for or running a request of the host (its job, and its slot, live inside that hold)
    /// or an exchange that runs on after its last caller left. A lane is added only by a holder: looking one up adds
    /// nothing. Every operation is O(1) (a dictionary access): a removal never scans.
    ///
    /// ``shutDown()`` ends it: it moves the lanes out (to be cancelled and waited for) and refuses every later hold,
    /// so that a call holds a lane that is in the lanes moved out, or holds none.
    ///
    /// Generic over the lane so that its rules are tested without queues; the session keeps one behind its lock.
    struct HostLanes<Lane: AnyObject & Sendable>: Sendable {
        private struct Entry: Sendable {
            let lane: Lane
            var holders: Int
        }

        private var entries: [HostKey: Entry] = [:]

        /// Whether ``shutDown()`` was called: every hold is refused from then on.
        private(set) var isShutDown = false

        /// The lanes now.
        var count: Int { entries.count }

        /// Every lane now. - Complexity: O(lanes): for a value moved out of the lock (``shutDown()``), not under it.
        var all: [Lane] { entries.values.map(\.lane) }

        /// Up to `limit` of the lanes, in no particular order. - Complexity: O(limit) on average.
        func some(_ limit: Int) -> [Lane] { entries.values.prefix(limit).map(\.lane) }

        /// `key`'s lane, if it has one; not held.
        func lane(for key: HostKey) -> Lane? { entries[key]?.lane }

        /// Holds `key`'s lane, if it has one; nil, holding nothing, if it has none or once shut down.
        mutating func hold(_ key: HostKey) -> Lane? {
            guard !isShutDown, let index = entries.index(forKey: key) else { return nil }
            entries.values[index].holders += 1
            return entries.values[index].lane
        }

        /// Holds `key`'s lane, or `fresh`, which becomes its lane, if it has none; nil, holding and adding nothing,
        /// once shut down.
        mutating func hold(_ key: HostKey, orAdd fresh: Lane) -> Lane? {
            guard !isShutDown else { return nil }
            if let lane = hold(key) { return lane }
            entries[key] = Entry(lane: fresh, holders: 1)
            return fresh
        }

        /// Holds `lane` once more if it is still `key`'s lane; false (and nothing held) if it was removed, or moved
        /// out by ``shutDown()``.
        mutating func holdAgain(_ key: HostKey, _ lane: Lane) -> Bool {
            guard let index = entries.index(forKey: key), entries.values[index].lane === lane else { return false }
            entries.values[index].holders += 1
            return true
        }

        /// Lets go of one hold of `lane`, `key`'s lane: the lane is removed when that was the last. Nothing happens
        /// for a lane that is no longer `key`'s (removed, or moved out by ``shutDown()``).
        mutating func release(_ key: HostKey, _ lane: Lane) {
            guard let index = entries.index(forKey: key), entries.values[index].lane === lane else { return }
            precondition(entries.values[index].holders > 0, "HostLanes: a lane of \(key) released more often than held")
            entries.values[index].holders -= 1
            if entries.values[index].holders == 0 { entries.remove(at: index) }
        }

        /// Shuts the lanes down: every later hold is refused (``hold(_:)`` and ``hold(_:orAdd:)`` answer nil), and
        /// the lanes now, each held or being held, are moved out and returned, leaving none; their holders' later
        /// ``release(_:_:)`` and ``holdAgain(_:_:)`` find nothing and do nothing. A second call returns no lanes.
        /// - Complexity: O(1): the lanes' storage is moved, not copied (read ``all`` of the result outside the lock,
        ///   and no later change copies what it shares).
        mutating func shutDown() -> HostLanes {
            let taken = self
            entries = [:]  // lets go of the storage: `taken` is its only owner, and nothing here copies it
            isShutDown = true
            return taken
        }
    }
#endif
