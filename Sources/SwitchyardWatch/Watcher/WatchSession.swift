#if Watch
    import Foundation
    import Switchyard
    import Synchronization
    import SystemPackage

    /// The part of a watch that any thread may touch: the outbox, the wake-up pipe, the stop flag and the count of
    /// watches. The watch itself (``WatchLoop``) lives on the watcher's thread, which creates it and alone uses it.
    final class WatchSession: Sendable {
        /// Where a watcher made with a handler sends its batches.
        struct BatchHandler: Sendable {
            let delivery: Delivery?
            let body: @Sendable ([FileEvent]) -> Void
        }

        let outbox: WatchOutbox
        let wakePipe: WakePipe
        /// The handler batches go to instead of the outbox, for a watcher made with one.
        let handler: BatchHandler?
        private let stopped = Atomic<Bool>(false)
        private let watches = Atomic<Int>(0)
        /// Whether a batch handed to the handler's delivery has not been handled yet.
        private let handlerBusy = Atomic<Bool>(false)

        private init(wakePipe: WakePipe, handler: BatchHandler?) {
            self.wakePipe = wakePipe
            self.handler = handler
            outbox = WatchOutbox(onTaken: { wakePipe.wake() })
            if handler != nil { outbox.finish() }  // iterating a watcher with a handler ends at once
        }

        /// Starts the watcher's thread and returns once its initial walk is done.
        static func start(
            paths: [FilePath], options: FileWatcher.Options, handler: BatchHandler?
        ) async throws -> WatchSession {
            let pipe: WakePipe
            do { pipe = try WakePipe() } catch {
                throw FileWatcherError(path: paths[0], errno: error.errno, reason: "no pipe for the watcher's thread")
            }
            let session = WatchSession(wakePipe: pipe, handler: handler)
            try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    WatchLoop(session: session, paths: paths, options: options).run(started: started)
                }
                thread.name = options.name
                thread.stackSize = 1 << 20
                thread.start()
            }
            return session
        }

        /// Whether the consumer has not taken the last batch yet (the watcher then keeps merging).
        var isHoldingBatch: Bool {
            handler == nil ? outbox.isHoldingBatch : handlerBusy.load(ordering: .acquiring)
        }

        /// Hands `batch` to the consumer: the outbox, or the handler (on this thread, or through its delivery).
        func deliver(_ batch: [FileEvent]) {
            guard let handler else {
                _ = outbox.offer(batch)
                return
            }
            guard let delivery = handler.delivery else {
                handler.body(batch)
                return
            }
            handlerBusy.store(true, ordering: .releasing)
            delivery.deliver { [self] in
                handler.body(batch)
                handlerBusy.store(false, ordering: .releasing)
                wakePipe.wake()
            }
        }

        var isStopped: Bool { stopped.load(ordering: .acquiring) }

        func stop() {
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            wakePipe.wake()
        }

        var watchedDirectories: Int { watches.load(ordering: .relaxed) }

        func watchesChanged(by delta: Int) { watches.add(delta, ordering: .relaxed) }

        #if SWITCHYARD_TEST_HOOKS
            /// Tests: while set, the watcher's thread leaves the kernel's queue unread (so that it overflows).
            let readsPaused = Atomic<Bool>(false)
        #endif

        /// Whether kernel events are to be read now (always, but in tests that pause reading).
        var readsKernelEvents: Bool {
            #if SWITCHYARD_TEST_HOOKS
                !readsPaused.load(ordering: .acquiring)
            #else
                true
            #endif
        }
    }
#endif
