/// A growable buffer of elements that the cache's storage owns alone: an array without copy-on-write.
///
/// Every write to an element of a Swift `Array` first asks whether the array's storage is uniquely referenced (a
/// runtime call), and every access checks its bounds; the cache's storage is only ever reached through its one
/// owner, under a lock, with indices it derived itself, so both checks were pure cost (a tenth of the
/// instructions of a get/set mix). This buffer is noncopyable, so there is exactly one owner and no check is
/// needed; indices are checked only in debug builds.
///
/// Not thread-safe: guarded by whatever guards its owner. - Complexity: O(1) per access and `removeLast`;
/// `append` amortized O(1) (the capacity doubles); `removeAll` O(count).
@usableFromInline
struct CacheBuffer<Element>: ~Copyable {
    @usableFromInline
    var base: UnsafeMutablePointer<Element>
    @usableFromInline
    private(set) var count = 0
    @usableFromInline
    private(set) var capacity: Int

    /// An empty buffer with room for `capacity` elements before it grows.
    @inlinable
    init(capacity: Int = 0) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    /// A buffer of `count` copies of `element`.
    @inlinable
    init(repeating element: Element, count: Int) {
        capacity = max(count, 1)
        base = .allocate(capacity: capacity)
        base.initialize(repeating: element, count: count)
        self.count = count
    }

    @inlinable
    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The elements' indices, `0..<count`.
    @inlinable
    var indices: Range<Int> { 0..<count }

    @inlinable
    subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress {
            assert(index >= 0 && index < count, "CacheBuffer: index out of range")
            return UnsafePointer(base + index)
        }
        @inline(__always) unsafeMutableAddress {
            assert(index >= 0 && index < count, "CacheBuffer: index out of range")
            return base + index
        }
    }

    @inlinable
    mutating func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Removes and returns the last element.
    @inlinable
    mutating func removeLast() -> Element {
        assert(count > 0, "CacheBuffer: removeLast on an empty buffer")
        count -= 1
        return (base + count).move()
    }

    /// Exchanges the elements at `i` and `j` (no copies: their memory is swapped).
    @inlinable
    mutating func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        let held = (base + i).move()
        (base + i).moveInitialize(from: base + j, count: 1)
        (base + j).initialize(to: held)
    }

    @usableFromInline
    mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
