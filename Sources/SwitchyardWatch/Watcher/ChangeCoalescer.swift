#if Watch
    import SystemPackage

    /// Turns the changes a watcher observes into one batch of ``FileEvent``s by net change per path: a pure state
    /// machine (no I/O, no clock of its own, no threads), fed by the watcher's thread and tested alone.
    ///
    /// Each path is followed by *identity*: the file that was there when the batch began (`original`), one created
    /// during the batch (`fresh`), or one that was moved in from another path (`moved`). The batch's events follow
    /// from where identities ended up:
    /// - an original that stayed, written: `modified`; a fresh one where nothing was: `created`;
    /// - a fresh one where an original was: `modified` (an atomic save, or delete-and-recreate), or `created` when
    ///   the original was moved elsewhere (log rotation: `renamed(log, log.1)`, `created(log)`);
    /// - an original that moved: `renamed(from:to:)` at its last path (a chain `a → b → c` is one rename), plus
    ///   `modified` if written;
    /// - an original gone, not moved: `removed`; a fresh one gone again: nothing.
    ///
    /// - Complexity: each observation O(1) amortized (a directory's rename O(pending changes) to re-key those
    ///   below it); ``drain()`` O(pending changes).
    struct ChangeCoalescer {
        /// Which file occupies a path now, relative to the batch's beginning.
        enum Identity: Equatable {
            /// The file that was at this path when the batch began.
            case original
            /// A file created during the batch (or moved in from outside the tree).
            case fresh
            /// The original file of `origin`, moved here.
            case moved(origin: [UInt8])
        }

        struct Change {
            /// The first observation's index: the batch's order.
            var order: Int
            var existedBefore: Bool
            var isDirectory: Bool
            /// Who is at the path now (nil: nothing).
            var current: Identity?
            /// Whether the current identity was written since it arrived.
            var written = false
            /// Where this path's original moved, while it exists there.
            var originalMovedTo: [UInt8]?
        }

        private(set) var changes: [[UInt8]: Change] = [:]
        private var notices: [FileEvent] = []
        private var nextOrder = 0
        /// When the batch's first and latest observations were made.
        private(set) var firstAt: ContinuousClock.Instant?
        private(set) var latestAt: ContinuousClock.Instant?

        var isEmpty: Bool { changes.isEmpty && notices.isEmpty }

        /// When the batch is due: `quietWindow` after its latest observation, at most `maximumDelay` after its first.
        func deadline(quietWindow: Duration, maximumDelay: Duration) -> ContinuousClock.Instant? {
            guard let firstAt, let latestAt else { return nil }
            return min(latestAt + quietWindow, firstAt + maximumDelay)
        }

        // MARK: Observations

        /// `path` was created (or moved in from outside, or found by a scan).
        mutating func created(_ path: [UInt8], isDirectory: Bool, existedBefore: Bool, at now: ContinuousClock.Instant)
        {
            update(path, isDirectory: isDirectory, existedBefore: existedBefore, at: now) { change, coalescer in
                coalescer.forgetMove(ofIdentityAt: change)
                change.current = .fresh
                change.written = false
            }
        }

        /// `path`'s contents or metadata changed.
        mutating func modified(_ path: [UInt8], isDirectory: Bool, existedBefore: Bool, at now: ContinuousClock.Instant)
        {
            update(path, isDirectory: isDirectory, existedBefore: existedBefore, at: now) { change, _ in
                if change.current == nil { change.current = change.existedBefore ? .original : .fresh }
                change.written = true
            }
        }

        /// `path` was deleted (or moved out of the tree).
        mutating func removed(_ path: [UInt8], isDirectory: Bool, existedBefore: Bool, at now: ContinuousClock.Instant)
        {
            update(path, isDirectory: isDirectory, existedBefore: existedBefore, at: now) { change, coalescer in
                coalescer.forgetMove(ofIdentityAt: change)
                change.current = nil
                change.written = false
            }
        }

        /// `from` was renamed to `to`, both inside the tree. `to` may have existed (it is replaced).
        mutating func moved(
            from: [UInt8], to: [UInt8], isDirectory: Bool, fromExistedBefore: Bool, toExistedBefore: Bool,
            at now: ContinuousClock.Instant
        ) {
            var identity: Identity = .fresh
            var written = false
            update(from, isDirectory: isDirectory, existedBefore: fromExistedBefore, at: now) { change, _ in
                let current = change.current ?? (change.existedBefore ? .original : .fresh)
                identity = current == .original ? .moved(origin: from) : current
                written = change.written
                change.current = nil
                change.written = false
            }
            if isDirectory { rekey(below: from, to: to) }
            if identity == .moved(origin: to) { identity = .original }  // moved back where it was
            update(to, isDirectory: isDirectory, existedBefore: toExistedBefore, at: now) { change, coalescer in
                coalescer.forgetMove(ofIdentityAt: change)
                change.current = identity
                change.written = written
                if identity == .original { change.originalMovedTo = nil }
            }
            if case .moved(let origin) = identity { changes[origin]?.originalMovedTo = to }
        }

        /// An event that is not about one path's contents (``FileEvent/rescanNeeded(_:)``,
        /// ``FileEvent/watchLimitReached(_:)``): delivered first in the batch, in order.
        mutating func notice(_ event: FileEvent, at now: ContinuousClock.Instant) {
            if !notices.contains(event) { notices.append(event) }
            stamp(now)
        }

        // MARK: The batch

        /// The batch's events, and a fresh batch begins.
        mutating func drain() -> [FileEvent] {
            var events = notices
            let ordered = changes.sorted { $0.value.order < $1.value.order }
            events.reserveCapacity(notices.count + ordered.count)
            for (path, change) in ordered { append(path, change, to: &events) }
            self = ChangeCoalescer()
            return events
        }

        private func append(_ path: [UInt8], _ change: Change, to events: inout [FileEvent]) {
            let target = WatchPaths.filePath(path)
            switch change.current {
            case .original:
                if change.written { events.append(.modified(target)) }
            case .fresh:
                if !change.existedBefore || change.originalMovedTo != nil {
                    events.append(.created(target))
                } else {
                    events.append(.modified(target))
                }
            case .moved(let origin):
                events.append(.renamed(from: WatchPaths.filePath(origin), to: target))
                if change.written { events.append(.modified(target)) }
            case nil:
                if change.existedBefore && change.originalMovedTo == nil { events.append(.removed(target)) }
            }
        }

        // MARK: Helpers

        private mutating func update(
            _ path: [UInt8], isDirectory: Bool, existedBefore: Bool, at now: ContinuousClock.Instant,
            _ body: (inout Change, inout ChangeCoalescer) -> Void
        ) {
            var change =
                changes.removeValue(forKey: path)
                ?? Change(
                    order: nextOrder, existedBefore: existedBefore, isDirectory: isDirectory,
                    current: existedBefore ? .original : nil)
            if change.order == nextOrder { nextOrder += 1 }
            change.isDirectory = isDirectory
            body(&change, &self)
            changes[path] = change
            stamp(now)
        }

        /// The identity at a path is about to be replaced or removed: if it was another path's original, that
        /// original no longer exists anywhere (its path reports `removed`).
        private mutating func forgetMove(ofIdentityAt change: Change) {
            if case .moved(let origin) = change.current { changes[origin]?.originalMovedTo = nil }
        }

        /// A directory moved: the changes recorded below it follow it, and so do the paths they refer to.
        private mutating func rekey(below from: [UInt8], to: [UInt8]) {
            let prefix = from + [UInt8(ascii: "/")]
            func moved(_ path: [UInt8]) -> [UInt8] {
                path.starts(with: prefix) ? to + path.dropFirst(from.count) : path
            }
            let below = changes.keys.filter { $0.starts(with: prefix) }
            for key in below {
                guard let change = changes.removeValue(forKey: key) else { continue }
                changes[moved(key)] = change
            }
            for key in Array(changes.keys) {
                guard var change = changes[key] else { continue }
                if let target = change.originalMovedTo { change.originalMovedTo = moved(target) }
                changes[key] = change
            }
        }

        private mutating func stamp(_ now: ContinuousClock.Instant) {
            if firstAt == nil { firstAt = now }
            latestAt = now
        }
    }
#endif
