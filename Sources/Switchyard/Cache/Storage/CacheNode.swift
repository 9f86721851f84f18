/// Which part of the eviction policy holds an entry.
@usableFromInline
enum CacheSegment: UInt8 {
    /// Not in the cache (removed, evicted, never admitted, or a free node).
    case none
    /// The admission window (frequency-aware mode), or the only list (LRU mode).
    case window
    /// Main space, not used since it entered or last passed the clock hand: the first place victims are taken
    /// from.
    case probation
    /// Main space, found used when the clock hand passed it in probation.
    case protected
    /// Frequency-aware mode: pushed out of the window by the write in progress, waiting to be admitted to
    /// probation or evicted. Only ever non-empty inside one hold of the policy lock.
    case candidate
}

/// The eviction policy's record of one entry: its place in a list and in the expiry heap, and what the policy
/// decides by (hash, cost, expiry, discardability). Nodes live in the cache's ``CacheEntryStore``, each beside
/// its entry's key and value, linked by index; a removed node is reused by a later entry, with its generation
/// bumped so stale references to it are recognised.
///
/// Guarded by the cache's policy lock, except `expiresAt` and `generation`, which readers read under their
/// stripe's lock (see ``CacheEntryStore`` for when they change).
@usableFromInline
struct CacheNode {
    /// Links of the segment list the node is in (oldest first: least recently used in LRU mode, least recently
    /// entered or passed by the clock hand in frequency-aware mode); -1 at the ends. A free node's `next`
    /// links the free list.
    @usableFromInline
    var previous: Int32 = -1
    @usableFromInline
    var next: Int32 = -1
    /// Position in the expiry heap, or -1.
    @usableFromInline
    var heapIndex: Int32 = -1
    /// Bumped each time the node is freed (see ``EvictionPolicy/tag(of:)``).
    @usableFromInline
    var generation: UInt32 = 0
    @usableFromInline
    var segment = CacheSegment.none
    @usableFromInline
    var isDiscardable = false
    /// Frequency-aware mode: used since the clock hand last passed it (see ``EvictionPolicy``).
    @usableFromInline
    var isReferenced = false
    /// Whether the entry's key and value are initialized in the store (from its allocation until it is removed
    /// from its stripe's index). Fits in padding: the node stays 48 bytes.
    @usableFromInline
    var isOccupied = false
    /// ``EvictionPolicy/allocations`` when the node was allocated (wrapping): a bulk removal leaves alone the
    /// entries written after it began.
    @usableFromInline
    var stamp: UInt32 = 0
    @usableFromInline
    var hash: Int
    @usableFromInline
    var cost: Int
    /// Nanoseconds on the cache's clock after which the entry is expired; `Int64.max` when it never expires.
    @usableFromInline
    var expiresAt: Int64

    @inlinable
    init(hash: Int, cost: Int, expiresAt: Int64, isDiscardable: Bool) {
        self.hash = hash
        self.cost = cost
        self.expiresAt = expiresAt
        self.isDiscardable = isDiscardable
    }
}

/// Node storage and the intrusive segment lists. Every operation is O(1).
extension EvictionPolicy {
    /// The reference to `node` that stripes keep: its index and generation. A tag outlives its entry harmlessly:
    /// once the node is freed (and perhaps reused), ``node(ofLive:)`` no longer accepts it.
    @inlinable
    func tag(of node: Int) -> UInt64 { EvictionPolicy.tag(node, generation: nodes[node].generation) }

    /// The tag of node `node` while its generation is `generation`.
    @inlinable @inline(__always)
    static func tag(_ node: Int, generation: UInt32) -> UInt64 {
        UInt64(truncatingIfNeeded: node) | UInt64(generation) &<< 32
    }

    /// The node `tag` names, if it still holds the entry it was taken from.
    @inlinable
    func node(ofLive tag: UInt64) -> Int? {
        let node = EvictionPolicy.node(of: tag)
        guard node < nodeCount, nodes[node].generation == UInt32(truncatingIfNeeded: tag &>> 32),
            nodes[node].segment != .none
        else { return nil }
        return node
    }

    /// The node index in `tag`, live or not.
    @inlinable
    static func node(of tag: UInt64) -> Int { Int(truncatingIfNeeded: tag & 0xFFFF_FFFF) }

