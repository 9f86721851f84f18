#if Watch && os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// One raw inotify event.
    struct InotifyEvent {
        var watch: Int32
        var mask: UInt32
        var cookie: UInt32
        /// The entry's name in the watched directory (empty for events about the directory itself).
        var name: [UInt8]

        func has(_ flag: UInt32) -> Bool { mask & flag != 0 }
    }

    /// An inotify instance: watches added and removed, events read without blocking. Owned by the watcher's
    /// thread.
    final class Inotify {
        // The kernel's ABI (<sys/inotify.h>), spelled out so that their types are UInt32 everywhere.
        static let modify: UInt32 = 0x0000_0002
        static let attributes: UInt32 = 0x0000_0004
        static let closeWrite: UInt32 = 0x0000_0008
        static let movedFrom: UInt32 = 0x0000_0040
        static let movedTo: UInt32 = 0x0000_0080
        static let create: UInt32 = 0x0000_0100
        static let delete: UInt32 = 0x0000_0200
        static let deleteSelf: UInt32 = 0x0000_0400
        static let moveSelf: UInt32 = 0x0000_0800
        static let queueOverflow: UInt32 = 0x0000_4000
        static let ignored: UInt32 = 0x0000_8000
        static let onlyDirectory: UInt32 = 0x0100_0000
        static let dontFollow: UInt32 = 0x0200_0000
        static let excludeUnlinked: UInt32 = 0x0400_0000
        static let isDirectory: UInt32 = 0x4000_0000

        /// What a watched directory reports.
        static let directoryMask: UInt32 =
            modify | attributes | closeWrite | movedFrom | movedTo | create | delete | deleteSelf | moveSelf
            | onlyDirectory | dontFollow | excludeUnlinked

        let descriptor: Int32
        private var buffer: [UInt8]

        /// - Throws: the `errno` of `inotify_init1` (`EMFILE`: the per-user instance limit).
        init() throws(ScanError) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            guard descriptor >= 0 else { throw ScanError(errno: errno) }
            self.descriptor = descriptor
            buffer = [UInt8](repeating: 0, count: 256 * 1024)
        }

        deinit { close(descriptor) }

        /// Watches the directory at `path`: its watch descriptor, or the `errno` (`ENOSPC`: the per-user watch
        /// limit; `ENOENT`/`ENOTDIR`: gone or replaced meanwhile).
        /// `followingLinks`: for a root given as a symbolic link to a directory (below a root, links are entries,
        /// never followed).
        func addWatch(_ path: [UInt8], followingLinks: Bool = false) -> Result<Int32, ScanError> {
            let mask = followingLinks ? Self.directoryMask & ~Self.dontFollow : Self.directoryMask
            let watch = WatchPaths.withCString(path) { inotify_add_watch(descriptor, $0, mask) }
            return watch >= 0 ? .success(watch) : .failure(ScanError(errno: errno))
        }

        func removeWatch(_ watch: Int32) { _ = inotify_rm_watch(descriptor, watch) }

        /// Reads what the kernel has queued, without blocking: the events (nil when nothing was queued), and
        /// whether more may be queued (the read filled most of the buffer).
        func read() -> (events: [InotifyEvent], more: Bool)? {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            return (Self.parse(buffer, count: count), count > buffer.count - 4096)
        }

        /// Parses `count` bytes of `struct inotify_event` records.
        static func parse(_ bytes: [UInt8], count: Int) -> [InotifyEvent] {
            var events: [InotifyEvent] = []
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset + 16 <= count {
                    let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let cookie = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let start = offset + 16
                    var end = start
                    while end < start + length && raw[end] != 0 { end += 1 }
                    events.append(
                        InotifyEvent(watch: watch, mask: mask, cookie: cookie, name: Array(raw[start..<end])))
                    offset = start + length
                }
            }
            return events
        }
    }
#endif
