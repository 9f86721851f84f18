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
    /// or an exchange that runs on after its last caller left. A lane added without a holder (for inspection) stays
    /// until a holder comes and goes. Every operation is O(1) (a dictionary access): a removal never scans.
    ///
    /// Generic over the lane so that its rules are tested without queues; the session keeps one behind its lock.
    struct HostLanes<Lane: AnyObject & Sendable>: Sendable {
        private struct Entry: Sendable {
            let lane: Lane
            var holders: Int
        }

        private var entries: [HostKey: Entry] = [:]

        /// The lanes now.
        var count: Int { entries.count }

        /// Every lane now. - Complexity: O(lanes).
        var all: [Lane] { entries.values.map(\.lane) }

        /// `key`'s lane, if it has one; not held.
        func lane(for key: HostKey) -> Lane? { entries[key]?.lane }

        /// Holds `key`'s lane, if it has one.
        mutating func hold(_ key: HostKey) -> Lane? {
            guard let index = entries.index(forKey: key) else { return nil }
            entries.values[index].holders += 1
            return entries.values[index].lane
        }

        /// Holds `key`'s lane, or `fresh`, which becomes its lane, if it has none.
        mutating func hold(_ key: HostKey, orAdd fresh: Lane) -> Lane {
            if let lane = hold(key) { return lane }
            entries[key] = Entry(lane: fresh, holders: 1)
            return fresh
        }

        /// Holds `lane` once more if it is still `key`'s lane; false (and nothing held) if it was removed.
        mutating func holdAgain(_ key: HostKey, _ lane: Lane) -> Bool {
            guard let index = entries.index(forKey: key), entries.values[index].lane === lane else { return false }
            entries.values[index].holders += 1
            return true
        }

        /// `key`'s lane, or `fresh`, which becomes its lane without a holder, if it has none.
        mutating func lane(for key: HostKey, orAdd fresh: Lane) -> Lane {
            if let lane = entries[key]?.lane { return lane }
            entries[key] = Entry(lane: fresh, holders: 0)
            return fresh
        }

        /// Lets go of one hold of `lane`, `key`'s lane: the lane is removed when that was the last. Nothing happens
        /// for a lane that is no longer `key`'s.
        mutating func release(_ key: HostKey, _ lane: Lane) {
            guard let index = entries.index(forKey: key), entries.values[index].lane === lane else { return }
            precondition(entries.values[index].holders > 0, "HostLanes: a lane of \(key) released more often than held")
            entries.values[index].holders -= 1
            if entries.values[index].holders == 0 { entries.remove(at: index) }
        }
    }
#endif
