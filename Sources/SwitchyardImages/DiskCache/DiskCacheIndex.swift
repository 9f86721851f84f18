#if Images
    /// A ``ThumbnailDiskCache``'s bookkeeping: each counted entry's file name and size, least recently used first,
    /// and their total; while the folder is scanned at open, also what the scan's merge must leave out.
    ///
    /// A value, guarded by the cache's lock. It does no I/O: the names its operations return are files to remove,
    /// which the cache unlinks once it has released the lock.
    ///
    /// - Complexity: O(1) per ``record(_:size:)`` and ``remove(_:)``, plus O(1) per entry they evict;
    ///   ``removeAll()`` and ``mergeScan(_:)`` are O(entries).
    struct DiskCacheIndex {
        /// An entry in the recency list; `older` and `newer` are indices into `nodes`, -1 for none.
        private struct Node {
            var name: String
            var size: Int
            var older: Int
            var newer: Int
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
        /// While the scan at open runs: the names removed since it began (it may have listed their files, which
        /// are gone, or going); nil once the scan has merged.
        private var removedDuringScan: Set<String>? = []
        /// Whether ``removeAll()`` ran while the scan ran: the files the scan lists predate it, and go too.
        private var removedAllDuringScan = false

        init(byteLimit: Int) { self.byteLimit = byteLimit }

        /// The number of entries counted.
        var count: Int { slots.count }
        /// Whether the scan at open has merged what it found.
        var isScanned: Bool { removedDuringScan == nil }

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

        /// Stops counting `name` (its file is gone, or about to be); whether it was counted.
        @discardableResult
        mutating func remove(_ name: String) -> Bool {
            removedDuringScan?.insert(name)
            guard let slot = slots.removeValue(forKey: name) else { return false }
            release(slot)
            checkInvariants()
            return true
        }

        /// Stops counting every entry; returns their names. While the scan runs, the entries it has yet to merge
        /// are removed by the merge.
        mutating func removeAll() -> [String] {
            let names = Array(slots.keys)
            if removedDuringScan != nil { removedAllDuringScan = true }
            nodes = []
            freeSlots = []
            slots = [:]
            oldest = -1
            newest = -1
            totalBytes = 0
            checkInvariants()
            return names
        }

        /// Merges the entries the scan at open found (`scanned`, oldest first) as the least recently used ones,
        /// in their order, leaving out those counted or removed since the scan began; then evicts until the total
        /// is within the limit. Returns the names to remove: the evicted ones, and (after a ``removeAll()`` during
        /// the scan) every scanned entry the merge leaves out. Once only.
        mutating func mergeScan(_ scanned: [(name: String, size: Int)]) -> [String] {
            precondition(removedDuringScan != nil, "DiskCacheIndex: the scan at open merges once")
            let removed = removedDuringScan ?? []
            removedDuringScan = nil
            var doomed: [String] = []
            for entry in scanned.reversed() where slots[entry.name] == nil && !removed.contains(entry.name) {
                if removedAllDuringScan {
                    doomed.append(entry.name)
                    continue
                }
                let slot = allocate(Node(name: entry.name, size: entry.size, older: -1, newer: -1))
                slots[entry.name] = slot
                totalBytes += entry.size
                linkAsOldest(slot)
            }
            removedAllDuringScan = false
            doomed += evictOverflow()
            checkInvariants()
            return doomed
        }

        // MARK: the recency list

        private mutating func evictOverflow() -> [String] {
            var evicted: [String] = []
            while totalBytes > byteLimit, oldest >= 0 {
                let name = nodes[oldest].name
                removedDuringScan?.insert(name)
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

        private mutating func linkAsOldest(_ slot: Int) {
            nodes[slot].newer = oldest
            nodes[slot].older = -1
            if oldest >= 0 { nodes[oldest].older = slot } else { newest = slot }
            oldest = slot
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
        /// the total is the sum of their sizes, within the limit. O(entries); free otherwise.
        @inline(__always)
        private func checkInvariants() {
            #if SWITCHYARD_INTERNAL_CHECKS
                var (slot, previous, seen, bytes) = (oldest, -1, 0, 0)
                while slot >= 0 {
                    precondition(nodes[slot].older == previous, "DiskCacheIndex: a broken backward link")
                    precondition(slots[nodes[slot].name] == slot, "DiskCacheIndex: a listed entry is not indexed")
                    (previous, seen, bytes, slot) = (slot, seen + 1, bytes + nodes[slot].size, nodes[slot].newer)
                }
                precondition(previous == newest, "DiskCacheIndex: the newest entry is not the list's end")
                precondition(seen == slots.count, "DiskCacheIndex: an indexed entry is not listed")
                precondition(bytes == totalBytes, "DiskCacheIndex: the total is not the sum of the sizes")
                precondition(totalBytes <= byteLimit, "DiskCacheIndex: the total is over the limit")
            #endif
        }
    }
#endif
