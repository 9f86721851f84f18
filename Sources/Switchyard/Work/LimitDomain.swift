/// A budget of running jobs shared by several queues (and nested domains), so that "how much runs at once" has one
/// answer across a program.
///
/// ```swift
/// let io = LimitDomain(name: "io", width: 8)
/// let thumbnails = WorkQueue(name: "thumbnails", width: 4, limit: io)            // at most 4, and within io's 8
/// let downloads = WorkQueue(name: "downloads", width: 8, limit: io, weight: 3)  // 3 turns for each of theirs
/// ```
///
/// A job starts only when its queue and every domain above it have a free slot. When several children (queues or
/// domains) have ready work, the highest priority always goes first; among children offering the same priority,
/// they take turns, `weight` starts each (weighted round robin; a child that reaches its own width gives up the rest
/// of its turn). Domains form a tree: a domain's `parent` is fixed
/// at creation.
///
/// Thread-safe; all state sits behind the engine lock.
public final class LimitDomain: Sendable {
    /// The domain's name, shown in snapshots and waiting reasons.
    public let name: String
    let scheduler: SchedulerNode

    /// A domain of `width` slots, optionally inside `parent` with a share `weight` among its siblings.
    /// - Precondition: `width >= 1`, `weight >= 1`.
    public init(name: String, width: Int, parent: LimitDomain? = nil, weight: Int = 1) {
        self.name = name
        scheduler = SchedulerNode(name: name, isLeaf: false, width: width, parent: parent?.scheduler, weight: weight)
    }

    /// The most jobs running at once below this domain.
    ///
    /// Changing it takes effect at once: a wider domain starts waiting jobs immediately; a narrower one lets running
    /// jobs finish (none is interrupted) and starts new ones only once fewer than the new width run. If jobs
    /// waiting for work that needs a slot then fill the new width, the newest of them have their waits end with
    /// ``JobError/wouldDeadlock(_:)`` until they no longer do (see ``Job/value``).
    /// - Precondition: the new width is at least 1.
    public var width: Int {
        get { Engine.perform(in: scheduler.region) { _ in scheduler.width } }
        set { scheduler.setWidth(newValue) }
    }

    /// Jobs running below this domain right now. - Complexity: O(1).
    public var runningCount: Int { Engine.perform(in: scheduler.region) { _ in scheduler.running } }
}

// Unchecked-Sendable invariant: every `var` of a scheduler node is read and written only while the engine lock
// is held; `name`, `isLeaf` and `parent` never change. Exercised under Thread Sanitizer by `WorkQueueStressTests`.
extension SchedulerNode: @unchecked Sendable {}
