#if SWITCHYARD_INTERNAL_CHECKS
    /// A queue of a region, for the invariant checks (see ``EngineRegion/checkedQueues``).
    struct WeakQueue {
        weak var queue: WorkQueue?
    }
#endif

extension Engine {
    /// Registers a queue for the invariant checks of its region (no-op unless `SWITCHYARD_INTERNAL_CHECKS`).
    /// Lock held.
    @inline(__always)
    static func _registerForChecks(_ queue: WorkQueue, _ transaction: inout Transaction) {
        #if SWITCHYARD_INTERNAL_CHECKS
            transaction.region._withUnsafeGuaranteedRef { region in
                region.checkedQueues.removeAll { $0.queue == nil }
                region.checkedQueues.append(WeakQueue(queue: queue))
            }
        #endif
    }

    /// Checks the bookkeeping of every queue of `region` against its jobs (no-op unless
    /// `SWITCHYARD_INTERNAL_CHECKS`). Lock held.
    /// - Complexity: O(the region's unfinished jobs) with checks on; documented costs do not hold then.
    @inline(__always)
    static func _checkInvariants(_ region: Unmanaged<EngineRegion>) {
        #if SWITCHYARD_INTERNAL_CHECKS
            let region = region.takeUnretainedValue()
            var nodes: [ObjectIdentifier: SchedulerNode] = [:]
            for entry in region.checkedQueues {
                guard let queue = entry.queue else { continue }
                queue._checkInvariants()
                for node in queue.scheduler.path { nodes[ObjectIdentifier(node)] = node }
            }
            region.blockedJobs._checkInvariants(nodes: Array(nodes.values))
        #endif
    }
}

extension WorkQueue {
    /// Counts match the jobs, every ready job is in the bucket of its effective priority and unblocked, no job is
    /// both ready and blocked, effective priorities match their contributions, offers match the buckets.
    /// Lock held.
    func _checkInvariants() {
        #if SWITCHYARD_INTERNAL_CHECKS
            var pending = 0
            var ready = 0
            var running = 0
            for job in live.nodes() {
                precondition(job.phase != .finished, "\(name): finished job \"\(job.name)\" still in the live list")
                if job.attempts == 0 && job.phase != .running { pending += 1 }
                if job.phase == .ready {
                    ready += 1
                    precondition(job.blockers == 0, "\(name): \"\(job.name)\" is ready with \(job.blockers) blockers")
                    precondition(job.bucketLinks.isLinked, "\(name): ready \"\(job.name)\" is in no bucket")
                } else if job.phase == .running {
                    precondition(
                        job.bucketLinks.isLinked, "\(name): running \"\(job.name)\" is not in the running list")
                } else {
                    precondition(!job.bucketLinks.isLinked, "\(name): \"\(job.name)\" is \(job.phase) but in a bucket")
                }
                if job.phase == .waiting {
                    precondition(job.blockers > 0, "\(name): \"\(job.name)\" waits with no blocker")
                }
                if job.phase == .running { running += 1 }
                for (index, awaiter) in job.awaiters.enumerated() {
                    precondition(
                        awaiter.slot.map { $0.index == index } ?? true,
                        "\(name): a waiter of \"\(job.name)\" at \(index) has slot \(awaiter.slot?.index ?? -2)")
                }
                precondition(
                    job.effectiveLevel == job.computedEffectiveLevel,
                    "\(name): \"\(job.name)\" effective level \(job.effectiveLevel) ≠ \(job.computedEffectiveLevel)")
            }
            precondition(pending == pendingCount, "\(name): pending count \(pendingCount), jobs say \(pending)")
            precondition(ready == readyCount, "\(name): ready count \(readyCount), jobs say \(ready)")
            precondition(running == runningCount, "\(name): running count \(runningCount), jobs say \(running)")
            precondition(runningJobs.count == runningCount, "\(name): running list \(runningJobs.count) ≠ \(running)")
            var bucketed = 0
            for level in 0..<JobPriority.levelCount { bucketed += scheduler.buckets[level].count }
            precondition(bucketed == readyCount, "\(name): buckets hold \(bucketed) jobs, ready count \(readyCount)")
            for level in 0..<JobPriority.levelCount {
                for job in scheduler.buckets[level].nodes() {
                    precondition(job.effectiveLevel == level, "\(name): \"\(job.name)\" in bucket \(level)")
                }
            }
            var node: SchedulerNode? = scheduler
            while let current = node {
                precondition(current.listedLevel == current.offer, "\(current.name): listed at a stale offer")
                node = current.parent
            }
        #endif
    }
}
