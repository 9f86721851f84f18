import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a second import out of a database while one runs: an exclusive `flock` on `<database>.lock`, taken before
/// the database is touched (so `--replace` never deletes a database another import is writing) and held until the
/// import's `run` returns.
///
/// Two imports into one database would each append the same batches (a `--resume` started twice reads the same
/// import record), so the second one fails at once with ``ImportError/Kind/databaseBusy`` instead. The lock is
/// advisory and belongs to the open file: the kernel releases it when the process ends, however it ends, so a
/// `kill -9` leaves no stale lock behind (the empty lock file stays; it is reused). Readers (`switchyard status`)
/// never take it. A lock file rather than the database itself: SQLite's own POSIX locks on the database must not
/// interact with it (on NFS, `flock` is emulated with POSIX locks).
///
/// Taking it waits at most ``busyGrace`` (see ``lock(_:)``); create it on the blocking executor (file system).
final class ImportLock: ImportDestinationLock {
    /// The lock file: the database's real path (symbolic links resolved, so two names of one database share one
    /// lock) plus `.lock`.
    let path: String
    /// The lock file's descriptor; -1 once released.
    private let descriptor: Atomic<Int32>

    /// Takes the lock of the database at `database`, or throws ``ImportError/Kind/databaseBusy`` when another
    /// import (in this process or another) holds it for longer than ``busyGrace``, or ``ImportError/Kind/database``
    /// when the lock file cannot be created.
    init(database: String) throws(ImportError) {
        path = ImportLock.realPath(database) + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw ImportError(.database, "\(path): cannot create the import lock: \(String(cString: strerror(code)))")
        }
        guard ImportLock.lock(descriptor) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK {
                throw ImportError(
                    .databaseBusy,
                    """
                    another import into \(database) is running (it holds \(path)): wait for it to finish, or \
                    stop it (Ctrl-C) and continue with --resume
                    """)
            }
            throw ImportError(.database, "\(path): cannot lock the import lock: \(String(cString: strerror(code)))")
        }
        self.descriptor = Atomic(descriptor)
    }

    /// `flock(LOCK_EX | LOCK_NB)`, tried again for up to ``busyGrace`` while the lock is taken. A lock belongs to
    /// the open file, and a process forked by another thread of this one (to run a child) shares the file until it
    /// execs: for that moment a released lock still reads as held. A running import holds it far longer.
    /// Returns 0 or -1 with `errno` set, as `flock` does.
    private static func lock(_ descriptor: Int32) -> Int32 {
        let attempts = 50
        for attempt in 1...attempts {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return 0 }
            guard errno == EWOULDBLOCK, attempt < attempts else { return -1 }
            let (seconds, attoseconds) = busyGrace.components
            usleep(UInt32((seconds * 1_000_000 + attoseconds / 1_000_000_000_000) / Int64(attempts)))
        }
        return -1
    }

    /// How long a lock found taken is tried again before the import reports the database busy.
    static let busyGrace: Duration = .milliseconds(100)

    /// `path` with symbolic links resolved: the file's real path if it exists, else its folder's real path and its
    /// name; `path` itself if neither resolves.
    static func realPath(_ path: String) -> String {
        func resolved(_ path: String) -> String? {
            guard let pointer = realpath(path, nil) else { return nil }
            defer { free(pointer) }
            return String(cString: pointer)
        }
        if let real = resolved(path) { return real }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let realFolder = resolved(folder) else { return path }
        return realFolder == "/" ? "/" + name : realFolder + "/" + name
    }

    /// Releases the lock now (closing the file releases it), whoever else still holds a reference to this object.
    /// Idempotent; also done when the object goes away.
    func release() {
        let descriptor = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if descriptor >= 0 { close(descriptor) }
    }

    deinit { release() }
}
