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
/// The stored `var`s of the classes it guards (job and scheduler nodes, queues, workers, groups, progress) are
/// marked `@exclusivity(unchecked)`: the lock already makes every access exclusive, and the dynamic check would
/// add a thread-local lookup per access. An access made without the lock is a data race, which the Thread
/// Sanitizer run reports.
///
/// A ``RawMutex``: an adaptive pthread mutex (it spins briefly before sleeping: the engine's critical sections are
/// short, so a contended acquisition should not pay a futex sleep and wake-up), which ThreadSanitizer intercepts.
/// It lives for the whole process.
let engineLock = RawMutex()
