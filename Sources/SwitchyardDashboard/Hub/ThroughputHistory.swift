#if Dashboard
    /// Each queue's finished-job rate between snapshots, and the latest samples of it (the sparklines).
    ///
    /// Keyed by source and queue name; a queue that leaves its source is forgotten at the next record. A source that
    /// does not count finished jobs (``DashboardQueue/succeeded`` nil) gets no throughput.
    struct ThroughputHistory: Sendable {
        /// Samples kept per queue.
        static let capacity = 60

        private struct Entry: Sendable {
            var finished: Int
            var at: ContinuousClock.Instant
            var samples: [Double] = []
        }

        private var entries: [String: Entry] = [:]

        /// Sets each queue's `throughput` and `history` in `snapshot`, from the finished counts it carries, as seen
        /// at `now`. - Complexity: O(queues).
        mutating func record(_ snapshot: inout DashboardSnapshot, at now: ContinuousClock.Instant) {
            var seen: [String: Entry] = [:]
            for sourceIndex in snapshot.sources.indices {
                let source = snapshot.sources[sourceIndex].id
                for queueIndex in snapshot.sources[sourceIndex].queues.indices {
                    let queue = snapshot.sources[sourceIndex].queues[queueIndex]
                    guard let finished = queue.finished else { continue }
                    let key = source + "\u{1F}" + queue.name
                    var entry = entries[key] ?? Entry(finished: finished, at: now)
                    let elapsed = entry.at.duration(to: now)
                    if elapsed > .zero, finished >= entry.finished {
                        let rate = Double(finished - entry.finished) / Dashboard.seconds(elapsed)
                        entry.samples.append(rate)
                        if entry.samples.count > Self.capacity { entry.samples.removeFirst() }
                        snapshot.sources[sourceIndex].queues[queueIndex].throughput = rate
                    }
                    entry.finished = finished
                    entry.at = now
                    snapshot.sources[sourceIndex].queues[queueIndex].history = entry.samples
                    seen[key] = entry
                }
            }
            entries = seen
        }
    }
#endif
