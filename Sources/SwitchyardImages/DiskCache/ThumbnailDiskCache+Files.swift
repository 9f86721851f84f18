#if Images
    import Switchyard

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The cache's files: names, whole reads and writes, the folder. Blocking, and never under the cache's lock.
    extension ThumbnailDiskCache {
        /// The entry file name for `key`: 32 hexadecimal digits (two 64-bit FNV-1a hashes), `.thumb`.
        static func fileName(_ key: String) -> String {
            let (first, second) = ThumbnailEntry.hashes(Array(key.utf8))
            return hex(first) + hex(second) + ".thumb"
        }

        private static func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }

        /// A file's modification time, seconds and nanoseconds.
        static func modificationTime(_ status: stat) -> (seconds: Int, nanoseconds: Int) {
            #if canImport(Darwin)
                return (Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec))
            #else
                return (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
            #endif
        }

        /// Creates `folder` and its missing parents.
        static func makeFolders(_ folder: String) {
            var path = folder.hasPrefix("/") ? "" : "."
            for component in folder.split(separator: "/") {
                path += "/" + component
                mkdir(path, 0o755)  // an existing folder fails with EEXIST, which is what is wanted
            }
        }

        /// Whether the process that named a temporary file `.tmp-<pid>-…` still runs (its write may be under way).
        static func isRunning(temporaryName name: String) -> Bool {
            let fields = name.split(separator: "-")
            guard fields.count >= 3, let pid = Int32(fields[1]) else { return false }
            return kill(pid, 0) == 0 || errno != ESRCH
        }

        /// The whole file at `path`, or nil if it cannot be read.
        static func readFile(_ path: String) -> [UInt8]? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
            var done = 0
            while done < bytes.count {
                let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, $0.count - done) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return nil }
                done += count
            }
            return bytes
        }

        /// Writes `bytes` to a new file at `path`; false on failure, with `errno` set by the call that failed.
        static func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return false }
            guard bytes.withUnsafeBytes({ FileWriting.writeAll($0, to: descriptor) }) == bytes.count else {
                let failure = errno
                close(descriptor)
                errno = failure
                return false
            }
            return close(descriptor) == 0
        }
    }
#endif
