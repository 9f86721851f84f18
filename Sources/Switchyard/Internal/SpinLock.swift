import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test-and-test-and-set lock for critical sections of tens of nanoseconds that never block: the cache's
/// stripe and policy locks.
///
/// A waiter spins re-reading the word (its cache line stays shared until the holder's release), and after about
/// 2,000 reads (a few microseconds, longer than any section it guards) yields its processor between attempts, so
/// a holder that was preempted gets to run. Yielding after 100 reads made two threads writing to one cache spend a
/// third of their time in `sched_yield` system calls, as a policy hold with a drain of buffered reads outlasts them. It never
/// sleeps in the kernel: handing a contended pthread or futex lock over costs microseconds of sleep and wake,
/// many times the critical sections this guards. Not fair, not recursive; every section it guards must be
/// short and must not block.
///
/// Built on `Atomic` in this module, so Thread Sanitizer sees its acquire/release edges (it does not see inside
/// the standard library's `Mutex`). Exercised under Thread Sanitizer by `CacheStressTests`.
@usableFromInline
struct SpinLock: ~Copyable, Sendable {
    @usableFromInline
    let word = Atomic<Bool>(false)

    @inlinable
    init() {}

    @inlinable @inline(__always)
    func lock() {
        if word.compareExchange(expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed)
            .exchanged
        {
            return
        }
        lockContended()
    }

    /// Takes the lock if it is free; never waits.
    @inlinable @inline(__always)
    func tryLock() -> Bool {
        !word.load(ordering: .relaxed)
            && word.compareExchange(
                expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
            ).exchanged
    }

    @inlinable @inline(__always)
    func unlock() { word.store(false, ordering: .releasing) }

    @usableFromInline
    func lockContended() {
        var attempts = 0
        while true {
            while word.load(ordering: .relaxed) {
                attempts += 1
                if attempts > 2_000 { sched_yield() }
            }
            if word.compareExchange(
                expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
            ).exchanged {
                return
            }
        }
    }
}
