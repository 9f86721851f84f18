#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare pthread mutex with `lock`, `tryLock` and `unlock`, for hot paths that lock and unlock in different
/// scopes or try a lock without waiting: the work engine's lock.
///
/// A pthread mutex rather than `Synchronization.Mutex`: ThreadSanitizer intercepts it (see ``PlatformLock``).
/// With glibc it is adaptive: it spins briefly before sleeping, as the critical sections it guards are short
/// (musl and Darwin have no adaptive type; they get the default mutex).
///
/// Unchecked-Sendable invariant: `mutex` is heap-allocated (it never moves), initialised in `init` and destroyed
/// in `deinit`, and only touched through `pthread_mutex_*`. Exercised under Thread Sanitizer by
/// `WorkQueueStressTests`.
@usableFromInline
final class RawMutex: @unchecked Sendable {
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        precondition(pthread_mutex_init(mutex, &attributes) == 0, "pthread_mutex_init failed")
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inlinable @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
    /// Takes the lock if it is free; never waits.
    @inlinable @inline(__always) func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
}
