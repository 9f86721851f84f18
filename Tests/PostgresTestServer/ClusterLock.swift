#if Postgres
    import Foundation

    /// A test process's claim on the throwaway PostgreSQL cluster it starts: an exclusive `flock` on `FOLDER.lock`,
    /// held for the life of the process (the kernel lets go of it however the process ends). A cluster whose lock
    /// another process can take is abandoned: its process crashed or was killed before its `atexit` handler ran.
    /// Unlike a check of the process ID in the folder's name, a lock is not fooled by a reused ID.
    enum ClusterLock {
        /// Takes the lock of the cluster in `folder` for this process, waiting while a cleaner holds it. The
        /// descriptor stays open until the process exits. Blocking: call it on a blocking thread.
        static func claim(_ folder: String) throws {
            let path = folder + ".lock"
            while true {
                let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { throw failure("cannot open \(path)", errno) }
                var locked = flock(descriptor, LOCK_EX)
                while locked != 0 && errno == EINTR { locked = flock(descriptor, LOCK_EX) }
                guard locked == 0 else {
                    let code = errno
                    close(descriptor)
                    throw failure("cannot lock \(path)", code)
                }
                // A cleaner that held the lock removes the file before letting go: the lock must be on the file now
                // at `path`, else it claims nothing.
                if isCurrent(descriptor, path) { return }
                close(descriptor)
            }
        }

        /// Stops the abandoned clusters below `temporary` (folders whose names start with `prefix` and whose lock no
        /// process holds): `stop` (which must stop the server and remove the folder) runs while this process holds
        /// the cluster's lock, and the lock file is removed after. A lock file without its folder is removed too.
        static func stopAbandoned(in temporary: String, prefix: String, stop: (String) async -> Void) async {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
            let locks = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".lock") }
            for lock in locks {
                let path = temporary + lock
                let folder = String(path.dropLast(".lock".count))
                guard folder != PostgresServer.ownFolder else { continue }
                let descriptor = open(path, O_RDWR | O_CLOEXEC)
                guard descriptor >= 0 else { continue }
                defer { close(descriptor) }
                guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isCurrent(descriptor, path) else { continue }
                if FileManager.default.fileExists(atPath: folder) { await stop(folder) }
                unlink(path)
            }
        }

        /// Whether `descriptor` is the file at `path` (not one removed or replaced since it was opened).
        private static func isCurrent(_ descriptor: Int32, _ path: String) -> Bool {
            var held = stat()
            var current = stat()
            return fstat(descriptor, &held) == 0 && stat(path, &current) == 0 && held.st_ino == current.st_ino
                && held.st_dev == current.st_dev
        }

        private static func failure(_ what: String, _ code: Int32) -> PostgresServerError {
            PostgresServerError(description: "\(what): \(String(cString: strerror(code)))")
        }
    }
#endif
