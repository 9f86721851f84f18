#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with one condition variable, for *threads* that must sleep until told (never for tasks).
///
/// The owner keeps its own state and touches it only between `lock()` and `unlock()`; `wait` releases the mutex
/// while sleeping and holds it again when it returns. Waits may wake spuriously: re-check the state in a loop.
///
/// Unchecked-Sendable invariant: `mutex` and `condition` are heap-allocated (they never move), initialised in
/// `init`, destroyed in `deinit`, and only touched through `pthread_*` calls, which are thread-safe by contract.
/// Exercised under Thread Sanitizer by `BlockingExecutorTests` and `AccessLockStressTests`.
final class PlatformCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Sleeps until signalled (or spuriously woken). Call with the mutex held.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Sleeps until signalled, spuriously woken, or `timeout` has passed; returns false if it timed out.
    /// Call with the mutex held.
    ///
    /// The deadline is absolute on `CLOCK_REALTIME` (what `pthread_cond_timedwait` uses by default), so a
    /// wall-clock jump lengthens or shortens one wait. `timeout` is clamped to zero…one day (a negative one,
    /// whose parts are negative, would make an invalid deadline: `EINVAL` at once, forever).
    func wait(timeout: Duration) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (seconds, attoseconds) = max(.zero, min(timeout, .seconds(86_400))).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            wholeSeconds += 1
        }
        var deadline = timespec(tv_sec: .init(wholeSeconds), tv_nsec: .init(nanoseconds))
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes one sleeping thread, if any. May be called with or without the mutex held.
    func signal() { pthread_cond_signal(condition) }

    /// Wakes every sleeping thread. May be called with or without the mutex held.
    func broadcast() { pthread_cond_broadcast(condition) }
}
