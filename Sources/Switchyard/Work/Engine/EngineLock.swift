#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock behind all of the work engine's state: every job node, scheduler node, queue, group and coalescer
/// field marked "guarded by the engine lock" is read and written only while it is held.
///
/// One lock makes the cross-queue rules simple and exact: a dependency edge between queues of different limit
/// domains, priority escalation through a graph that spans queues, cycle checks and `snapshot()` all see one
/// consistent state. Every critical section is O(1) in the number of pending jobs except the ones that say
/// otherwise (cascades of cancellation through dependents, escalation through a chain, cycle checks, snapshots).
/// Nothing blocks, suspends, creates a task or runs user code while holding it; the work found under the lock is
/// carried out after it is released (see ``Transaction``).
///
/// A pthread mutex rather than `Synchronization.Mutex`: ThreadSanitizer intercepts it (see `PlatformLock`).
///
/// Unchecked-Sendable invariant: `mutex` is heap-allocated, initialised once and never destroyed (the lock
/// lives for the whole process); it is only touched through `pthread_mutex_*`. Exercised under Thread Sanitizer
/// by `WorkQueueStressTests`.
final class EngineLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if os(Linux)
        // Spin briefly before sleeping in the kernel: the engine's critical sections are short, and without it
        // every contended acquisition costs a futex sleep and wake-up (measured: a quarter of all engine time).
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        precondition(pthread_mutex_init(mutex, &attributes) == 0, "pthread_mutex_init failed")
        pthread_mutexattr_destroy(&attributes)
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}

/// The engine's lock (see ``EngineLock``).
let engineLock = EngineLock()
