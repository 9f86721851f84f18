#if HTTP
    import NIOConcurrencyHelpers
    import NIOCore
    import Synchronization

    /// A session's idle timeout (``HTTPTimeouts/idle``) for all its requests at once: every ``period`` (an eighth of
    /// the timeout, and never more often than every 10 ms) one sweep on an event loop fails the requests that have
    /// waited for the server longer than the timeout, instead of a timer armed and cancelled on each request's every
    /// read.
    ///
    /// A request's attempt makes an ``IdleWatch``, tells it when it waits for the server (sent, a part read) and when
    /// it does not (its reader holds the body back, a part is being written), and registers it with
    /// ``watch(_:onExpire:)`` until it ends (``unwatch(_:)``). A watch is active at a tick (the count of sweeps so
    /// far, read without a lock): a request that waits from tick `t` on fails at the first sweep after `t` plus the
    /// timeout's ticks, so after a silence of at least the timeout and at most the timeout plus two periods (plus
    /// the event loop's delay; a timeout under 80 ms has periods of 10 ms, longer than its eighth). `onExpire` runs
    /// then, on the sweeping thread, outside the lock; it must not block. The sweep claims an expiry with a
    /// compare-and-swap of the stamp it read: activity that lands between its read and the claim keeps the request
    /// (it is filed again), and once claimed, later activity changes nothing.
    ///
    /// Thread-safe: the wheel is behind a lock, each hold O(1); sweeps run one at a time, on one event loop.
    final class IdleSweeper: Sendable {
        /// Names a registration, for ``unwatch(_:)``.
        typealias Handle = IdleWheel<Watched>.Handle

        /// A registered watch and what its expiry does.
        struct Watched: Sendable {
            let watch: IdleWatch
            let onExpire: @Sendable () -> Void
        }

        /// The time between sweeps.
        let period: Duration
        /// The sweeps made so far; a watch stamps its activity with it. Incremented before the wheel advances, so it
        /// is at most one ahead of the wheel's tick.
        let ticks = Atomic<Int64>(0)
        private let wheel: NIOLockedValueBox<IdleWheel<Watched>>
        private let loop: any EventLoop
        private let repeated = NIOLockedValueBox<RepeatedTask?>(nil)

        /// A sweeper for `idle`, sweeping on `loop` once ``start()`` is called.
        init(idle: Duration, on loop: any EventLoop) {
            period = max(idle / 8, .milliseconds(10))
            let ticks = Int64(min(max((idle / period).rounded(.up), 1), 8))
            wheel = NIOLockedValueBox(IdleWheel(ticksPerIdle: ticks))
            self.loop = loop
        }

        /// Starts the sweeps, every ``period`` on the event loop. They hold the sweeper weakly: they end with it, or
        /// at ``stop()``.
        func start() {
            let period = TimeAmount(period)
            let task = loop.scheduleRepeatedTask(initialDelay: period, delay: period) { [weak self] task in
                guard let self else { return task.cancel() }
                self.sweep()
            }
            repeated.withLockedValue { $0 = task }
        }

        /// Stops the sweeps. Idempotent.
        func stop() {
            repeated.withLockedValue { $0 }?.cancel()
        }

        /// Watches `watch` until ``unwatch(_:)``: once it has waited longer than the timeout, it is marked expired and
        /// `onExpire` runs (see the type's discussion). - Complexity: O(1).
        func watch(_ watch: IdleWatch, onExpire: @escaping @Sendable () -> Void) -> Handle {
            wheel.withLockedValue { $0.insert(Watched(watch: watch, onExpire: onExpire), lastActive: watch.lastActive) }
        }

        /// Stops watching; nothing when the watch expired already. - Complexity: O(1).
        func unwatch(_ handle: Handle) {
            let removed = wheel.withLockedValue { $0.remove(handle) }
            _ = removed  // released after the lock: `onExpire` captures the request
        }

        /// The watches registered. - Complexity: O(1).
        var count: Int { wheel.withLockedValue { $0.count } }

        /// One sweep: advances the tick and expires the watches due. One lock hold per watch due.
        func sweep() {
            ticks.wrappingAdd(1, ordering: .relaxed)
            wheel.withLockedValue { $0.advance() }
            while true {
                let step = wheel.withLockedValue {
                    $0.step(lastActive: { $0.watch.lastActive }, claim: { $0.watch.claimExpiry(at: $1) })
                }
                switch step {
                case .done: return
                case .refiled: continue
                case .expired(let watched): watched.onExpire()
                }
            }
        }

        /// One sweep on the sweeper's event loop, in order with the periodic ones. For tests, whose sessions use an
        /// idle timeout too long for a periodic sweep to come.
        func sweepOnLoop() async throws {
            try await loop.submit { self.sweep() }.get()
        }
    }

    /// One attempt's activity, for ``IdleSweeper``: whether it waits for the server, since which sweep, and whether
    /// the sweeper expired it. Thread-safe (atomics); every method O(1) and lock-free.
    final class IdleWatch: Sendable {
        private let sweeper: IdleSweeper
        /// The tick the attempt last began to wait at, or -1 while it does not wait.
        private let stamp = Atomic<Int64>(-1)
        private let expired = Atomic<Bool>(false)

        /// A watch that does not wait yet.
        init(_ sweeper: IdleSweeper) {
            self.sweeper = sweeper
        }

        /// The attempt waits for the server from now: a request sent, or a part of the response read.
        func waiting() {
            stamp.store(sweeper.ticks.load(ordering: .relaxed), ordering: .relaxed)
        }

        /// Something moved while the attempt waits (a part of its request body went out): the wait starts again from
        /// now. Nothing while it holds: the time its reader holds the body back still does not count.
        func activity() {
            let current = stamp.load(ordering: .relaxed)
            guard current >= 0 else { return }
            _ = stamp.compareExchange(
                expected: current, desired: sweeper.ticks.load(ordering: .relaxed), ordering: .relaxed)
        }

        /// The attempt does not wait for the server: the time until the next ``waiting()`` does not count.
        func holding() {
            stamp.store(-1, ordering: .relaxed)
        }

        /// The tick of ``waiting()``, or -1 while holding.
        var lastActive: Int64 { stamp.load(ordering: .relaxed) }

        /// Whether the sweeper expired this watch (before running its `onExpire`).
        var hasExpired: Bool { expired.load(ordering: .acquiring) }

        /// Expires the watch if it is still waiting since tick `last` (no activity, hold or new wait since the
        /// sweeper read that stamp): ``hasExpired`` becomes true, and the watch, out of the wheel, is not looked at
        /// again. Returns whether it expired.
        func claimExpiry(at last: Int64) -> Bool {
            guard stamp.compareExchange(expected: last, desired: -1, ordering: .relaxed).exchanged else { return false }
            expired.store(true, ordering: .releasing)
            return true
        }
    }
#endif

#if HTTP && SWITCHYARD_TEST_HOOKS
    extension HTTPSession {
        /// Makes one sweep of the idle timeout now, in order with the periodic ones (see ``IdleSweeper``). For tests:
        /// with an idle timeout of an hour, no periodic sweep comes, and a test expires a silent request by calling
        /// this nine times (an eighth of the timeout per sweep, and one more).
        @_spi(Testing)
        public func sweepIdleRequests() async throws {
            try await idleSweeper.sweepOnLoop()
        }

        /// The attempts the idle timeout watches now. For tests: none once every request ended.
        @_spi(Testing)
        public var idleWatchCount: Int { idleSweeper.count }
    }
#endif
