#if Watch
    import SystemPackage

    /// A settled change under a watched path, as a ``FileWatcher`` reports it.
    ///
    /// Paths are absolute and are bytes (`FilePath`): a name with `#`, spaces, a newline or invalid UTF-8 is reported
    /// as it is on disk. Within one batch a path has one event, but for a file renamed and then written, which is
    /// `renamed` followed by `modified` (see ``FileWatcher``).
    public enum FileEvent: Sendable, Hashable, CustomStringConvertible {
        /// A file, directory or link appeared: created, moved in from outside the watched tree, or found by a
        /// rescan. The files of a new directory (`mkdir -p`, a `git clone`, a directory moved in) are reported
        /// created too.
        case created(FilePath)
        /// A file's contents or metadata changed; also an editor's atomic save (write a temporary file, rename it
        /// over the target), reported as one `modified(target)`.
        case modified(FilePath)
        /// A file, directory or link went away: deleted, or moved out of the watched tree.
        case removed(FilePath)
        /// Moved within the watched tree. For a directory, later events carry the new paths, and its contents are
        /// not reported again.
        case renamed(from: FilePath, to: FilePath)
        /// Changes under `root` may have been missed (the kernel's event queue overflowed): the watcher rescans
        /// `root` at once and reports what the rescan finds changed, as `created`, `modified` and `removed` events in
        /// this batch and the ones that follow.
        case rescanNeeded(FilePath)
        /// Some directories are not watched because a system limit was reached: changes directly in them are not
        /// reported, until a rescan (after an overflow) finds them and retries their watches. See
        /// ``WatchLimitReport``.
        case watchLimitReached(WatchLimitReport)

        /// The path the event is about (for a rename, its new path; for a limit report, the first unwatched
        /// directory).
        public var path: FilePath {
            switch self {
            case .created(let path), .modified(let path), .removed(let path), .rescanNeeded(let path): path
            case .renamed(_, let to): to
            case .watchLimitReached(let report): report.firstUnwatched
            }
        }

        public var description: String {
            switch self {
            case .created(let path): "created \(path)"
            case .modified(let path): "modified \(path)"
            case .removed(let path): "removed \(path)"
            case .renamed(let from, let to): "renamed \(from) -> \(to)"
            case .rescanNeeded(let root): "rescan needed \(root)"
            case .watchLimitReached(let report): report.description
            }
        }
    }

    /// What a watcher could not watch because a per-user kernel limit was reached, and which limit to raise.
    public struct WatchLimitReport: Sendable, Hashable, CustomStringConvertible {
        /// The limit that was reached.
        public enum Limit: Sendable, Hashable {
            /// Watches per user (`ENOSPC` from `inotify_add_watch`): `fs.inotify.max_user_watches`.
            case watches
            /// inotify instances per user (`EMFILE` from `inotify_init1`): `fs.inotify.max_user_instances`. The
            /// watcher then polls instead.
            case instances
        }

        /// Which limit.
        public let limit: Limit
        /// How many directories went unwatched so far (cumulative for this watcher).
        public let unwatchedDirectories: Int
        /// The first directory that could not be watched.
        public let firstUnwatched: FilePath
        /// The limit's current value, when it could be read (`/proc/sys/fs/inotify/…`).
        public let currentValue: Int?

        /// The `sysctl` setting to raise.
        public var setting: String {
            switch limit {
            case .watches: "fs.inotify.max_user_watches"
            case .instances: "fs.inotify.max_user_instances"
            }
        }

        public var description: String {
            let current = currentValue.map { " (now \($0))" } ?? ""
            return "watch limit reached: \(unwatchedDirectories) directories unwatched, first \(firstUnwatched); "
                + "raise \(setting)\(current), e.g. sudo sysctl \(setting)=524288"
        }

        public init(limit: Limit, unwatchedDirectories: Int, firstUnwatched: FilePath, currentValue: Int?) {
            self.limit = limit
            self.unwatchedDirectories = unwatchedDirectories
            self.firstUnwatched = firstUnwatched
            self.currentValue = currentValue
        }
    }
#endif
