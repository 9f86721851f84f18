import Foundation

/// A test process's claim on the throwaway PostgreSQL cluster it starts: an exclusive `flock` on `FOLDER.lock`,
/// held for the life of the process (the kernel lets go of it however the process ends). A cluster whose lock
/// another process can take is abandoned: its process crashed or was killed before its `atexit` handler ran.
/// Unlike a process ID, a lock is not fooled by a reused ID or by a process in another PID namespace.
enum ClusterLock {
    /// Takes the lock of the cluster in `folder` for this process, waiting while a cleaner holds it. The
    /// descriptor stays open until the process exits. Blocking: call it on a blocking thread.
    static func claim(_ folder: String) throws {
        let path = folder + ".lock"
        while true {
            let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw PostgresServerError(description: "cannot open \(path): \(String(cString: strerror(errno)))")
            }
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
            // A cleaner that held the lock removes the file before letting go: the lock must be on the file now
            // at `path`, else it claims nothing.
            if isCurrent(descriptor, path) { return }
            close(descriptor)
        }
    }

    /// The clusters (their folders) below `temporary` whose names start with `prefix` and whose lock no process
    /// holds, each stopped by `stop` (which must stop the server and remove the folder) while this process holds
    /// its lock; the lock file is removed after. A folder without a lock file is abandoned when the process its
    /// name ends with is gone.
    static func stopAbandoned(in temporary: String, prefix: String, stop: (String) async -> Void) async {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        let folders = Set(
            names.filter { $0.hasPrefix(prefix) }.map { $0.hasSuffix(".lock") ? String($0.dropLast(5)) : $0 })
        for name in folders {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            let folder = temporary + name
            let path = folder + ".lock"
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT, kill(pid, 0) != 0, errno == ESRCH { await stop(folder) }
                continue
            }
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
}
