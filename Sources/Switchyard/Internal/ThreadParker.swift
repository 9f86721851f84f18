/// A one-shot gate one thread blocks on until another opens it.
///
/// Used only on slow paths: by a synchronous accessor of an isolation type that has to wait its turn.
/// `park()` returns once `unpark()` has been called, whether `unpark()` came before or after `park()`.
///
/// Exercised under Thread Sanitizer by `AccessLockStressTests`.
/// Unchecked-Sendable invariant: `isOpen` is read and written only between `condition.lock()` and
/// `condition.unlock()`; `condition` is itself thread-safe.
final class ThreadParker: @unchecked Sendable {
    private let condition = PlatformCondition()
    private var isOpen = false

    /// Blocks the calling thread until `unpark()` has been called (returns at once if it already was).
    func park() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    /// Opens the gate; a parked thread wakes, a later `park()` returns immediately.
    func unpark() {
        condition.lock()
        isOpen = true
        condition.signal()
        condition.unlock()
    }
}
