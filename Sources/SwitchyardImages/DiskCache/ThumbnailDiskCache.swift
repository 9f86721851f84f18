#if Images
    import NIOConcurrencyHelpers
    import Switchyard
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Encoded thumbnails in a folder, within a size limit that holds after every write.
    ///
    /// - **Keys** name the source's identity (a file's path, size and modification time; the bytes' identity and
    ///   digest) and the options (see ``ImagePipeline``). An entry is one file named by a hash of its key; it holds
    ///   the whole key, so two keys with one hash are told apart (the later write replaces the earlier entry).
    /// - **The limit** (``byteLimit``, the sum of the counted entries' file sizes) holds when
    ///   ``store(_:forKey:)`` returns: it removes the least recently used entries first.
    /// - **Opening** never makes a caller wait. The cache starts scanning its folder when it is created, on a
    ///   thread of `BlockingExecutor.shared`, outside any lock: it creates the folder if missing, removes the
    ///   temporary files a crash left, and lists the entries with their sizes, then merges them into the count,
    ///   oldest modification first, as less recently used than every entry read or written meanwhile (a folder
    ///   over a lowered limit shrinks then). The merge takes slices of 1,024 entries, one short hold of the lock
    ///   each, releasing it between them: a read or a write waits for one slice at most. Until the last slice,
    ///   reads, writes and ``totalBytes`` go on: an entry is served as soon as its file is there, and the count
    ///   and the limit cover the entries read or written so far and the slices merged. ``waitUntilScanned()``
    ///   waits for the last slice.
    /// - **Crashes**: an entry is written to a temporary file, then renamed; a checksum over the whole entry is
    ///   verified on every read, so a file torn by a crash or a power loss (without `fsync`, its bytes may not all
    ///   have reached the disk) is never served: it is removed, and the thumbnail made again.
    /// - **Processes**: one process at a time owns the folder's bookkeeping. Another process's entries are
    ///   served when read (and counted from then on), but the limit is only this process's view.
    /// - **Races**: under concurrent writes of one key, an eviction may remove the file a concurrent write of that
    ///   key has just put in place; the entry is then counted without its file until its next read, which drops it
    ///   (a lost entry, never a wrong one).
    ///
    /// Blocking (file I/O): the pipeline calls it on its executor. Thread-safe: the bookkeeping sits behind a lock
    /// held O(1) per read, write or ``removeAll()``, never across I/O.
    /// - Complexity: reads and writes O(1) beside their file I/O, plus O(1) per entry a write removes; the scan
    ///   O(entries × log entries) on its own thread, and its merge O(1) per entry under the lock, in holds of one
    ///   slice (1,024 entries) each.
    public final class ThumbnailDiskCache: Sendable {
        /// The folder (created by the scan at open if missing).
        public let folder: String
        /// The most bytes the entries may take.
        public let byteLimit: Int
        /// The entries' names and sizes, least recently used first. Held O(1) per operation (amortized: its tables
        /// grow by doubling), plus O(1) per entry evicted, never across I/O: files are removed after it is released.
        /// The scan's merge holds it once to make room for its entries (O(entries counted so far)), then O(1,024)
        /// per slice.
        let index: NIOLockedValueBox<DiskCacheIndex>
        /// `index`'s total, stored under its lock after each change, for ``totalBytes`` to read without it.
        let countedBytes = Atomic<Int>(0)
        /// What waits for the scan at open to merge its last slice (tasks in ``waitUntilScanned()``, actions of
        /// ``whenScanned(_:)``), in the order it began waiting; nil once it has.
        let scanWaiters = NIOLockedValueBox<[@Sendable () -> Void]?>([])

        /// Creates the cache and starts the scan of `folder` (see the type's "Opening"); returns at once, without I/O.
        /// - Precondition: `byteLimit >= 0`.
        /// - Complexity: O(1).
        public init(folder: String, byteLimit: Int) {
            precondition(byteLimit >= 0, "ThumbnailDiskCache: byteLimit must be ≥ 0")
            self.folder = folder
            self.byteLimit = byteLimit
            index = NIOLockedValueBox(DiskCacheIndex(byteLimit: byteLimit))
            BlockingExecutor.shared.execute(priority: .utility) { [self] in scanAndMerge() }
        }

        /// The bytes the entries take, as this process counts them: before the scan at open has merged its last
        /// slice, the entries read or written so far and those of the slices merged. Never waits (not for the scan,
        /// nor for another operation).
        /// - Complexity: O(1).
        public var totalBytes: Int { countedBytes.load(ordering: .acquiring) }

        /// Returns once the scan at open has merged the folder's entries into the count: after its last slice (at
        /// once if it has). Waiting does not respond to cancellation; the scan ends whatever the folder holds.
        /// - Complexity: O(1) to start waiting.
        public func waitUntilScanned() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = scanWaiters.withLockedValue { waiters -> Bool in
                    guard waiters != nil else { return false }
                    waiters?.append { continuation.resume() }
                    return true
                }
                if !waits { continuation.resume() }
            }
        }

        /// Calls `action` once, when the scan at open has merged the folder's entries into the count: at once, on
        /// the calling thread, if it has; else on the scanning thread, right after the merge's last slice (outside
        /// the cache's locks). `action` must not block: it holds up the tasks waiting for the scan.
        /// - Complexity: O(1) to register.
        func whenScanned(_ action: @escaping @Sendable () -> Void) {
            let waits = scanWaiters.withLockedValue { waiters -> Bool in
                guard waiters != nil else { return false }
                waiters?.append(action)
                return true
            }
            if !waits { action() }
        }

        /// The number of entries counted (see ``totalBytes``). - Complexity: O(1), under the cache's lock.
        var entryCount: Int { index.withLockedValue { $0.count } }

        /// The thumbnail stored for `key`, if a whole entry is there; counts it as used. Blocking (reads the file),
        /// never waits for the scan at open.
        /// - Complexity: O(the entry's size) to read and check it, then O(1) under the lock.
        public func thumbnail(forKey key: String) -> Thumbnail? {
            let name = Self.fileName(key)
            let path = folder + "/" + name
            guard let bytes = Self.readFile(path) else {
                update { $0.remove(name) }  // a miss: uncounted, it leaves no trace (see DiskCacheIndex.remove)
                return nil
            }
            guard let thumbnail = ThumbnailEntry.decode(bytes, key: key) else {
                if ThumbnailEntry.isTorn(bytes) {  // torn or corrupt: never served, made again
                    update { $0.remove(name, removingFile: true) }
                    unlink(path)
                }
                return nil
            }
            // Counted from now on if it was not (another process's, or one the scan has not merged yet).
            removeFiles(update { $0.record(name, size: bytes.count) })
            return thumbnail
        }

        /// Stores `thumbnail` for `key`: written to a temporary file, renamed, then older entries removed until the
        /// total is within the limit. An entry larger than the limit is not stored. Blocking; failures (a full
        /// disk) are ignored: the cache only loses the entry.
        /// - Complexity: O(the entry's size) to write it, then O(1) under the lock, plus O(1) per entry removed.
        public func store(_ thumbnail: Thumbnail, forKey key: String) {
            let bytes = ThumbnailEntry.encode(thumbnail, key: key)
            guard bytes.count <= byteLimit else { return }
            let name = Self.fileName(key)
            let temporary = folder + "/.tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            var written = Self.writeFile(temporary, bytes)
            if !written && errno == ENOENT {  // before the scan at open has made the folder
                Self.makeFolders(folder)
                written = Self.writeFile(temporary, bytes)
            }
            guard written, rename(temporary, folder + "/" + name) == 0 else {
                unlink(temporary)
                return
            }
            removeFiles(update { $0.record(name, size: bytes.count) })
        }

        /// Removes every entry: those counted now, and (when the scan at open has not merged its last slice yet)
        /// those it has yet to merge. Blocking.
        /// - Complexity: O(1) under the lock (the index's storage is swapped out), then O(entries) outside it: the
        ///   names collected, one `unlink` each, the storage freed.
        public func removeAll() {
            let removed = update { $0.removeAll() }
            removeFiles(removed.names)
        }

        /// Runs `change` on the index under its lock and publishes the new total.
        @discardableResult
        func update<Result>(_ change: (inout DiskCacheIndex) -> Result) -> Result {
            index.withLockedValue { index in
                let result = change(&index)
                countedBytes.store(index.totalBytes, ordering: .releasing)
                return result
            }
        }

        /// Removes the entries' files named `names` (outside the lock).
        func removeFiles(_ names: [String]) {
            for name in names { unlink(folder + "/" + name) }
        }
    }
#endif
