#if HTTP
    import NIOConcurrencyHelpers
    import Switchyard
    import Synchronization

    extension HTTPSession {
        /// The queue of `host`'s requests now, for snapshots, events and counts; nil while no request to the host
        /// waits or runs, and after ``shutdown()``. Asking makes nothing: a session keeps a host's queue only while
        /// the host is in use (see "Scheduling").
        ///
        /// The queue returned is the one of the requests to the host in flight, and of those that join them while
        /// any is in flight: ask for it while a request to the host waits or runs, to watch that request and the
        /// ones after it. Once the host's last request ends, its queue is dropped (the one returned then stays
        /// valid but no request uses it), and a later request gets a new one.
        /// - Complexity: O(1).
        public func queue(forHost host: String, port: Int? = nil, scheme: String = "https") -> WorkQueue? {
            let scheme = scheme.lowercased()
            let key = HostKey(scheme: scheme, host: host.lowercased(), port: port ?? (scheme == "https" ? 443 : 80))
            return existingLane(key)?.queue
        }

        /// The queues of up to `limit` hosts in use now, in no particular order: what a dashboard of the session shows
        /// (`WorkQueuesSource(queues: { session.hostQueues() })`). Like ``queue(forHost:port:scheme:)``, a host's
        /// queue exists only while a request to it waits or runs. - Complexity: O(limit) on average, under the lock
        /// that every request takes twice.
        public func hostQueues(limit: Int = 64) -> [WorkQueue] {
            lanes.withLockedValue { $0.some(limit) }.map(\.queue)
        }

        /// Runs `body` holding `key`'s lane: the host's lane, or a new one if it has none, which is removed after
        /// `body` if nothing else holds it then. Nil, without running `body`, once the session is shut down: the
        /// lanes refuse the hold under their lock, so a call either holds a lane that ``shutdown()`` cancels and
        /// waits for, or runs nothing. - Complexity: O(1) besides `body`.
        func withLane<Value, Failure: Error>(
            _ key: HostKey, _ body: (HostLane) async throws(Failure) -> Value
        ) async throws(Failure) -> Value? {
            guard let lane = holdLane(key) else { return nil }
            defer { release(lane) }
            return try await body(lane)
        }

        /// Holds `lane` once more if it is still its host's lane (an exchange that may run on after its callers left);
        /// false, holding nothing, if it was removed (or the session shut down). Each true is matched by one
        /// ``release(_:)``.
        func holdAgain(_ lane: HostLane) -> Bool { lanes.withLockedValue { $0.holdAgain(lane.key, lane) } }

        /// Lets go of one hold of `lane`; the lane is removed if that was the last.
        func release(_ lane: HostLane) { lanes.withLockedValue { $0.release(lane.key, lane) } }

        /// `key`'s lane if the host is in use, neither made nor held; nil after ``shutdown()``.
        func existingLane(_ key: HostKey) -> HostLane? { lanes.withLockedValue { $0.lane(for: key) } }

        /// How many hosts have a lane (a queue and a coalescer) now: those in use, and none after ``shutdown()``
        /// (which takes them all, the calls it ends included). For tests and diagnostics. - Complexity: O(1).
        var laneCount: Int { lanes.withLockedValue { $0.count } }

        /// Shuts the lanes down (see ``HostLanes/shutDown()``) and returns the queues of the lanes it took: in one
        /// hold of the lanes' lock, O(1), with ``shutDown`` set in it. A call holds one of these lanes (and its job
        /// is cancelled and waited for), or holds none and runs nothing. The queues are listed after the lock.
        func shutDownLanes() -> [WorkQueue] {
            let taken = lanes.withLockedValue { (value: inout HostLanes<HostLane>) -> HostLanes<HostLane> in
                shutDown.store(true, ordering: .sequentiallyConsistent)
                return value.shutDown()
            }
            return taken.all.map(\.queue)
        }

        /// Holds `key`'s lane, made outside the lock when the host has none (a lane made by a racing caller wins);
        /// nil once the session is shut down.
        private func holdLane(_ key: HostKey) -> HostLane? {
            if let lane = lanes.withLockedValue({ $0.hold(key) }) { return lane }
            guard !isShutDown else { return nil }  // no lane made for a hold the lanes would refuse
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
