#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import SystemPackage

    /// A watch, on its own thread: the tree as last seen, the kernel's watches, the batch being built, and the loop
    /// that waits in `poll` for kernel events, wake-ups and deadlines. Not thread-safe: created and used by the
    /// watcher's thread only.
    final class WatchLoop {
        /// One watched directory: a path given, or the directory of files given (files of one directory share
        /// one root).
        struct Root {
            /// The directory's path (absolute).
            var path: FilePath
            /// The directory watched.
            var node: DirectoryNode
            /// For files watched through their directory: their names in `node`, the only entries reported.
            var fileNames: Set<[UInt8]>?
            var matcher: IgnoreMatcher
        }

        /// A `MOVED_FROM` waiting for its `MOVED_TO`.
        struct PendingMove {
            var from: [UInt8]
            var directory: DirectoryNode
            var name: [UInt8]
            var entry: DirectoryNode.Entry?
            var deadline: ContinuousClock.Instant
        }

        let session: WatchSession
        let options: FileWatcher.Options
        let requestedPaths: [FilePath]
        var roots: [Root] = []
        var coalescer = ChangeCoalescer()
        #if os(Linux)
            var inotify: Inotify?
        #endif
        var nodesByWatch: [Int32: DirectoryNode] = [:]
        var pendingMoves: [UInt32: PendingMove] = [:]
        /// Entries whose stamps are refreshed when the batch is delivered, once each.
        var dirty: [DirtyEntry: DirectoryNode] = [:]
        /// Directories left unwatched by a limit, and the report not yet delivered.
        var unwatched = 0
        var limitReport: WatchLimitReport?
        var pollingInterval: Duration?
        var nextRescan: ContinuousClock.Instant?
        var overflowed = false
        /// How long a `MOVED_FROM` waits for its `MOVED_TO` (they are queued together; this covers a pair split
        /// across two reads).
        let pairingWindow: Duration = .milliseconds(2)

        init(session: WatchSession, paths: [FilePath], options: FileWatcher.Options) {
            self.session = session
            self.options = options
            requestedPaths = paths
        }

        /// The thread's body: the initial walk (then `started` resumes), the loop, the cleanup.
        func run(started: CheckedContinuation<Void, any Error>) {
            do {
                try setUp()
            } catch {
                started.resume(throwing: error)
                session.outbox.finish()
                return
            }
            started.resume()
            while !session.isStopped { step() }
            tearDown()
            session.outbox.finish()
        }

        private func setUp() throws {
            chooseBackend()
            for path in requestedPaths { try addRoot(path) }
            if pollingInterval != nil { nextRescan = .now + pollingInterval! }
        }

        private func chooseBackend() {
            switch options.backend {
            case .polling(let interval):
                pollingInterval = interval
            case .automatic:
                #if os(Linux)
                    do {
                        inotify = try Inotify()
                    } catch {
                        // EMFILE: the per-user instance limit. Polling still reports every change.
                        pollingInterval = .milliseconds(500)
                        if error.errno == EMFILE {
                            limitReport = WatchLimitReport(
                                limit: .instances, unwatchedDirectories: 0, firstUnwatched: requestedPaths[0],
                                currentValue: Self.readLimit("max_user_instances"))
                        }
                    }
                #else
                    pollingInterval = .milliseconds(500)
                #endif
            }
        }

        private func tearDown() {
            #if os(Linux)
                inotify = nil  // closing the descriptor releases every watch
            #endif
            session.watchesChanged(by: -nodesByWatch.count)
            nodesByWatch.removeAll()
        }

        // MARK: The loop

        /// One turn: wait for the earliest of kernel events, a wake-up and a deadline; handle what came; deliver the
        /// batch when due.
        private func step() {
            let woken = waitForWork()
            if session.isStopped { return }
            if woken { session.wakePipe.drain() }
            #if os(Linux)
                if session.readsKernelEvents { readKernelEvents() }
            #endif
            let now = ContinuousClock.now
            expireMoves(now: now)
            if overflowed {
                overflowed = false
                for index in roots.indices {
                    coalescer.notice(.rescanNeeded(roots[index].path), at: now)
                    rescan(rootIndex: index)
                }
            }
            if let nextRescan, now >= nextRescan, let interval = pollingInterval {
                for index in roots.indices { rescan(rootIndex: index) }
                self.nextRescan = .now + interval
            }
            deliverIfDue(now: .now)
        }

        /// Waits in `poll`; returns whether the wake-up pipe was written.
        private func waitForWork() -> Bool {
            var descriptors = [pollfd(fd: session.wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
            #if os(Linux)
                if let inotify, session.readsKernelEvents {
                    descriptors.append(pollfd(fd: inotify.descriptor, events: Int16(POLLIN), revents: 0))
                }
            #endif
            let timeout = Self.milliseconds(until: nextDeadline())
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
            return descriptors[0].revents != 0
        }

        /// The earliest deadline: the batch (unless the consumer still holds the previous one), a pending move, the
        /// next polling rescan.
        private func nextDeadline() -> ContinuousClock.Instant? {
            var deadlines: [ContinuousClock.Instant] = []
            if (!coalescer.isEmpty || limitReport != nil) && !session.isHoldingBatch {
                deadlines.append(
                    coalescer.deadline(quietWindow: options.quietWindow, maximumDelay: options.maximumDelay)
                        ?? .now)
            }
            if let move = pendingMoves.values.min(by: { $0.deadline < $1.deadline }) {
                deadlines.append(move.deadline)
            }
            if let nextRescan { deadlines.append(nextRescan) }
            return deadlines.min()
        }

        /// `poll`'s timeout for a deadline: -1 (none), else milliseconds rounded up.
        static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
            guard let deadline else { return -1 }
            let remaining = deadline - .now
            guard remaining > .zero else { return 0 }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            return Int32(clamping: milliseconds)
        }

        private func expireMoves(now: ContinuousClock.Instant) {
            guard !pendingMoves.isEmpty else { return }
            for (cookie, move) in pendingMoves where move.deadline <= now {
                pendingMoves.removeValue(forKey: cookie)
                movedOut(move, at: now)
            }
        }

        /// Delivers the batch when it is due and the consumer took the previous one.
        private func deliverIfDue(now: ContinuousClock.Instant) {
            guard !coalescer.isEmpty || limitReport != nil, !session.isHoldingBatch else { return }
            let due =
                coalescer.deadline(quietWindow: options.quietWindow, maximumDelay: options.maximumDelay) ?? now
            guard now >= due else { return }
            if let report = limitReport {
                coalescer.notice(.watchLimitReached(report), at: now)
                limitReport = nil
            }
            let batch = coalescer.drain()
            if !batch.isEmpty { session.deliver(batch) }
            refreshStamps()  // after the delivery: off the path from a change to its event
        }

        /// An entry whose stamp is refreshed at delivery: a directory node and a name in it.
        struct DirtyEntry: Hashable {
            let directory: ObjectIdentifier
            let name: [UInt8]
        }

        func markDirty(_ name: [UInt8], in directory: DirectoryNode) {
            dirty[DirtyEntry(directory: ObjectIdentifier(directory), name: name)] = directory
        }

        private func refreshStamps() {
            for (key, directory) in dirty {
                guard directory.entries[key.name] != nil else { continue }
                if let stamp = DirectoryScanner.stamp(WatchPaths.join(directory.path, key.name)) {
                    directory.entries[key.name]?.stamp = stamp
                }
            }
            dirty.removeAll(keepingCapacity: true)
        }

        /// A `/proc/sys/fs/inotify` limit, when readable.
        static func readLimit(_ name: String) -> Int? {
            guard let file = fopen("/proc/sys/fs/inotify/\(name)", "r") else { return nil }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 32)
            guard fgets(&line, Int32(line.count), file) != nil else { return nil }
            let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return Int(text.filter(\.isNumber))
        }
    }
#endif
