#if Images
    /// A ``ThumbnailDiskCache``'s bookkeeping: each counted entry's file name and size, least recently used first,
    /// and their total; while the folder is scanned at open, also what the scan's merge must leave out.
    ///
    /// A value, guarded by the cache's lock. It does no I/O: the names its operations return are files to remove,
    /// which the cache unlinks once it has released the lock.
    ///
    /// **The scan's merge** comes in slices of at most ``mergeSliceLength`` entries (``mergeScan(_:isLast:)``), the
    /// oldest part of the scan's list first, so that the cache releases its lock between two slices: a read or a
    /// write waits for one slice at most. Each slice ranks its entries above the ones merged before and below every
    /// entry read or written since the scan began, then evicts the least recently used entries; so, with nothing
    /// read or written between them, slices leave the ranking, total and evictions of one merge of the whole list
    /// (the oldest entries go first, whichever slice brought them).
    ///
    /// - Complexity: O(1) per ``record(_:size:)``, ``remove(_:removingFile:)`` and ``removeAll()``, O(slice) per
    ///   ``mergeScan(_:isLast:)``, each plus O(1) per entry it evicts (amortized: the storage grows by doubling, and
    ///   ``reserveCapacity(adding:)`` makes room for the scan's entries in one hold, before the merge).
    struct DiskCacheIndex {
        /// The most entries of the scan's list that one ``mergeScan(_:isLast:)`` takes: the longest a read or a write
        /// waits for the merge (well under a millisecond).
        static let mergeSliceLength = 1_024

        /// An entry in the recency list; `older` and `newer` are indices into `nodes`, -1 for none.
        fileprivate struct Node {
            var name: String
            var size: Int
            var older: Int
            var newer: Int
        }

        /// What the scan at open leaves out until its last slice has merged.
        fileprivate struct PendingScan {
            /// The names whose file the scan may have listed but which are gone, or going, since it began: those
            /// counted, then removed or evicted, and those whose file the cache removes (a torn entry). A read's miss
            /// of a name not counted adds nothing: it removes nothing.
            var removed: Set<String> = []
            /// Whether ``removeAll()`` ran since the scan began: the entries it has yet to merge predate it, and go.
            var removedAll = false
        }

        /// The most bytes the counted entries may take.
        let byteLimit: Int
        /// The sum of the counted entries' sizes.
        private(set) var totalBytes = 0
        private var nodes: [Node] = []
        /// Indices of `nodes` whose entry was removed, for reuse.
        private var freeSlots: [Int] = []
        /// Entry file name → index in `nodes`.
        private var slots: [String: Int] = [:]
        private var oldest = -1
        private var newest = -1
        /// The newest entry merged from the scan's list and not used since (an index into `nodes`), -1 for none:
        /// the next slice links above it. Every older entry in the list is also one merged and not used since.
        private var mergedTop = -1
        /// The scan's bookkeeping; nil once its last slice has merged.
        private var pendingScan: PendingScan? = PendingScan()

        init(byteLimit: Int) { self.byteLimit = byteLimit }

        /// The number of entries counted.
        var count: Int { slots.count }
        /// Whether the scan at open has merged its last slice.
        var isScanned: Bool { pendingScan == nil }
        /// The number of names the merge is to leave out as removed since the scan began; 0 once scanned (tests).
        var removedDuringScanCount: Int { pendingScan?.removed.count ?? 0 }

        /// Counts `name`, a file of `size` bytes just written or read, as the most recently used entry (replacing
        /// its earlier size if it was counted), then evicts the least recently used entries until the total is
        /// within the limit. Returns the evicted names (`name` itself when `size` alone is over the limit).
        mutating func record(_ name: String, size: Int) -> [String] {
            if let slot = slots[name] {
                totalBytes += size - nodes[slot].size
                nodes[slot].size = size
                unlink(slot)
                linkAsNewest(slot)
            } else {
                let slot = allocate(Node(name: name, size: size, older: -1, newer: -1))
                slots[name] = slot
                totalBytes += size
                linkAsNewest(slot)
            }
            let evicted = evictOverflow()
            checkInvariants()
            return evicted
        }

        /// Stops counting `name`; whether it was counted. Its file is gone (a read found none), or, with
        /// `removingFile`, the caller removes it (a torn entry).
        ///
        /// While the scan at open runs, the merge leaves `name` out if it was counted or its file is being removed;
        /// a read's miss of a name not counted records nothing, so misses take no memory however many there are
        /// (if the scan listed that file before another process removed it, the merge counts it until a read
        /// drops it, as for any entry another process removes).
        @discardableResult
        mutating func remove(_ name: String, removingFile: Bool = false) -> Bool {
            guard let slot = slots.removeValue(forKey: name) else {
                if removingFile { pendingScan?.removed.insert(name) }
                return false
            }
            pendingScan?.removed.insert(name)
            release(slot)
            checkInvariants()
            return true
        }

        /// The entries ``removeAll()`` took out of the index, storage and all: their names are collected, and their
        /// storage freed, with this value, once the cache has released its lock.
        struct RemovedEntries {
            fileprivate let nodes: [Node]
            fileprivate let slots: [String: Int]
            fileprivate let freeSlots: [Int]

            /// The removed entries' file names. - Complexity: O(entries).
            var names: [String] { Array(slots.keys) }
        }

        /// Stops counting every entry and returns them, to be removed outside the lock (see ``RemovedEntries``).
        /// While the scan at open runs, the entries it has yet to merge go too: the merge returns them for removal
        /// (their files predate this call), unless counted again meanwhile.
        /// - Complexity: O(1): the storage is handed over whole, not walked nor freed.
        mutating func removeAll() -> RemovedEntries {
            let removed = RemovedEntries(nodes: nodes, slots: slots, freeSlots: freeSlots)
            nodes = []
            freeSlots = []
            slots = [:]
            oldest = -1
            newest = -1
            mergedTop = -1
            totalBytes = 0
            pendingScan?.removedAll = true
            checkInvariants()
            return removed
        }

        /// Makes room for `count` entries more than the index holds, so that the scan's merge, which may add them,
        /// does not grow the storage (a copy of every entry) in one of its slices. Call before the first slice,
        /// with the number of the scan's entries that can stay within the limit.
        /// - Complexity: O(entries counted) plus an allocation (before the merge: the entries read or written since
        ///   the scan began).
        mutating func reserveCapacity(adding count: Int) {
            slots.reserveCapacity(slots.count + count)
            nodes.reserveCapacity(nodes.count + count)
        }

        /// What a slice of the scan's merge leaves the cache to do once it has released its lock.
        struct MergedSlice {
            /// The files to remove: the entries evicted, and (after a ``removeAll()`` during the scan) the slice's
            /// entries left out.
            let namesToRemove: [String]
            /// After the last slice, the scan's bookkeeping, freed with this value, outside the lock.
            fileprivate let retired: PendingScan?
        }

        /// Merges the next slice of the entries the scan at open found. The scan's list is sorted oldest
        /// modification first and cut into consecutive slices, merged in order: oldest part first, `isLast` on the
        /// newest, which ends the scan's bookkeeping (``isScanned`` from then on; an empty list is one empty last
        /// slice).
        ///
        /// Links each entry of `slice` that is neither counted nor removed since the scan began (see
        /// ``remove(_:removingFile:)``), in order, above the entries merged before and below every entry read or
        /// written since the scan began (an entry merged, then used, ranks as used); then evicts the least recently
        /// used entries until the total is within the limit. After a ``removeAll()`` during the scan, it links none
        /// of them and returns them for removal instead.
        ///
        /// Slices rank and evict as one merge of the whole list would: every eviction takes the oldest entry the
        /// index holds, and an entry of a later slice ranks above every entry of an earlier one. Between slices,
        /// reads and writes go on (an entry read before its slice merges is counted as read, and its slice leaves it
        /// out). The entries of slices yet to merge are not in the index: an eviction cannot take them, as before
        /// the merge.
        /// - Precondition: the last slice has not merged (``isScanned`` is false).
        /// - Complexity: O(slice.count), plus O(1) per entry evicted.
        mutating func mergeScan(_ slice: ArraySlice<(name: String, size: Int)>, isLast: Bool) -> MergedSlice {
            precondition(pendingScan != nil, "DiskCacheIndex: the scan at open merges nothing after its last slice")
            let removedAll = pendingScan!.removedAll
            var names: [String] = []
            for entry in slice where slots[entry.name] == nil && !pendingScan!.removed.contains(entry.name) {
                if removedAll {
                    names.append(entry.name)
                    continue
                }
                let slot = allocate(Node(name: entry.name, size: entry.size, older: -1, newer: -1))
                slots[entry.name] = slot
                totalBytes += entry.size
                linkAboveMerged(slot)
            }
            names += evictOverflow()
            var retired: PendingScan?
            if isLast {
                swap(&retired, &pendingScan)
                mergedTop = -1
            }
            checkInvariants()
            return MergedSlice(namesToRemove: names, retired: retired)
        }

        // MARK: the recency list

        private mutating func evictOverflow() -> [String] {
            var evicted: [String] = []
            while totalBytes > byteLimit, oldest >= 0 {
                let name = nodes[oldest].name
                // An entry merged (the oldest is one while mergedTop is) is in no later slice.
                if mergedTop < 0 { pendingScan?.removed.insert(name) }
                slots[name] = nil
                release(oldest)
                evicted.append(name)
            }
            return evicted
        }

        private mutating func allocate(_ node: Node) -> Int {
            if let slot = freeSlots.popLast() {
                nodes[slot] = node
                return slot
            }
            nodes.append(node)
            return nodes.count - 1
        }

        /// Unlinks `slot`, takes its size off the total and frees it (its name is already out of `slots`).
        private mutating func release(_ slot: Int) {
            unlink(slot)
            totalBytes -= nodes[slot].size
            nodes[slot].name = ""
            nodes[slot].size = 0
            freeSlots.append(slot)
        }

        private mutating func unlink(_ slot: Int) {
            let (older, newer) = (nodes[slot].older, nodes[slot].newer)
            if slot == mergedTop { mergedTop = older }
            if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
            if newer >= 0 { nodes[newer].older = older } else { newest = older }
            nodes[slot].older = -1
            nodes[slot].newer = -1
        }

        private mutating func linkAsNewest(_ slot: Int) {
            nodes[slot].older = newest
            nodes[slot].newer = -1
            if newest >= 0 { nodes[newest].newer = slot } else { oldest = slot }
            newest = slot
        }

        /// Links `slot` just above `mergedTop` (as the oldest entry when there is none), and makes it `mergedTop`.
        private mutating func linkAboveMerged(_ slot: Int) {
            if mergedTop >= 0 {
                let newer = nodes[mergedTop].newer
                nodes[slot].older = mergedTop
                nodes[slot].newer = newer
                nodes[mergedTop].newer = slot
                if newer >= 0 { nodes[newer].older = slot } else { newest = slot }
            } else {
                nodes[slot].newer = oldest
                nodes[slot].older = -1
                if oldest >= 0 { nodes[oldest].older = slot } else { newest = slot }
                oldest = slot
            }
            mergedTop = slot
        }

        /// The counted names, least recently used first (tests). - Complexity: O(entries).
        var namesByRecency: [String] {
            var names: [String] = []
            var slot = oldest
            while slot >= 0 {
                names.append(nodes[slot].name)
                slot = nodes[slot].newer
            }
            return names
        }

        /// Under `SWITCHYARD_INTERNAL_CHECKS`: the list holds every counted entry once, in both directions, and
        /// the total is the sum of their sizes, within the limit; `mergedTop` is in the list (and none once
        /// scanned). O(entries); free otherwise.
        @inline(__always)
        private func checkInvariants() {
            #if SWITCHYARD_INTERNAL_CHECKS
                var (slot, previous, seen, bytes, sawMergedTop) = (oldest, -1, 0, 0, mergedTop < 0)
                while slot >= 0 {
                    precondition(nodes[slot].older == previous, "DiskCacheIndex: a broken backward link")
                    precondition(slots[nodes[slot].name] == slot, "DiskCacheIndex: a listed entry is not indexed")
                    sawMergedTop = sawMergedTop || slot == mergedTop
                    (previous, seen, bytes, slot) = (slot, seen + 1, bytes + nodes[slot].size, nodes[slot].newer)
                }
                precondition(previous == newest, "DiskCacheIndex: the newest entry is not the list's end")
                precondition(seen == slots.count, "DiskCacheIndex: an indexed entry is not listed")
                precondition(bytes == totalBytes, "DiskCacheIndex: the total is not the sum of the sizes")
                precondition(totalBytes <= byteLimit, "DiskCacheIndex: the total is over the limit")
                precondition(sawMergedTop, "DiskCacheIndex: the newest merged entry is not listed")
                precondition(pendingScan != nil || mergedTop < 0, "DiskCacheIndex: a merged entry after the scan")
            #endif
        }
    }
#endif
