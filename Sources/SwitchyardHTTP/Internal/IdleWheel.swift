#if HTTP
    /// The requests an idle sweep watches, filed by the sweep at which each is next looked at: a timing wheel of
    /// ``bucketCount`` buckets, one per sweep ("tick"), each a doubly linked list threaded through one array of
    /// slots (a freed slot is reused). A pure value: no lock, clock or thread; ``IdleSweeper`` keeps it under its lock.
    ///
    /// An entry tells, when asked, the tick of its last activity, or a negative value while it is not waiting for
    /// anything (not yet sent, or its reader is holding the body back). Each sweep advances the tick and takes the
    /// bucket due, one entry per ``step(lastActive:claim:)``: an entry silent for more than ``ticksPerIdle`` ticks has
    /// expired and leaves the wheel; any other is filed again, at the tick at which it would expire. An entry active
    /// at tick `t` thus expires at the first sweep after tick `t + ticksPerIdle`, never sooner.
    ///
    /// - Complexity: ``insert(_:lastActive:)`` and ``remove(_:)`` O(1) (amortized: the slot array grows); each step
    ///   O(1). An entry is looked at once per `ticksPerIdle + 1` ticks at most, however often it is active.
    struct IdleWheel<Entry> {
        /// Buckets, more than the farthest tick an entry is filed at (``ticksPerIdle`` + 2 ahead: an entry's last
        /// activity may be read one tick ahead of the wheel's, see ``IdleSweeper``).
        static var bucketCount: Int { 16 }

        /// Names an entry for ``remove(_:)``; a handle whose entry left the wheel (expired or removed) names nothing.
        struct Handle: Hashable, Sendable {
            let slot: Int32
            let generation: UInt32
        }

        /// What one step of a sweep did.
        enum Step {
            /// This entry expired and left the wheel.
            case expired(Entry)
            /// An entry was filed again, at a later tick.
            case refiled
            /// The bucket due is empty: the sweep is over.
            case done
        }

        fileprivate struct Slot {
            var entry: Entry?
            var generation: UInt32 = 0
            var previous: Int32 = -1
            var next: Int32 = -1
            /// The bucket whose list holds the slot, -1 when free.
            var bucket: Int32 = -1
        }

        /// How many ticks of silence an entry survives: it expires at the first sweep after that many.
        let ticksPerIdle: Int64
        /// The sweeps made so far.
        private(set) var tick: Int64 = 0
        /// The entries in the wheel.
        private(set) var count = 0
        private var slots: [Slot] = []
        private var freeSlots: [Int32] = []
        private var heads = [Int32](repeating: -1, count: IdleWheel.bucketCount)

        /// A wheel whose entries survive `ticksPerIdle` (1…13) silent ticks.
        init(ticksPerIdle: Int64) {
            precondition(
                (1...Int64(Self.bucketCount - 3)).contains(ticksPerIdle), "IdleWheel: ticksPerIdle out of range")
            self.ticksPerIdle = ticksPerIdle
        }

        /// Files `entry`, last active at tick `lastActive` (negative: not waiting yet). - Complexity: O(1) amortized.
        mutating func insert(_ entry: Entry, lastActive: Int64) -> Handle {
            let slot: Int32
            if let free = freeSlots.popLast() {
                slot = free
                slots[Int(slot)].entry = entry
            } else {
                slot = Int32(slots.count)
                slots.append(Slot(entry: entry))
            }
            count += 1
            file(slot, lastActive: lastActive)
            return Handle(slot: slot, generation: slots[Int(slot)].generation)
        }

        /// Takes the entry `handle` names out of the wheel; nothing when it already left. - Complexity: O(1).
        @discardableResult
        mutating func remove(_ handle: Handle) -> Entry? {
            let index = Int(handle.slot)
            guard index < slots.count, slots[index].generation == handle.generation, slots[index].bucket >= 0 else {
                return nil
            }
            unlink(handle.slot)
            return release(handle.slot)
        }

        /// Begins the next sweep: one tick later, with that tick's bucket due.
        mutating func advance() { tick += 1 }

        /// Looks at the next entry of the bucket due (see the type's discussion); `lastActive` reads an entry's tick
        /// of last activity. An entry silent for too long expires only if `claim` (given the entry and the tick it
        /// was read at) agrees; if not (it was active since that read), it is read again and filed again.
        /// - Complexity: O(1).
        mutating func step(
            lastActive: (Entry) -> Int64, claim: (Entry, Int64) -> Bool = { _, _ in true }
        ) -> Step {
            let bucket = Int(tick % Int64(Self.bucketCount))
            let slot = heads[bucket]
            guard slot >= 0, let entry = slots[Int(slot)].entry else { return .done }
            unlink(slot)
            var last = lastActive(entry)
            if last >= 0, tick - last > ticksPerIdle {
                if claim(entry, last) {
                    release(slot)
                    return .expired(entry)
                }
                last = lastActive(entry)
            }
            file(slot, lastActive: last)
            return .refiled
        }

        /// Links `slot` into the bucket of the tick at which an entry last active at `lastActive` is next looked at:
        /// the first tick past its idle ticks, or past the current tick's when it is not waiting, and never the
        /// current tick or an earlier one (a sweep may be under way).
        private mutating func file(_ slot: Int32, lastActive: Int64) {
            let due = max((lastActive >= 0 ? lastActive : tick) + ticksPerIdle + 1, tick + 1)
            let bucket = Int32(due % Int64(Self.bucketCount))
            let head = heads[Int(bucket)]
            slots[Int(slot)].previous = -1
            slots[Int(slot)].next = head
            slots[Int(slot)].bucket = bucket
            if head >= 0 { slots[Int(head)].previous = slot }
            heads[Int(bucket)] = slot
        }

        private mutating func unlink(_ slot: Int32) {
            let (previous, next, bucket) = (slots[Int(slot)].previous, slots[Int(slot)].next, slots[Int(slot)].bucket)
            if previous >= 0 { slots[Int(previous)].next = next } else { heads[Int(bucket)] = next }
            if next >= 0 { slots[Int(next)].previous = previous }
            slots[Int(slot)].bucket = -1
        }

        @discardableResult
        private mutating func release(_ slot: Int32) -> Entry? {
            let entry = slots[Int(slot)].entry
            slots[Int(slot)].entry = nil
            slots[Int(slot)].generation &+= 1
            freeSlots.append(slot)
            count -= 1
            return entry
        }
    }

    extension IdleWheel: Sendable where Entry: Sendable {}
    extension IdleWheel.Slot: Sendable where Entry: Sendable {}
#endif
