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
        PlatformCondition.initialize(condition)
    }

    /// Initialises a condition variable; on Linux timed waits on it measure on the monotonic clock, so a wall-clock
    /// step (NTP, a resumed VM) neither ends every wait at once nor stretches it.
    private static func initialize(_ condition: UnsafeMutablePointer<pthread_cond_t>) {
        #if os(Linux)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            precondition(pthread_cond_init(condition, &attributes) == 0, "pthread_cond_init failed")
            pthread_condattr_destroy(&attributes)
        #else
            precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
        #endif
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
    /// On Linux the deadline is on `CLOCK_MONOTONIC` (set in `init`), so wall-clock steps do not affect it;
    /// elsewhere on `CLOCK_REALTIME`, where a wall-clock jump lengthens or shortens one wait. `timeout` is clamped
    /// to zero…one day (a negative one, whose parts are negative, would make an invalid deadline: `EINVAL` at once,
    /// forever); callers that wait longer wait again.
    func wait(timeout: Duration) -> Bool {
        var deadline = PlatformCondition.deadline(after: timeout)
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// The absolute deadline `timeout` from now, on the clock timed waits use (clamped as ``wait(timeout:)`` says).
    private static func deadline(after timeout: Duration) -> timespec {
        var now = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_MONOTONIC, &now)
        #else
            clock_gettime(CLOCK_REALTIME, &now)
        #endif
        let (seconds, attoseconds) = max(.zero, min(timeout, .seconds(86_400))).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            wholeSeconds += 1
        }
        return timespec(tv_sec: .init(wholeSeconds), tv_nsec: .init(nanoseconds))
    }

    /// Wakes one sleeping thread, if any. May be called with or without the mutex held.
    func signal() { pthread_cond_signal(condition) }

    /// A further condition variable used with this mutex, to wake one chosen thread (each waiter has its own).
    ///
    /// Unchecked-Sendable invariant: `condition` is heap-allocated, initialised in `init`, destroyed in `deinit`,
    /// and only touched through `pthread_cond_*`. Exercised under Thread Sanitizer by `BlockingExecutorTests`.
    final class Signal: @unchecked Sendable {
        fileprivate let condition: UnsafeMutablePointer<pthread_cond_t> = .allocate(capacity: 1)

        init() { PlatformCondition.initialize(condition) }

        deinit {
            pthread_cond_destroy(condition)
            condition.deallocate()
        }

        /// Wakes the thread waiting on this signal, if it waits. Call with the mutex held.
        func wake() { pthread_cond_signal(condition) }
    }

    /// ``wait(timeout:)`` on `signal` instead of the shared condition. Call with the mutex held.
    func wait(on signal: Signal, timeout: Duration) -> Bool {
        var deadline = PlatformCondition.deadline(after: timeout)
        return pthread_cond_timedwait(signal.condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes every sleeping thread. May be called with or without the mutex held.
    func broadcast() { pthread_cond_broadcast(condition) }
}
