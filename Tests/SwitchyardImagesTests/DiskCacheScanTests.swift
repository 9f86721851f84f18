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

        @Test("with the scan of 2,000 entries held mid-way, a lookup, a write and totalBytes end; the merge counts all")
        func scanDoesNotBlock() async {
            await withFolder { folder in
                let count = 2_000
                for index in 0..<count { Self.writeEntry(Self.thumbnail, key: "k\(index)", in: folder) }
                let scan = ScanGate(holdingAt: count / 2)
                ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = scan.observe }
                defer { ThumbnailDiskCache.scanObservers.withLockedValue { $0[folder] = nil } }
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 64 << 20)
                await scan.held.fulfillment(within: .seconds(30))
                // On another thread, while the scan waits in its hook: each call must end without it.
                let ended = CallbackExpectation("a lookup, a write and totalBytes end while the scan is held")
                let probe = Task.detached { () -> (Thumbnail?, Int) in
                    let found = cache.thumbnail(forKey: "k7")
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
                #expect(total == Self.entrySize(key: "k7") + Self.entrySize(key: "new"))
                await cache.waitUntilScanned()
                #expect(cache.index.withLockedValue { $0.count } == count + 1)
                #expect(cache.totalBytes == DiskCacheTests.bytesOnDisk(folder))
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
                let scan = ScanGate(holdingAt: 5)
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
                let scan = ScanGate(holdingAt: 3)
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

        // MARK: helpers

        /// Writes `thumbnail`'s entry for `key` into `folder` as the cache would, modified at `modified` (seconds
        /// since 1970) when given.
        static func writeEntry(_ thumbnail: Thumbnail, key: String, in folder: String, modified: Int? = nil) {
            let path = folder + "/" + ThumbnailDiskCache.fileName(key)
            DiskCacheTests.write(path, ThumbnailEntry.encode(thumbnail, key: key))
            guard let modified else { return }
            var times = [timeval(tv_sec: modified, tv_usec: 0), timeval(tv_sec: modified, tv_usec: 0)]
            utimes(path, &times)
        }

        /// The size of ``thumbnail``'s entry file for `key`.
        static func entrySize(key: String) -> Int { ThumbnailEntry.encode(thumbnail, key: key).count }
    }

    /// Holds a scan at open when it has listed a given number of entries, until ``release()``.
    private final class ScanGate: Sendable {
        /// Fulfilled when the scan reaches the hold.
        let held = CallbackExpectation("the scan is held mid-way")
        private let holdAt: Int
        private let released = ConditionLock(value: false)

        init(holdingAt count: Int) { holdAt = count }

        /// The observer to register for the cache's folder (``ThumbnailDiskCache/scanObservers``).
        var observe: @Sendable (ThumbnailDiskCache.ScanEvent) -> Void {
            { [self] event in
                guard event == .listed(holdAt) else { return }
                held.fulfill()
                // On the scan's thread; bounded, so that a failed test does not hang the run.
                if released.lock(whenValue: true, timeoutSeconds: 60) { released.unlock() }
            }
        }

        func release() {
            released.lock()
            released.unlock(withValue: true)
        }
    }
#endif
