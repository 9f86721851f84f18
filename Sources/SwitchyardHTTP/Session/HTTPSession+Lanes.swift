#if HTTP
    import NIOConcurrencyHelpers
    import Switchyard

    extension HTTPSession {
        /// The queue of `host`'s requests: for snapshots and counts.
        ///
        /// A host's queue lives while the host is in use (see "Scheduling"): the one returned while requests to the
        /// host wait or run is theirs. Asked for while the host has none, it makes one, which the next request to the
        /// host takes and which is dropped once that request ends; a later request may then get a new queue.
        /// - Complexity: O(1).
        public func queue(forHost host: String, port: Int? = nil, scheme: String = "https") -> WorkQueue {
            let scheme = scheme.lowercased()
            let key = HostKey(scheme: scheme, host: host.lowercased(), port: port ?? (scheme == "https" ? 443 : 80))
            if let lane = lanes.withLockedValue({ $0.lane(for: key) }) { return lane.queue }
            let fresh = makeLane(key)
            return lanes.withLockedValue { $0.lane(for: key, orAdd: fresh) }.queue
        }

        /// Runs `body` holding `key`'s lane: the host's lane, or a new one if it has none, which is removed after
        /// `body` if nothing else holds it then. - Complexity: O(1) besides `body`.
        func withLane<Value, Failure: Error>(
            _ key: HostKey, _ body: (HostLane) async throws(Failure) -> Value
        ) async throws(Failure) -> Value {
            let lane = holdLane(key)
            defer { release(lane) }
            return try await body(lane)
        }

        /// Holds `lane` once more if it is still its host's lane (an exchange that may run on after its callers left);
        /// false, holding nothing, if it was removed. Each true is matched by one ``release(_:)``.
        func holdAgain(_ lane: HostLane) -> Bool { lanes.withLockedValue { $0.holdAgain(lane.key, lane) } }

        /// Lets go of one hold of `lane`; the lane is removed if that was the last.
        func release(_ lane: HostLane) { lanes.withLockedValue { $0.release(lane.key, lane) } }

        /// `key`'s lane if the host is in use, neither made nor held.
        func existingLane(_ key: HostKey) -> HostLane? { lanes.withLockedValue { $0.lane(for: key) } }

        /// How many hosts have a lane (a queue and a coalescer) now: those in use. For tests and diagnostics.
        /// - Complexity: O(1).
        var laneCount: Int { lanes.withLockedValue { $0.count } }

        /// Every host's queue now, for ``shutdown()``.
        var queues: [WorkQueue] { lanes.withLockedValue { $0.all.map(\.queue) } }

        /// Holds `key`'s lane, made outside the lock when the host has none (a lane made by a racing caller wins).
        private func holdLane(_ key: HostKey) -> HostLane {
            if let lane = lanes.withLockedValue({ $0.hold(key) }) { return lane }
            let fresh = makeLane(key)
            return lanes.withLockedValue { $0.hold(key, orAdd: fresh) }
        }

        private func makeLane(_ key: HostKey) -> HostLane {
            let width = hostWidths[key.host] ?? configuration.maximumRequestsPerHost
            let queue = WorkQueue(name: "\(configuration.name) \(key)", width: width, limit: limit)
            return HostLane(
                key: key, queue: queue, coalescer: Coalescer(queue: queue, name: "\(configuration.name) shared"))
        }
    }
#endif
