#if Images
    import NIOConcurrencyHelpers

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The scan at open: run once, on a thread of `BlockingExecutor.shared`, without the cache's lock.
    extension ThumbnailDiskCache {
        /// Creates the folder, removes crash leftovers, lists the entries with their sizes and sorts them oldest
        /// modification first, all outside the lock; then makes room in the index for those that can stay within
        /// the limit (one hold of the lock) and merges them in slices of ``DiskCacheIndex/mergeSliceLength``, oldest
        /// first, one hold of the lock each, removing the files each slice evicts before the next; after the last
        /// slice, resumes what waits for the scan (tasks, and ``whenScanned(_:)``'s actions, in the order they began
        /// waiting). A folder that cannot be listed (no permission) gives an empty list: its entries are then counted
        /// as they are read.
        /// - Complexity: O(entries × log entries) outside the lock; under it, O(entries read or written meanwhile)
        ///   once, to make room, then O(``DiskCacheIndex/mergeSliceLength``) per slice, each plus O(1) per entry
        ///   evicted.
        func scanAndMerge() {
            Self.makeFolders(folder)
            var found: [(name: String, size: Int, modified: (seconds: Int, nanoseconds: Int))] = []
            if let directory = opendir(folder) {
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
                        found.append((name, Int(status.st_size), Self.modificationTime(status)))
                        #if SWITCHYARD_TEST_HOOKS
                            Self.reportScan(of: folder, .listed(found.count))
                        #endif
                    }
                }
                closedir(directory)
            }
            found.sort {
                ($0.modified.seconds, $0.modified.nanoseconds) < ($1.modified.seconds, $1.modified.nanoseconds)
            }
            let scanned = found.map { (name: $0.name, size: $0.size) }
            // The newest entries that fit within the limit: at most as many as the merge leaves counted.
            var (fitting, fittingBytes) = (0, 0)
            for entry in scanned.reversed() {
                fittingBytes += entry.size
                guard fittingBytes <= byteLimit else { break }
                fitting += 1
            }
            update { $0.reserveCapacity(adding: fitting) }
            var start = scanned.startIndex
            repeat {  // once at least: the last slice ends the scan's bookkeeping, even for an empty list
                let end = Swift.min(start + DiskCacheIndex.mergeSliceLength, scanned.endIndex)
                let merged = update { $0.mergeScan(scanned[start..<end], isLast: end == scanned.endIndex) }
                removeFiles(merged.namesToRemove)  // then frees what the slice retired, outside the lock too
                start = end
                #if SWITCHYARD_TEST_HOOKS
                    if start < scanned.endIndex {
                        Self.reportScan(of: folder, .mergedSlices(start / DiskCacheIndex.mergeSliceLength))
                    }
                #endif
            } while start < scanned.endIndex
            let waiters = scanWaiters.withLockedValue { waiters in
                defer { waiters = nil }
                return waiters ?? []
            }
            for waiter in waiters { waiter() }
            #if SWITCHYARD_TEST_HOOKS
                Self.reportScan(of: folder, .merged)
            #endif
        }

        #if SWITCHYARD_TEST_HOOKS
            /// A step of the scan at open, as its test hook sees it.
            enum ScanEvent: Sendable, Equatable {
                /// The scan has listed this many entries; the observer may block the scan here.
                case listed(Int)
                /// The merge has merged this many slices, more are to come, and the lock is free; the observer may
                /// block the scan here, between two slices.
                case mergedSlices(Int)
                /// The scan has merged its last slice and resumed the tasks waiting for it.
                case merged
            }

            /// Test hook (debug builds only): observers of the scans at open, by folder (as given to the cache), called
            /// on the scanning thread after each entry listed, between two slices of the merge, and once merged. An
            /// observer that blocks holds the scan (never the cache's lock). Register before creating the cache;
            /// remove when done.
            static let scanObservers = NIOLockedValueBox<[String: @Sendable (ScanEvent) -> Void]>([:])

            private static func reportScan(of folder: String, _ event: ScanEvent) {
                scanObservers.withLockedValue { $0[folder] }?(event)
            }
        #endif
    }
#endif
