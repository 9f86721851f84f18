// The tests hold the disk cache's scan at open through a test hook that exists in debug builds only.
#if Images && SWITCHYARD_TEST_HOOKS
    import NIOConcurrencyHelpers
    import SwitchyardTesting
    import Testing

    @testable import SwitchyardImages

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    @Suite("ThumbnailDiskCache: the scan at open runs beside reads and writes, never in front of them")
    struct DiskCacheScanTests {
        static let thumbnail = Thumbnail(bytes: [UInt8](repeating: 7, count: 100), format: .png, width: 1, height: 1)

        @Test("100,000 entries: with the scan held mid-way, a lookup, a write and totalBytes end; the merge counts all")
        func scanDoesNotBlock() async {
            await withFolder { folder in
                let count = 100_000
                #expect(Self.writeEntries(count, in: folder) == count)
                let scan = ScanGate(holdingAt: .listed(count / 2))
                defer { scan.release() }  // also when the test ends early
                ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = scan.observe }
                defer { ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = nil } }
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 64 << 20)
                await scan.held.fulfillment(within: .seconds(30))
                // On another thread, while the scan waits in its hook: each call must end without it.
                let ended = CallbackExpectation("a lookup, a write and totalBytes end while the scan is held")
                let probe = Task.detached { () -> (Thumbnail?, Int) in
                    let found = cache.thumbnail(forKey: Self.key(7))
                    cache.store(Self.thumbnail, forKey: "new")
                    let total = cache.totalBytes
                    ended.fulfill()
                    return (found, total)
                }
                await ended.fulfillment(within: .seconds(30))
                #expect(cache.index.withLockedValue { $0.isScanned } == false, "the scan was still held")
                scan.release()  // had a call waited for the scan, the test failed above; it ends now
                let (found, total) = await probe.value
                #expect(found == Self.thumbnail)
                // Only what was read or written is counted until the merge.
                #expect(total == Self.entrySize(key: Self.key(7)) + Self.entrySize(key: "new"))
                await cache.waitUntilScanned()
                #expect(cache.index.withLockedValue { $0.count } == count + 1)
                #expect(cache.totalBytes == DiskCacheTests.bytesOnDisk(folder))
            }
        }

        @Test("with the merge held between two slices, a lookup and a write end, and rank and evict as after one merge")
        func readsAndWritesBetweenSlices() async {
            await withFolder { folder in
                // Three slices: the oldest 1,024 entries, the next 1,024, then 10.
                let count = 2 * DiskCacheIndex.mergeSliceLength + 10
                #expect(Self.writeEntries(count, in: folder, modifiedFrom: 1_700_000_000) == count)
                let (newest, fresh) = (Self.key(count - 1), Self.key(999_999))
                let size = Self.entrySize(key: newest)
                #expect(Self.entrySize(key: Self.key(0)) == size && Self.entrySize(key: fresh) == size)
                let scan = ScanGate(holdingAt: .mergedSlices(1))
                defer { scan.release() }  // also when the test ends early
                ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = scan.observe }
                defer { ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = nil } }
                // Room for the first slice and one entry more.
                let limit = (DiskCacheIndex.mergeSliceLength + 1) * size
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: limit)
                await scan.held.fulfillment(within: .seconds(30))
                // The newest entry, not merged yet, is read; a write then evicts the oldest entry merged.
                let ended = CallbackExpectation("a lookup and a write end between two slices of the merge")
                let probe = Task.detached { () -> Thumbnail? in
                    let found = cache.thumbnail(forKey: newest)
                    cache.store(Self.thumbnail, forKey: fresh)
                    ended.fulfill()
                    return found
                }
                await ended.fulfillment(within: .seconds(30))
                let (scanned, counted) = cache.index.withLockedValue { ($0.isScanned, $0.count) }
                #expect(!scanned && counted == DiskCacheIndex.mergeSliceLength + 1, "the merge was still held")
                #expect(access(folder + "/" + ThumbnailDiskCache.fileName(Self.key(0)), F_OK) != 0, "evicted")
                scan.release()
                let found = await probe.value
                #expect(found == Self.thumbnail)
                await cache.waitUntilScanned()
                // As one merge would: the newest entries found that fit, oldest first, below the two used.
                let kept = (count - DiskCacheIndex.mergeSliceLength)..<(count - 1)
                let expected = kept.map { Self.key($0) } + [newest, fresh]
                #expect(cache.index.withLockedValue { $0.namesByRecency } == expected.map(ThumbnailDiskCache.fileName))
                #expect(cache.totalBytes == limit && DiskCacheTests.bytesOnDisk(folder) == limit)
            }
        }

        @Test("the merge ranks what the scan found, oldest first, below the entries used meanwhile, then evicts")
        func mergeOrder() async {
            await withFolder { folder in
                let keys = (0..<10).map { "k\($0)" }
                for (index, key) in keys.enumerated() {
                    Self.writeEntry(Self.thumbnail, key: key, in: folder, modified: 1_700_000_000 + index)
                }
                let size = Self.entrySize(key: "k0")
                #expect(keys.allSatisfy { Self.entrySize(key: $0) == size } && Self.entrySize(key: "kn") == size)
                let scan = ScanGate(holdingAt: .listed(5))
                defer { scan.release() }  // also when the test ends early
                ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = scan.observe }
                defer { ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = nil } }
                // Room for ten entries: the eleventh (a write during the scan) evicts the oldest one found.
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 10 * size)
                await scan.held.fulfillment(within: .seconds(30))
                #expect(cache.thumbnail(forKey: "k2") == Self.thumbnail)
                cache.store(Self.thumbnail, forKey: "kn")
                scan.release()
                await cache.waitUntilScanned()
                let expected = ["k1", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k2", "kn"]
                #expect(cache.index.withLockedValue { $0.namesByRecency } == expected.map(ThumbnailDiskCache.fileName))
                #expect(access(folder + "/" + ThumbnailDiskCache.fileName("k0"), F_OK) != 0, "k0 evicted")
                #expect(cache.totalBytes == 10 * size && DiskCacheTests.bytesOnDisk(folder) == 10 * size)
            }
        }

        @Test("removeAll during the scan also removes the entries the scan has yet to merge")
        func removeAllDuringScan() async {
            await withFolder { folder in
                for index in 0..<6 { Self.writeEntry(Self.thumbnail, key: "k\(index)", in: folder) }
                let scan = ScanGate(holdingAt: .listed(3))
                defer { scan.release() }  // also when the test ends early
                ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = scan.observe }
                defer { ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = nil } }
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 1 << 20)
                await scan.held.fulfillment(within: .seconds(30))
                #expect(cache.thumbnail(forKey: "k0") == Self.thumbnail)
                cache.removeAll()
                cache.store(Self.thumbnail, forKey: "after")
                scan.release()
                await cache.waitUntilScanned()
                #expect(DiskCacheTests.entries(folder) == [ThumbnailDiskCache.fileName("after")])
                #expect(cache.totalBytes == Self.entrySize(key: "after"))
                #expect(cache.thumbnail(forKey: "k5") == nil)
            }
        }

        @Test("removeAll between two slices of the merge removes the slices merged and those still to come")
        func removeAllBetweenSlices() async {
            await withFolder { folder in
                let count = DiskCacheIndex.mergeSliceLength + 5
                #expect(Self.writeEntries(count, in: folder) == count)
                let scan = ScanGate(holdingAt: .mergedSlices(1))
                defer { scan.release() }  // also when the test ends early
                ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = scan.observe }
                defer { ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = nil } }
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 1 << 20)
                await scan.held.fulfillment(within: .seconds(30))
                #expect(cache.index.withLockedValue { $0.count } == DiskCacheIndex.mergeSliceLength)
                cache.removeAll()
                #expect(cache.totalBytes == 0 && cache.index.withLockedValue { $0.count } == 0)
                cache.store(Self.thumbnail, forKey: "after")
                scan.release()
                await cache.waitUntilScanned()
                #expect(DiskCacheTests.entries(folder) == [ThumbnailDiskCache.fileName("after")])
                #expect(cache.totalBytes == Self.entrySize(key: "after"))
            }
        }

        @Test("10,000 lookups that miss during the scan leave nothing for its merge to keep; the merge counts all")
        func missesDuringScan() async {
            await withFolder { folder in
                for index in 0..<10 { Self.writeEntry(Self.thumbnail, key: "k\(index)", in: folder) }
                let scan = ScanGate(holdingAt: .listed(5))
                defer { scan.release() }  // also when the test ends early
                ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = scan.observe }
                defer { ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = nil } }
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 1 << 20)
                await scan.held.fulfillment(within: .seconds(30))
                let hits = (0..<10_000).filter { cache.thumbnail(forKey: "missing \($0)") != nil }
                #expect(hits.isEmpty)
                let (scanned, left) = cache.index.withLockedValue { ($0.isScanned, $0.removedDuringScanCount) }
                #expect(!scanned && left == 0, "a miss removes nothing")
                // A counted entry whose file goes is left out of the merge: the scan may have listed it.
                cache.store(Self.thumbnail, forKey: "gone")
                unlink(folder + "/" + ThumbnailDiskCache.fileName("gone"))
                #expect(cache.thumbnail(forKey: "gone") == nil)
                #expect(cache.index.withLockedValue { $0.removedDuringScanCount } == 1)
                scan.release()
                await cache.waitUntilScanned()
                let (counted, leftAfter) = cache.index.withLockedValue { ($0.count, $0.removedDuringScanCount) }
                #expect(counted == 10 && leftAfter == 0)
                #expect(cache.totalBytes == DiskCacheTests.bytesOnDisk(folder))
            }
        }

        // MARK: helpers

        /// Writes `thumbnail`'s entry for `key` into `folder` as the cache would, modified at `modified` (seconds
        /// since 1970) when given.
        static func writeEntry(_ thumbnail: Thumbnail, key: String, in folder: String, modified: Int? = nil) {
            let path = folder + "/" + ThumbnailDiskCache.fileName(key)
            DiskCacheTests.write(path, ThumbnailEntry.encode(thumbnail, key: key))
            if let modified { setModified(path, modified) }
        }

        /// The size of ``thumbnail``'s entry file for `key`.
        static func entrySize(key: String) -> Int { ThumbnailEntry.encode(thumbnail, key: key).count }

        /// The key of the `index`th entry ``writeEntries(_:in:modifiedFrom:)`` writes: `k` and six digits, so that
        /// every entry takes one size.
        static func key(_ index: Int) -> String {
            let digits = String(index)
            return "k" + String(repeating: "0", count: 6 - digits.count) + digits
        }

        /// Writes ``thumbnail``'s entries for `key(0)` to `key(count - 1)` into `folder`, as the cache would, fast:
        /// one buffer, encoded once, its key digits and checksum patched for each entry, then one `open`, `write`
        /// and `close` per file; the `index`th modified at `modifiedFrom + index` (seconds since 1970) when given,
        /// one `utimes` more. Returns the number of entries written whole.
        /// - Precondition: `count <= 1_000_000`.
        static func writeEntries(_ count: Int, in folder: String, modifiedFrom: Int? = nil) -> Int {
            var entry = ThumbnailEntry.encode(thumbnail, key: key(0))
            let digits = (ThumbnailEntry.magic.count + 4 + 1)..<(ThumbnailEntry.magic.count + 4 + 7)  // after "k"
            let checksum = (entry.count - 8)..<entry.count
            var written = 0
            for index in 0..<count {
                var rest = index
                for position in digits.reversed() {
                    entry[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                var hash = ThumbnailEntry.hashes(entry[..<checksum.lowerBound]).0
                for position in checksum {
                    entry[position] = UInt8(truncatingIfNeeded: hash)
                    hash >>= 8
                }
                let path = folder + "/" + ThumbnailDiskCache.fileName(key(index))
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { continue }
                let done = entry.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if close(descriptor) == 0 && done == entry.count { written += 1 }
                if let modifiedFrom { setModified(path, modifiedFrom + index) }
            }
            #expect(count == 0 || entry == ThumbnailEntry.encode(thumbnail, key: key(count - 1)), "patched as encoded")
            return written
        }

        /// Sets the modification (and access) time of the file at `path` to `seconds` since 1970.
        static func setModified(_ path: String, _ seconds: Int) {
            var times = [timeval(tv_sec: seconds, tv_usec: 0), timeval(tv_sec: seconds, tv_usec: 0)]
            utimes(path, &times)
        }
    }

    /// Holds a scan at open at a given step (its test hook's event), until ``release()``.
    private final class ScanGate: Sendable {
        /// Fulfilled when the scan reaches the hold.
        let held = CallbackExpectation("the scan is held")
        private let holdAt: ThumbnailDiskCache.ScanEvent
        private let released = ConditionLock(value: false)

        init(holdingAt event: ThumbnailDiskCache.ScanEvent) { holdAt = event }

        /// The observer to register for the cache's folder (``ThumbnailDiskCache/scanObservers``).
        var observe: @Sendable (ThumbnailDiskCache.ScanEvent) -> Void {
            { [self] event in
                guard event == holdAt else { return }
                held.fulfill()
                // On the scan's thread, outside the cache's lock. Each test also releases it when it ends; the
                // bound is a last resort, and generous, because under Thread Sanitizer beside the other
                // suites a test's task can resume tens of seconds after what it awaited happened, and a hold that
                // ends early lets the scan finish before the test looks.
                if released.lock(whenValue: true, timeoutSeconds: 600) { released.unlock() }
            }
        }

        func release() {
            released.lock()
            released.unlock(withValue: true)
        }
    }
#endif
