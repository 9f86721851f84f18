#if Images
    import Switchyard
    import NIOConcurrencyHelpers

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Encoded thumbnails in a folder, within a size limit that holds after every write.
    ///
    /// - **Keys** name the source's identity (a file's path, size and modification time; the bytes' identity) and
    ///   the options (see ``ImagePipeline``). An entry is one file named by a hash of its key; it holds the whole
    ///   key, so two keys with one hash are told apart (the later write replaces the earlier entry).
    /// - **The limit** (``byteLimit``, the sum of the entries' file sizes) holds when ``store(_:forKey:)``
    ///   returns: it removes the least recently used entries first. Entries found in the folder at the first use
    ///   are counted then, oldest modification first (a folder over a lowered limit shrinks at once).
    /// - **Crashes**: an entry is written to a temporary file, then renamed; a checksum over the whole entry is
    ///   verified on every read, so a file torn by a crash or a power loss (without `fsync`, its bytes may not all
    ///   have reached the disk) is never served: it is removed, and the thumbnail made again. Temporary files
    ///   left by a crash are removed at the first use.
    /// - **Processes**: one process at a time owns the folder's bookkeeping. Another process's entries are
    ///   served when read (and counted from then on), but the limit is only this process's view.
    ///
    /// Blocking (file I/O): the pipeline calls it on its executor. Thread-safe.
    /// - Complexity: O(1) per read and write, plus the removals a write causes; O(entries) once, at the first use.
    public final class ThumbnailDiskCache: Sendable {
        /// The folder (created at the first use if missing).
        public let folder: String
        /// The most bytes the entries may take.
        public let byteLimit: Int
        /// Entry file name → size, least recently used first; evicting an entry removes its file.
        private let index: Cache<String, Int>
        private let opened = NIOLockedValueBox<Bool>(false)

        /// - Precondition: `byteLimit >= 0`.
        public init(folder: String, byteLimit: Int) {
            precondition(byteLimit >= 0, "ThumbnailDiskCache: byteLimit must be ≥ 0")
            self.folder = folder
            self.byteLimit = byteLimit
            index = Cache(
                name: "thumbnail files", costLimit: byteLimit, policy: .leastRecentlyUsed, cost: { $0 },
                memoryPressure: nil
            ) { [folder] removal in
                // A replaced entry's file was renamed over by its replacement: only the other reasons remove it.
                if removal.reason != .replaced { unlink(folder + "/" + removal.key) }
            }
        }

        /// The bytes the entries take, as this process counts them. - Complexity: O(1).
        public var totalBytes: Int {
            openIfNeeded()
            return index.totalCost
        }

        /// The thumbnail stored for `key`, if a whole entry is there. Blocking.
        public func thumbnail(forKey key: String) -> Thumbnail? {
            openIfNeeded()
            let name = Self.fileName(key)
            let path = folder + "/" + name
            guard let bytes = Self.readFile(path) else {
                index.removeValue(forKey: name)
                return nil
            }
            guard let thumbnail = ThumbnailEntry.decode(bytes, key: key) else {
                if ThumbnailEntry.isTorn(bytes) {  // torn or corrupt: never served, made again
                    index.removeValue(forKey: name)  // removes the file too, when the index counts it
                    unlink(path)
                }
                return nil
            }
            if index.value(forKey: name) == nil { index.setValue(bytes.count, forKey: name) }  // another process's
            return thumbnail
        }

        /// Stores `thumbnail` for `key`: written to a temporary file, renamed, then older entries removed until the
        /// total is within the limit. An entry larger than the limit is not stored. Blocking; failures (a full
        /// disk) are ignored: the cache only loses the entry.
        public func store(_ thumbnail: Thumbnail, forKey key: String) {
            openIfNeeded()
            let bytes = ThumbnailEntry.encode(thumbnail, key: key)
            guard bytes.count <= byteLimit else { return }
            let name = Self.fileName(key)
            let temporary = folder + "/.tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            guard Self.writeFile(temporary, bytes) else {
                unlink(temporary)
                return
            }
            guard rename(temporary, folder + "/" + name) == 0 else {
                unlink(temporary)
                return
            }
            index.setValue(bytes.count, forKey: name)
        }

        /// Removes every entry. Blocking.
        public func removeAll() {
            openIfNeeded()
            index.removeAll()
        }

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

        /// At the first use: creates the folder, removes crash leftovers, counts the entries, oldest first. Callers
        /// meanwhile wait for it (they need the count); it runs once per process and folder.
        private func openIfNeeded() {
            opened.withLockedValue { isOpen in
                guard !isOpen else { return }
                Self.makeFolders(folder)
                var entries: [(name: String, size: Int, modified: Int)] = []
                guard let directory = opendir(folder) else { return }  // tried again at the next use
                isOpen = true
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) {
                        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                    }
                    var status = stat()
                    guard stat(folder + "/" + name, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                        continue
                    }
                    if name.hasPrefix(".tmp-"), !Self.isRunning(temporaryName: name) {  // a crash's leftover
                        unlink(folder + "/" + name)
                    } else if name.hasSuffix(".thumb") {
                        entries.append((name, Int(status.st_size), Self.modificationTime(status).seconds))
                    }
                }
                closedir(directory)
                for entry in entries.sorted(by: { $0.modified < $1.modified }) {
                    index.setValue(entry.size, forKey: entry.name)
                }
            }
        }

        /// Creates `folder` and its missing parents.
        private static func makeFolders(_ folder: String) {
            var path = folder.hasPrefix("/") ? "" : "."
            for component in folder.split(separator: "/") {
                path += "/" + component
                mkdir(path, 0o755)  // an existing folder fails with EEXIST, which is what is wanted
            }
        }

        /// Whether the process that named a temporary file `.tmp-<pid>-…` still runs (its write may be under way).
        private static func isRunning(temporaryName name: String) -> Bool {
            let fields = name.split(separator: "-")
            guard fields.count >= 3, let pid = Int32(fields[1]) else { return false }
            return kill(pid, 0) == 0 || errno != ESRCH
        }

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

        private static func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var done = 0
            while done < bytes.count {
                let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
    }
#endif
