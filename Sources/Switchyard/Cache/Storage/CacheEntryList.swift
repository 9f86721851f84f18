/// An intrusive doubly linked list of cache entries, least recently used first.
///
/// Guarded by the cache's policy lock. Every operation is O(1). The list does not own its entries (the links are
/// unowned); the stripe tables do.
@usableFromInline
struct CacheEntryList<Key: Hashable & Sendable, Value: Sendable> {
    @usableFromInline
    typealias Entry = CacheEntry<Key, Value>

    // Unmanaged rather than `unowned(unsafe) var first: Entry?`: on Swift 6.3.1, instantiating the metadata of a
    // generic struct with `unowned(unsafe)` optional fields never returns (reproduced in a standalone program).
    @usableFromInline
    var head: Unmanaged<Entry>?
    @usableFromInline
    var tail: Unmanaged<Entry>?
    @usableFromInline
    var count = 0

    /// The least recently used entry.
    @inlinable
    var first: Entry? { head?.takeUnretainedValue() }
    /// The most recently used entry.
    @inlinable
    var last: Entry? { tail?.takeUnretainedValue() }

    @inlinable
    var isEmpty: Bool { head == nil }

    /// Appends `entry` as the most recently used.
    @inlinable
    mutating func append(_ entry: Entry) {
        entry.previous = last
        entry.next = nil
        if let last { last.next = entry } else { head = .passUnretained(entry) }
        tail = .passUnretained(entry)
        count += 1
    }

    /// Unlinks `entry`, which must be in this list.
    @inlinable
    mutating func remove(_ entry: Entry) {
        if let previous = entry.previous {
            previous.next = entry.next
        } else {
            head = entry.next.map { .passUnretained($0) }
        }
        if let next = entry.next {
            next.previous = entry.previous
        } else {
            tail = entry.previous.map { .passUnretained($0) }
        }
        entry.previous = nil
        entry.next = nil
        count -= 1
    }

    /// Makes `entry`, which must be in this list, the most recently used.
    @inlinable
    mutating func moveToEnd(_ entry: Entry) {
        guard last !== entry else { return }
        remove(entry)
        append(entry)
    }
}
