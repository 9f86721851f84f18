import Dispatch
import Foundation
import Synchronization

/// A counter that lives inside an anchor's critical section. Relaxed load + store compile to plain moves, so the
/// payload costs the same as `number += 1` in ours; the lock being measured provides the exclusion.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    @inline(__always) func increment() { storage.store(storage.load(ordering: .relaxed) &+ 1, ordering: .relaxed) }
    var value: Int { storage.load(ordering: .relaxed) }
}

/// `pthread_rwlock_t`, the POSIX reader/writer lock anchor.
///
/// Unchecked-Sendable invariant: the lock is heap-allocated (it never moves), initialised in `init`, destroyed
/// in `deinit`, and only touched through `pthread_rwlock_*`, which are thread-safe by contract.
final class POSIXReadWriteLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        precondition(pthread_rwlock_init(lock, nil) == 0)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    @inline(__always) func withReadLock<T>(_ body: () -> T) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }

    @inline(__always) func withWriteLock<T>(_ body: () -> T) -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }
}

/// The read used by the "reads" cases: N lookups in a 1,024-entry dictionary (about 6 ns each), the shape of a
/// cache or registry read. Out of line on purpose: every case (ours, anchors, the no-lock floor) then runs the
/// very same machine code for the read, whatever the optimizer would make of it inlined into each closure.
struct ReadWorkload: Sendable {
    let table: [Int: Int] = Dictionary(uniqueKeysWithValues: (0..<1_024).map { ($0, $0 &* 7) })

    @inline(never)
    func read(_ table: [Int: Int], _ iteration: Int, lookups: Int) -> Int {
        var sum = 0
        for probe in 0..<lookups { sum &+= table[(iteration &* 31 &+ probe &* 257) & 1_023] ?? 0 }
        return sum
    }
}
