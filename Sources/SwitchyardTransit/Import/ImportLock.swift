#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

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
/// `open` and `flock` with `LOCK_NB` do not wait; create it on the blocking executor all the same (file system).
final class ImportLock: Sendable {
    /// The lock file: the database's real path (symbolic links resolved, so two names of one database share one
    /// lock) plus `.lock`.
    let path: String
    /// The lock file's descriptor; -1 once released.
    private let descriptor: Atomic<Int32>

    /// Takes the lock of the database at `database`, or throws ``ImportError/Kind/databaseBusy`` when another
    /// import (in this process or another) holds it, or ``ImportError/Kind/database`` when the lock file cannot be
    /// created.
    init(database: String) throws(ImportError) {
        path = ImportLock.realPath(database) + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw ImportError(.database, "\(path): cannot create the import lock: \(String(cString: strerror(code)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK {
                throw ImportError(.databaseBusy, """
                    another import into \(database) is running (it holds \(path)): wait for it to finish, or \
                    stop it (Ctrl-C) and continue with --resume
                    """)
            }
            throw ImportError(.database, "\(path): cannot lock the import lock: \(String(cString: strerror(code)))")
        }
        self.descriptor = Atomic(descriptor)
    }

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
