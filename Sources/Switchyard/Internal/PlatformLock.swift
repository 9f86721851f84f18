#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// State guarded by a `pthread_mutex_t`, for the core's internal slow paths.
///
/// Why not `Synchronization.Mutex`: on Linux its contended path parks in the kernel (priority-inheritance futex)
/// in code ThreadSanitizer does not instrument, so TSan misses the ordering it provides and reports false races on
/// the state it guards. ThreadSanitizer intercepts `pthread_mutex_*`, so state guarded here is checked for real.
/// Used only off the hot paths (waiter queues, observer lists, hand-shakes), where the extra indirection is noise.
///
/// Unchecked-Sendable invariant: `state` is read and written only inside `withLock`, between
/// `pthread_mutex_lock` and `pthread_mutex_unlock` of `mutex`, which is heap-allocated (it never moves) and lives
/// exactly as long as the instance. Exercised under Thread Sanitizer by `AccessLockStressTests`.
final class PlatformLock<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// A lock guarding `initial`; `adaptive` (glibc) makes a waiter spin briefly before it sleeps, for short holds
    /// that many threads contend for.
    init(_ initial: State, adaptive: Bool = false) {
        state = initial
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
            if adaptive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP)) }
        #endif
        precondition(pthread_mutex_init(mutex, &attributes) == 0, "pthread_mutex_init failed")
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, holding the mutex. Not re-entrant: `body` must not call `withLock` again.
    func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
