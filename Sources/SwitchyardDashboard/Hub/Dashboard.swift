#if Dashboard
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import NIOCore
    import NIOConcurrencyHelpers
    import Synchronization

    /// A live view of work: what runs, what waits and why, what failed, for any number of sources.
    ///
    /// ```swift
    /// let dashboard = Dashboard(sources: [WorkQueuesSource(queues: [importer.queue])])
    /// let server = DashboardServer(dashboard: dashboard)          // http://127.0.0.1:8600/
    /// try await server.run()
    /// ```
    ///
    /// or mount it in an application: `dashboard.addRoutes(to: router.group("dashboard"), basePath: "/dashboard/")`.
    ///
    /// **One producer for all viewers.** While at least one viewer watches (``updates()``, or a `GET events`
    /// stream), one task reads every source each ``DashboardConfiguration/interval`` and hands the snapshot, encoded
    /// once, to every viewer; with no viewer nothing reads the sources. Each viewer takes the latest snapshot when it
    /// is ready for one, so a slow viewer skips updates and never makes memory grow. `GET snapshot.json` is served
    /// from the producer's latest snapshot while it runs, and otherwise by one read shared by the requests that
    /// arrive during it.
    ///
    /// Thread-safe. Sources are read concurrently with each other, in child tasks of the producer's task (or of a
    /// one-off read's); the clock is only slept on, never called under a lock.
    public final class Dashboard: Sendable {
        public let sources: [any DashboardSource]
        public let configuration: DashboardConfiguration
        private let clock: any Clock<Duration>
        private let hub = NIOLockedValueBox(DashboardHubState<Waiter, DashboardUpdate>())
        private typealias Waiter = CheckedContinuation<(generation: UInt64, update: DashboardUpdate)?, Never>
        private let reading = NIOLockedValueBox(ReadingState())

        /// What the producer and one-off reads share: the throughput history and the snapshot sequence.
        private struct ReadingState: Sendable {
            var history = ThroughputHistory()
            var sequence = 0
            var inFlight: Task<DashboardUpdate, Never>?
        }

        /// A dashboard of `sources` (their identifiers must differ). `clock` paces the updates.
        public init(
            sources: [any DashboardSource], configuration: DashboardConfiguration = .init(),
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            let identifiers = sources.map(\.id)
            precondition(
                Set(identifiers).count == identifiers.count, "Dashboard: source identifiers repeat: \(identifiers)")
            self.sources = sources
            self.configuration = configuration
            self.clock = clock
        }

        /// The number of viewers watching now (streams of ``updates()`` being iterated, `GET events` streams).
        public var viewerCount: Int { hub.withLockedValue { $0.viewerCount } }

        /// Whether the producer runs (someone watches).
        public var isProducing: Bool { hub.withLockedValue { $0.isProducing } }

        /// The current snapshot: the producer's latest while it runs, otherwise a read of every source (shared by
        /// the calls that arrive while it runs).
        public func snapshot() async -> DashboardSnapshot { await currentUpdate().snapshot }

        /// Snapshots while the stream is iterated: the first at once (the latest, or the first read), then one per
        /// interval. Iterating registers a viewer; ending the iteration (or cancelling its task) unregisters it.
        public func updates() -> DashboardUpdates { DashboardUpdates(dashboard: self) }

        // MARK: Internals for the routes and the sequence

        func currentUpdate() async -> DashboardUpdate {
            if let latest = hub.withLockedValue({ $0.latest?.update }) { return latest }
            let task = reading.withLockedValue { state in
                if let task = state.inFlight { return task }
                let task = Task { await self.read() }
                state.inFlight = task
                return task
            }
            let update = await task.value
            reading.withLockedValue { state in
                if state.inFlight == task { state.inFlight = nil }
            }
            return update
        }

        /// Registers a viewer, starting the producer if none runs.
        func addViewer() {
            let (start, count) = hub.withLockedValue { state in (state.addViewer(), state.viewerCount) }
            #if SWITCHYARD_TEST_HOOKS
                testHook.withLockedValue { $0 }?(.viewers(count))
            #else
                _ = count
            #endif
            guard start else { return }
            Task { await self.produce() }
        }

        func removeViewer() {
            let count = hub.withLockedValue { state in
                state.removeViewer()
                return state.viewerCount
            }
            #if SWITCHYARD_TEST_HOOKS
                testHook.withLockedValue { $0 }?(.viewers(count))
            #else
                _ = count
            #endif
        }

        #if SWITCHYARD_TEST_HOOKS
            /// Counts this dashboard's updates alive.
            let updateCounter = DashboardUpdate.Counter()

            /// What the tests hear: the viewer count after each viewer arrives or leaves, and the producer's end.
            enum TestEvent: Sendable {
                case viewers(Int)
                case producerStopped
            }

            /// Called outside the lock with each ``TestEvent``.
            let testHook = NIOLockedValueBox<(@Sendable (TestEvent) -> Void)?>(nil)
        #endif

        /// The first update newer than generation `taken`, or nil if the task is cancelled.
        func next(after taken: UInt64) async -> (generation: UInt64, update: DashboardUpdate)? {
            let identifier = hub.withLockedValue { $0.makeWaiterIdentifier() }
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: Waiter) in
                    switch hub.withLockedValue({ $0.wait(after: taken, identifier: identifier, continuation) }) {
                    case .deliver(let generation, let update): continuation.resume(returning: (generation, update))
                    case .cancelled: continuation.resume(returning: nil)
                    case .parked: break
                    }
                }
            } onCancel: {
                hub.withLockedValue { $0.cancelWait(identifier) }?.resume(returning: nil)
            }
            hub.withLockedValue { $0.endWait(identifier) }
            return result
        }

        /// The producer: reads, publishes and sleeps while viewers remain.
        private func produce() async {
            while hub.withLockedValue({ $0.producerShouldContinue() }) {
                let update = await read()
                let (generation, waiters) = hub.withLockedValue { $0.published(update) }
                for waiter in waiters.values { waiter.resume(returning: (generation, update)) }
                do { try await clock.sleep(for: configuration.interval) } catch {}
            }
            #if SWITCHYARD_TEST_HOOKS
                testHook.withLockedValue { $0 }?(.producerStopped)
            #endif
        }

        /// Reads every source (concurrently) into one encoded update.
        private func read() async -> DashboardUpdate {
            let limit = configuration.listLimit
            let sources = sources
            let parts = await withTaskGroup(
                of: (Int, DashboardSourceSnapshot).self, returning: [DashboardSourceSnapshot].self
            ) { group in
                for (index, source) in sources.enumerated() {
                    group.addTask {
                        do {
                            return (index, try await source.read(limit: limit))
                        } catch {
                            return (index, DashboardSourceSnapshot(id: source.id, kind: "unknown", error: "\(error)"))
                        }
                    }
                }
                var read: [(Int, DashboardSourceSnapshot)] = []
                for await part in group { read.append(part) }
                return read.sorted { $0.0 < $1.0 }.map(\.1)
            }
            let now = ContinuousClock.now
            let snapshot = reading.withLockedValue { state in
                state.sequence += 1
                var snapshot = DashboardSnapshot(
                    sequence: state.sequence, takenAt: Date(), interval: Self.seconds(configuration.interval),
                    actionsEnabled: configuration.actions.token != nil, sources: parts)
                state.history.record(&snapshot, at: now)
                return snapshot
            }
            #if SWITCHYARD_TEST_HOOKS
                return DashboardUpdate(snapshot, counter: updateCounter)
            #else
                return DashboardUpdate(snapshot)
            #endif
        }

        static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    /// A snapshot encoded once for every viewer: its JSON and its Server-Sent Events frame.
    final class DashboardUpdate: Sendable {
        let snapshot: DashboardSnapshot
        /// The snapshot as JSON (one line).
        let json: ByteBuffer
        /// `event: snapshot`, `id: <sequence>`, `data: <json>` and the blank line that ends the event.
        let event: ByteBuffer

        #if SWITCHYARD_TEST_HOOKS
            /// Counts its dashboard's updates alive now: what the tests of slow viewers bound.
            final class Counter: Sendable {
                let alive = Atomic<Int>(0)
            }
            let counter: Counter?
            deinit { counter?.alive.subtract(1, ordering: .relaxed) }
        #endif

        init(_ snapshot: DashboardSnapshot, counter: AnyObject? = nil) {
            #if SWITCHYARD_TEST_HOOKS
                self.counter = counter as? Counter
                self.counter?.alive.add(1, ordering: .relaxed)
            #endif
            self.snapshot = snapshot
            let bytes = (try? DashboardJSON.encoder.encode(snapshot)) ?? Data("{}".utf8)
            json = ByteBuffer(bytes: bytes)
            var event = ByteBuffer()
            event.reserveCapacity(bytes.count + 48)
            event.writeString("event: snapshot\nid: \(snapshot.sequence)\ndata: ")
            event.writeBytes(bytes)
            event.writeString("\n\n")
            self.event = event
        }
    }

    /// The dashboard's JSON coding: ISO 8601 dates, keys as the Swift properties name them.
    enum DashboardJSON {
        static let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            return encoder
        }()

        static let decoder: JSONDecoder = {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        }()
    }
#endif
