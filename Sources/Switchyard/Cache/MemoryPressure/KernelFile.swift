#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small blocking helpers over the C file API for the memory-pressure readers (the core has no Foundation).
///
/// Every function blocks on the file system: call them from a ``BlockingExecutor`` thread, never from the
/// cooperative pool. Thread-safe (no shared state).
enum KernelFile {
    /// Why a file could not be read.
    enum Failure: Error, Hashable {
        /// The file (or a directory on its path) does not exist, or the kernel feature behind it is switched off.
        case missing
        /// Any other error, with the system's message (`"Permission denied"`).
        case failed(String)
    }

    /// The whole file decoded as UTF-8 (invalid bytes repaired), at most `byteLimit` bytes. O(file size).
    static func contents(of path: String, byteLimit: Int = 1 << 20) -> Result<String, Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(failure(errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < byteLimit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                break
            } else if errno != EINTR {
                return .failure(failure(errno))
            }
        }
        return .success(String(decoding: bytes.prefix(byteLimit), as: UTF8.self))
    }

    /// Whether `path` names a directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Whether anything exists at `path` (following symbolic links).
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// `base` and `component` joined by exactly one `/`: `join("/", "/proc/meminfo") == "/proc/meminfo"`,
    /// `join("/tmp/root/", "sys/fs/cgroup") == "/tmp/root/sys/fs/cgroup"`. An empty or `/` component gives `base`
    /// without its trailing slashes (or `/`).
    static func join(_ base: String, _ component: String) -> String {
        var head = Substring(base)
        while head.count > 1, head.hasSuffix("/") { head = head.dropLast() }
        var tail = Substring(component)
        while tail.hasPrefix("/") { tail = tail.dropFirst() }
        while tail.hasSuffix("/") { tail = tail.dropLast() }
        if tail.isEmpty { return String(head) }
        return head == "/" ? "/" + tail : head + "/" + tail
    }

    /// The directory above `path` (`/a/b/` → `/a`), or nil for `/`, for an empty path or for a relative path
    /// without a slash.
    static func parent(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return nil }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The system's message for an `errno` value, such as `"No such file or directory"`.
    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// `ENOENT`/`ENOTDIR` mean the file is not there; `EOPNOTSUPP` means the same for a pressure file whose feature
    /// is switched off (PSI disabled at boot): the signal does not exist on this system.
    private static func failure(_ code: Int32) -> Failure {
        code == ENOENT || code == ENOTDIR || code == EOPNOTSUPP ? .missing : .failed(message(code))
    }
}
