#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A pipe that wakes the watcher's thread from `poll`: written by any thread (``wake()`` is async-signal-safe
    /// and never blocks: a full pipe already holds a wake-up), drained by the watcher's thread.
    final class WakePipe: Sendable {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws(ScanError) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw ScanError(errno: errno) }
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }

        func wake() {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }

        func drain() {
            var bytes = [UInt8](repeating: 0, count: 64)
            while bytes.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
        }
    }
#endif
