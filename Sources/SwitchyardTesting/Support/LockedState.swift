internal import Synchronization

/// Mutable state guarded by a `Synchronization.Mutex`, in a form ThreadSanitizer understands.
///
/// On Linux, `Mutex` hands a contended lock over inside the kernel (priority-inheritance futex
/// calls made by the uninstrumented Synchronization library), so ThreadSanitizer does not see the
/// ordering between two critical sections and reports false data races on the guarded value.
/// `LockedState` therefore performs an acquiring load of an atomic when each critical section
/// begins and a releasing store when it ends; ThreadSanitizer models those, so the real ordering
/// the mutex provides becomes visible to it. On x86-64 both are plain moves, and elsewhere they are
/// a negligible cost next to the lock itself.
///
/// Public for tests that share state between the threads of the code under test (a log handler, a metrics
/// factory, a held response): guard it with `LockedState` rather than `Mutex`, or Thread Sanitizer reports races
/// that are not there.
///
/// Safe to use from any thread. Not reentrant: calling ``withLock(_:)`` on the same value from
/// inside `body` deadlocks, so never call out to arbitrary code (observers, continuations, the
/// test framework) while holding the lock.
public struct LockedState<State>: ~Copyable, Sendable {
    /// The lock and the guarded value.
    private let mutex: Mutex<State>
    /// Never read for its value: it only orders critical sections for ThreadSanitizer.
    private let sanitizerFence = Atomic<Bool>(false)

    /// Creates the lock guarding `initialState`.
    public init(_ initialState: consuming sending State) {
        mutex = Mutex(initialState)
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    ///
    /// Blocks while another thread holds the lock; keep `body` short and non-blocking.
    public borrowing func withLock<Result>(_ body: (inout sending State) -> sending Result) -> sending Result {
        mutex.withLock { state in
            _ = sanitizerFence.load(ordering: .acquiring)
            defer { sanitizerFence.store(false, ordering: .releasing) }
            return body(&state)
        }
    }
}