    /// A node for a new entry, not yet in any list or stripe index, its key and value not yet stored
    /// (``CacheEntryStore/occupy(_:key:value:)``): a freed one if there is one, else a new one, for which the
    /// store must have room (``hasRoomForNode``).
    @inlinable
    mutating func allocate(hash: Int, cost: Int, expiresAt: Int64, isDiscardable: Bool) -> Int {
        allocations &+= 1
        guard freeNodes >= 0 else {
            var fresh = CacheNode(hash: hash, cost: cost, expiresAt: expiresAt, isDiscardable: isDiscardable)
            fresh.stamp = allocations
            return nodes.append(fresh)
        }
        let node = Int(freeNodes)
        nodes[node].stamp = allocations
        freeNodes = nodes[node].next
        nodes[node].hash = hash
        nodes[node].cost = cost
        nodes[node].expiresAt = expiresAt
        nodes[node].isDiscardable = isDiscardable
        nodes[node].isReferenced = false
        nodes[node].previous = -1
        nodes[node].next = -1
        return node
    }

    /// Whether ``allocate(hash:cost:expiresAt:isDiscardable:)`` can run without growing the store.
    @inlinable
    var hasRoomForNode: Bool { freeNodes >= 0 || !nodes.isFull }

    /// Whether `node` was allocated after ``allocations`` was `mark` (allocations since stay below 2^31).
    @inlinable
    func isAllocated(_ node: Int, after mark: UInt32) -> Bool {
        Int32(bitPattern: nodes[node].stamp &- mark) > 0
    }

    /// Returns a node taken out of the policy (``remove(_:)``), and out of its stripe's index, to the free list;
    /// its tags stop being live.
    @inlinable
    mutating func free(_ node: Int) {
        nodes[node].generation &+= 1
        nodes[node].segment = .none
        nodes[node].next = freeNodes
        freeNodes = Int32(truncatingIfNeeded: node)
    }

    /// The least recent node of `segment`'s list.
    @inlinable
    func first(_ segment: CacheSegment) -> Int? {
        let head = heads[Int(segment.rawValue)]
        return head >= 0 ? Int(head) : nil
    }

    /// Puts `node` at the most recent end of `segment`'s list and marks it as in that segment.
    @inlinable
    mutating func append(_ node: Int, to segment: CacheSegment) {
        let list = Int(segment.rawValue)
        let tail = tails[list]
        let index = Int32(truncatingIfNeeded: node)
        nodes[node].segment = segment
        nodes[node].previous = tail
        nodes[node].next = -1
        if tail >= 0 { nodes[Int(tail)].next = index }
        if tail < 0 { heads[list] = index }
        tails[list] = index
    }

    /// Takes `node` out of the list of its segment (its segment is left as is).
    @inlinable
    mutating func unlinkFromList(_ node: Int) {
        let list = Int(nodes[node].segment.rawValue)
        let previous = nodes[node].previous
        let next = nodes[node].next
        if previous >= 0 { nodes[Int(previous)].next = next }
        if next >= 0 { nodes[Int(next)].previous = previous }
        if previous < 0 { heads[list] = next }
        if next < 0 { tails[list] = previous }
    }

    /// Makes `node` the most recent of its segment's list.
    @inlinable
    mutating func moveToEnd(_ node: Int) {
        guard tails[Int(nodes[node].segment.rawValue)] != Int32(truncatingIfNeeded: node) else { return }
        let segment = nodes[node].segment
        unlinkFromList(node)
        append(node, to: segment)
    }
}

/// The oldest (head) or newest (tail) node of each segment's list, by `CacheSegment.rawValue`; -1 when empty.
/// Stored inline, so updating one is a plain store (an array would check its buffer's uniqueness each time).
@usableFromInline
struct SegmentEnds {
    @usableFromInline
    var window: Int32 = -1
    @usableFromInline
    var probation: Int32 = -1
    @usableFromInline
    var protected: Int32 = -1
    @usableFromInline
    var candidate: Int32 = -1

    @inlinable
    init() {}

    @inlinable
    subscript(list: Int) -> Int32 {
        get {
            switch list {
            case 1: window
            case 2: probation
            case 3: protected
            case 4: candidate
            default: -1
            }
        }
        set {
            switch list {
            case 1: window = newValue
            case 2: probation = newValue
            case 3: protected = newValue
            case 4: candidate = newValue
            default: preconditionFailure("Cache: the list of segment .none is never used")
            }
        }
    }
}
