#if Watch
    import Switchyard
    import SystemPackage

    /// Watches files and directory trees and reports settled changes as an `AsyncSequence` of batches.
    ///
    /// ```swift
    /// let watcher = try await FileWatcher(["Sources"], options: .init(ignore: IgnoreRules(globs: ["*.o"])))
    /// for try await batch in watcher {
    ///     for event in batch { print(event) }  // "modified /work/app/Sources/main.swift"
    /// }
    /// ```
    ///
    /// **Starting.** The initializer returns once every directory under the paths is watched (an eager walk), so a
    /// change made after it returns is reported. A path that is a file is watched through its directory: editors'
    /// atomic saves and log rotation (the file renamed away, a new one created) keep being reported, as `tail -F`
    /// does. A missing path is an error (``FileWatcherError``).
    ///
    /// **Events.** Raw kernel events are turned into ``FileEvent``s: new directories are watched and then scanned,
    /// and what they already hold is reported created (a `mkdir -p a/b/c && touch a/b/c/f` reports all four);
    /// renames are paired into one ``FileEvent/renamed(from:to:)`` (a half whose other half never comes is reported
    /// created or removed); a write to a temporary file renamed over a target is one ``FileEvent/modified(_:)`` of
    /// the target. Events are reported by net change since the previous batch: a file created and written is
    /// `created`; created and then removed before the batch settled is not reported.
    ///
    /// **Batches.** A batch is delivered once no raw event has arrived for ``Options/quietWindow`` (the debounce;
    /// at most ``Options/maximumDelay`` after its first event, so a file written without pause is still reported).
    /// It holds events in the order their paths first changed; a rename of a path that is then written is reported
    /// `renamed` and `modified`, otherwise a path has one event. A consumer slower than the changes gets them merged
    /// into its next batch: memory is bounded by the number of changed paths, never by the number of raw events.
    ///
    /// **Never silent loss.** When the kernel's queue overflows, the batch carries ``FileEvent/rescanNeeded(_:)``
    /// for each root and the watcher rescans: what changed meanwhile is reported (compared with the tree the
    /// watcher last saw). When a per-user limit stops it from watching a directory, it reports
    /// ``FileEvent/watchLimitReached(_:)`` with the count and the setting to raise.
    ///
    /// **Ignore rules** (``IgnoreRules``) are applied before watches are added: an ignored directory costs no watch
    /// and is never walked.
    ///
    /// **Threads.** Linux: one inotify descriptor, read with `poll` on a thread of the watcher's own (never a thread
    /// of Swift's cooperative pool). Elsewhere, or with ``Backend/polling(interval:)``: the same thread rescans at
    /// the interval. One consumer at a time: the sequence's iterators share one stream of batches. Cancelling the
    /// iterating task ends the iteration (`nil`); ``stop()`` (or releasing the watcher) ends the watch. A batch
    /// reaches an iterating task through Swift's global executor;
    /// ``init(_:options:delivery:onBatch:)-([FilePath],_,_,_)`` hands it to a handler instead, on the watcher's
    /// thread (the shortest path from a change to your code) or on a `Delivery` you choose.
    public final class FileWatcher: AsyncSequence, Sendable {
        public typealias Element = [FileEvent]
        public typealias Failure = any Error

        /// How changes are observed.
        public enum Backend: Sendable, Hashable {
            /// inotify on Linux, polling elsewhere.
            case automatic
            /// Rescans every `interval` and reports the differences: for file systems inotify cannot see (network
            /// mounts, FUSE) and platforms without it. Cost: O(files) per interval.
            case polling(interval: Duration)
        }

        /// How a watcher watches.
        public struct Options: Sendable {
            /// Watch the directories under a directory path (`true`), or only its direct entries.
            public var recursive: Bool
            /// How long the tree must stay quiet before a batch is delivered. Default 50 ms; `.zero` delivers what
            /// each read of the kernel's queue brings.
            public var quietWindow: Duration
            /// The longest a batch waits after its first change, even when changes never pause. Default 1 s.
            public var maximumDelay: Duration
            /// Paths not to watch or report.
            public var ignore: IgnoreRules
            /// How to observe changes.
            public var backend: Backend
            /// The watcher's name: its thread's name, so a running system can be inspected.
            public var name: String
            /// Tests: watches beyond this count fail as if the per-user limit (`ENOSPC`) were reached.
            var simulatedWatchLimit: Int?

            public init(
                recursive: Bool = true, quietWindow: Duration = .milliseconds(50),
                maximumDelay: Duration = .seconds(1), ignore: IgnoreRules = IgnoreRules(),
                backend: Backend = .automatic, name: String = "file-watcher"
            ) {
                precondition(quietWindow >= .zero && maximumDelay >= quietWindow, "FileWatcher: invalid windows")
                self.recursive = recursive
                self.quietWindow = quietWindow
                self.maximumDelay = maximumDelay
                self.ignore = ignore
                self.backend = backend
                self.name = name
            }
        }

        /// The watched paths, absolute, as given (made absolute against the working directory).
        public let paths: [FilePath]
        /// The watcher's options.
        public let options: Options

        let session: WatchSession

        /// Starts watching `paths` and returns once every directory under them is watched.
        /// - Throws: ``FileWatcherError`` when a path does not exist or cannot be read, or the watcher's thread
        ///   cannot start. Running out of watches is not an error: it is reported as an event.
        public init(_ paths: [FilePath], options: Options = Options()) async throws {
            precondition(!paths.isEmpty, "FileWatcher: no paths")
            let absolute = try paths.map(WatchPaths.absolute)
            self.paths = absolute
            self.options = options
            session = try await WatchSession.start(paths: absolute, options: options, handler: nil)
        }

        /// Starts watching `paths` and hands every batch to `onBatch` instead of an iterator; returns once every
        /// directory under them is watched.
        ///
        /// Without a `delivery`, `onBatch` runs on the watcher's thread as soon as a batch is due: the lowest
        /// latency from a change to your code, and the watcher reads no kernel events while it runs (keep it short;
        /// a slow handler lets the kernel's queue overflow, which is then reported and rescanned, never lost).
        /// With a `delivery` (`.main`, `.queue(q)`, `.task()`…), batches are handed to it one at a time: the next is
        /// handed over once the handler returned, and changes made meanwhile are merged into it. Iterating a watcher
        /// made this way ends at once.
        /// - Throws: as ``init(_:options:)-([FilePath],_)``.
        public init(
            _ paths: [FilePath], options: Options = Options(), delivery: Delivery? = nil,
            onBatch: @escaping @Sendable ([FileEvent]) -> Void
        ) async throws {
            precondition(!paths.isEmpty, "FileWatcher: no paths")
            let absolute = try paths.map(WatchPaths.absolute)
            self.paths = absolute
            self.options = options
            session = try await WatchSession.start(
                paths: absolute, options: options, handler: .init(delivery: delivery, body: onBatch))
        }

        /// Starts watching one path (see ``init(_:options:)-([FilePath],_)``).
        public convenience init(_ path: FilePath, options: Options = Options()) async throws {
            try await self.init([path], options: options)
        }

        /// Starts watching one path, with a handler (see
        /// ``init(_:options:delivery:onBatch:)-([FilePath],_,_,_)``).
        public convenience init(
            _ path: FilePath, options: Options = Options(), delivery: Delivery? = nil,
            onBatch: @escaping @Sendable ([FileEvent]) -> Void
        ) async throws {
            try await self.init([path], options: options, delivery: delivery, onBatch: onBatch)
        }

        deinit { session.stop() }

        /// Ends the watch: the thread stops, the kernel's watches are released, and iteration ends (`nil`) after
        /// the batches already delivered. Idempotent; safe from any thread.
        public func stop() { session.stop() }

        /// How many directories are watched now (inotify watches held).
        public var watchedDirectories: Int { session.watchedDirectories }

        #if SWITCHYARD_TEST_HOOKS
            /// Tests: stops (or resumes) reading the kernel's queue, so that it overflows.
            func pauseReadsForTesting(_ paused: Bool) {
                session.readsPaused.store(paused, ordering: .releasing)
                session.wakePipe.wake()
            }
        #endif

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(watcher: self) }

        /// Iterates the watcher's batches; see ``FileWatcher``. An iterator keeps its watcher (and so the watch)
        /// alive.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let watcher: FileWatcher

            public mutating func next() async throws -> [FileEvent]? { try await watcher.session.outbox.next() }
        }
    }

    /// Why a watch could not start or stopped.
    public struct FileWatcherError: Error, Sendable, CustomStringConvertible {
        /// The path concerned.
        public let path: FilePath
        /// `errno` of the failed call, when a call failed.
        public let errno: Int32?
        /// What failed.
        public let reason: String

        public var description: String {
            let code = errno.map { " (errno \($0))" } ?? ""
            return "cannot watch \(path): \(reason)\(code)"
        }

        init(path: FilePath, errno: Int32?, reason: String) {
            self.path = path
            self.errno = errno
            self.reason = reason
        }
    }
#endif
