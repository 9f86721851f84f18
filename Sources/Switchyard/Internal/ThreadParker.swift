#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot gate one thread blocks on until another opens it.
///
/// Used only on slow paths: by a synchronous accessor of an isolation type that has to wait its turn.
/// `park()` returns once `unpark()` has been called, whether `unpark()` came before or after `park()`.
///
/// Exercised under Thread Sanitizer by `AccessLockStressTests`.
/// `@unchecked Sendable` invariant: `isOpen` is read and written only while `mutex` is held; `mutex` and `cond`
/// are heap-allocated (so they never move), initialised in `init` and destroyed in `deinit`, when no thread can
/// be inside `park()` or `unpark()` any more (both hold a strong reference while they run).
final class ThreadParker: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>
    private var isOpen = false

    init() {
        mutex = .allocate(capacity: 1)
        cond = .allocate(capacity: 1)
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(cond, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// Blocks the calling thread until `unpark()` has been called (returns at once if it already was).
    func park() {
        pthread_mutex_lock(mutex)
        while !isOpen { pthread_cond_wait(cond, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Opens the gate; a parked thread wakes, a later `park()` returns immediately.
    func unpark() {
        pthread_mutex_lock(mutex)
        isOpen = true
        pthread_cond_signal(cond)
        pthread_mutex_unlock(mutex)
    }
}
