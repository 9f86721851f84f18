/// Where a cache's entries live: each entry's policy node (``CacheNode``), key and value side by side in one
/// record, numbered by the node's index, in one buffer.
///
/// One record per entry is what keeps a get/set cheap: a read finds the entry through its stripe's index and
/// then touches one record (for `Int` keys and values, one 64-byte line: node, key and value), and applying that
/// read to the eviction policy later touches the same line. (Keys and values in per-stripe tables, apart from
/// the policy's nodes, cost a second line on each of those steps.)
///
/// **Growing under readers.** The store belongs to the eviction policy (policy lock), but readers holding only
/// their stripe's lock read records too, through the address the cache publishes (``Cache/publishedEntries``).
/// Growing copies the records to a larger buffer, publishes it, and then takes and releases every stripe lock
/// once before it frees the old buffer (``Cache/reserveEntry()``): a reader uses an address only while it holds
/// its stripe's lock, so after that sweep none still uses the old one. A reader that still read the old buffer
/// saw its own stripe's entries exactly as in the new one: those change only under that stripe's lock.
///
/// **Which fields whose lock guards.** Node fields belong to the eviction policy (policy lock), except
/// `expiresAt` and `generation`, which readers read: they, the key and the value change only while both the
/// policy lock and the lock of the stripe that indexes the entry are held (or while no stripe indexes it).
/// Keys and values are initialized exactly while the node's `isOccupied` is set.
///
/// - Complexity: O(1) per access; growing is O(capacity) and doubles it, so O(1) amortized per entry.
@usableFromInline
struct CacheEntryStore<Key, Value>: ~Copyable {
    /// Record 0; `capacity` records.
    @usableFromInline
    private(set) var base: UnsafeMutableRawPointer
    @usableFromInline
    private(set) var capacity: Int
    /// Records initialized so far (`0..<count`), each in use or free.
    @usableFromInline
    private(set) var count = 0

    /// Byte offsets of the key and value in a record, and the record's size: the node first, then the key and
    /// the value, each at its alignment.
    @inlinable
    static var keyOffset: Int { roundUp(MemoryLayout<CacheNode>.size, to: MemoryLayout<Key>.alignment) }

    @inlinable
    static var valueOffset: Int { roundUp(keyOffset + MemoryLayout<Key>.size, to: MemoryLayout<Value>.alignment) }

    @inlinable
    static var stride: Int {
        roundUp(
            valueOffset + MemoryLayout<Value>.size,
            to: max(MemoryLayout<CacheNode>.alignment, MemoryLayout<Key>.alignment, MemoryLayout<Value>.alignment))
    }

    /// Records start at cache-line boundaries when the stride is a multiple of 64 (it is 64 for 8-byte keys and
    /// values).
    @inlinable
    static var alignment: Int {
        max(64, MemoryLayout<CacheNode>.alignment, MemoryLayout<Key>.alignment, MemoryLayout<Value>.alignment)
    }

    @inlinable
    static func roundUp(_ value: Int, to alignment: Int) -> Int { (value + alignment - 1) & ~(alignment - 1) }

    /// An empty store with room for `capacity` records.
    @inlinable
    init(capacity: Int = 16) {
        self.capacity = max(capacity, 1)
        base = .allocate(byteCount: self.capacity * Self.stride, alignment: Self.alignment)
    }

    @inlinable
    deinit {
        for index in 0..<count where node(index).pointee.isOccupied { _ = vacate(index) }
        base.deallocate()
    }

    /// Whether every record is in use: the next new one needs ``grow()``.
    @inlinable
    var isFull: Bool { count == capacity }

    // MARK: Records at a given address (readers: the published one)

    @inlinable @inline(__always)
    static func node(_ index: Int, in base: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CacheNode> {
        (base + index &* stride).assumingMemoryBound(to: CacheNode.self)
    }

    @inlinable @inline(__always)
    static func key(_ index: Int, in base: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Key> {
        (base + index &* stride + keyOffset).assumingMemoryBound(to: Key.self)
    }

    @inlinable @inline(__always)
    static func value(_ index: Int, in base: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Value> {
        (base + index &* stride + valueOffset).assumingMemoryBound(to: Value.self)
    }

    // MARK: Records (policy lock held)

    @inlinable @inline(__always)
    func node(_ index: Int) -> UnsafeMutablePointer<CacheNode> { Self.node(index, in: base) }

    @inlinable @inline(__always)
    func key(_ index: Int) -> UnsafeMutablePointer<Key> { Self.key(index, in: base) }

    @inlinable @inline(__always)
    func value(_ index: Int) -> UnsafeMutablePointer<Value> { Self.value(index, in: base) }

    /// Node `index`'s fields, in place.
    @inlinable
    subscript(index: Int) -> CacheNode {
        @inline(__always) unsafeAddress {
            assert(index >= 0 && index < count, "CacheEntryStore: index out of range")
            return UnsafePointer(node(index))
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            assert(index >= 0 && index < count, "CacheEntryStore: index out of range")
            return node(index)
        }
    }

    /// Initializes the next record's node to `node` and returns its index. The store must not be full.
    @inlinable
    mutating func append(_ node: CacheNode) -> Int {
        precondition(count < capacity, "CacheEntryStore: append to a full store")
        base.advanced(by: count &* Self.stride).initializeMemory(as: CacheNode.self, to: node)
        count += 1
        return count - 1
    }

    /// Moves every record to a buffer of twice the capacity and returns the old buffer, for the caller to free
    /// once no reader can still use it.
    @inlinable
    mutating func grow() -> UnsafeMutableRawPointer {
        precondition(capacity < Int(UInt32.max) - 1, "Cache: more than 2^32 - 2 entries")
        let newCapacity = min(capacity * 2, Int(UInt32.max) - 1)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity * Self.stride, alignment: Self.alignment)
        // The records are moved bitwise (Swift values are bitwise movable); the old copy is never used as a
        // value again, only read by readers that have not yet seen the new address, and then freed unreleased.
        larger.copyMemory(from: base, byteCount: count * Self.stride)
        let old = base
        base = larger
        capacity = newCapacity
        return old
    }

    /// Stores the key and value of record `index`, which is not occupied, and marks it occupied.
    @inlinable
    func occupy(_ index: Int, key: consuming Key, value: consuming Value) {
        self.key(index).initialize(to: key)
        self.value(index).initialize(to: value)
        node(index).pointee.isOccupied = true
    }

    /// Moves the key and value out of occupied record `index` and marks it unoccupied.
    @inlinable
    func vacate(_ index: Int) -> (key: Key, value: Value) {
        node(index).pointee.isOccupied = false
        return (key(index).move(), value(index).move())
    }
}
