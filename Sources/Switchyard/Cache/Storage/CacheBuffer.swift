/// A fixed-size buffer of elements that the cache's storage owns alone: an array without copy-on-write.
///
/// Every write to an element of a Swift `Array` first asks whether the array's storage is uniquely referenced (a
/// runtime call), and every access checks its bounds; the sketch's counters and a stripe's index buckets are only
/// ever reached through their one owner, under a lock, with indices derived from a mask, so both checks were pure
/// cost (with the store's, a tenth of the instructions of a get/set mix). This buffer is noncopyable, so there is
/// exactly one owner and no check is needed; indices are checked only in debug builds.
///
/// Not thread-safe: guarded by whatever guards its owner. - Complexity: O(1) per access; O(count) to create.
@usableFromInline
struct CacheBuffer<Element>: ~Copyable {
    @usableFromInline
    let base: UnsafeMutablePointer<Element>
    @usableFromInline
    let count: Int

    /// A buffer of `count` copies of `element`.
    @inlinable
    init(repeating element: Element, count: Int) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        base.initialize(repeating: element, count: count)
    }

    @inlinable
    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

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
}
