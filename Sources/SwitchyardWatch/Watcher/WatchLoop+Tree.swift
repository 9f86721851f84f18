#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import SystemPackage

    extension WatchLoop {
        // MARK: Roots

        /// Adds a watched path: a directory is walked; a file is watched through its directory.
        func addRoot(_ path: FilePath) throws {
            let bytes = WatchPaths.bytes(path)
            guard let stamp = DirectoryScanner.stamp(bytes) else {
                throw FileWatcherError(path: path, errno: errno, reason: "no such file or directory")
            }
            let matcher = options.ignore.matcher()
            if stamp.isDirectory {
                let node = DirectoryNode(name: bytes, parent: nil)
                roots.append(Root(path: path, node: node, fileName: nil, matcher: matcher))
                walk(node, rootIndex: roots.count - 1, report: false, at: .now)
            } else {
                guard let name = path.lastComponent else {
                    throw FileWatcherError(path: path, errno: nil, reason: "not a file or directory")
                }
                let node = DirectoryNode(name: WatchPaths.bytes(path.removingLastComponent()), parent: nil)
                let fileName = WatchPaths.bytes(FilePath(root: nil, [name]))
                roots.append(Root(path: path, node: node, fileName: fileName, matcher: matcher))
                node.entries[fileName] = DirectoryNode.Entry(stamp: stamp, directory: nil)
                watch(node, rootIndex: roots.count - 1)
            }
        }

        /// The root whose tree holds `node`. - Complexity: O(depth + roots).
        func rootIndex(of node: DirectoryNode) -> Int? {
            var top = node
            while let parent = top.parent { top = parent }
            return roots.firstIndex { $0.node === top }
        }

        /// Whether `name` in `directory` is left out: another entry than a watched file's, or ignored.
        func isExcluded(_ name: [UInt8], in directory: DirectoryNode, rootIndex: Int, isDirectory: Bool) -> Bool {
            let root = roots[rootIndex]
            if let fileName = root.fileName { return name != fileName }
            guard !root.matcher.isEmpty else { return false }
            return root.matcher.isIgnored(relativePath: directory.relativePath(of: name), isDirectory: isDirectory)
        }

        // MARK: Walking

        /// Watches `start` and every directory below it, then lists them into the tree; with `report`, every entry
        /// found is a `created` change. A directory is watched before it is listed, so an entry created meanwhile is
        /// either listed or reported by the kernel (both: merged). - Complexity: O(entries below `start`).
        func walk(_ start: DirectoryNode, rootIndex: Int, report: Bool, at now: ContinuousClock.Instant) {
            let root = roots[rootIndex]
            var stack = [start]
            while let directory = stack.popLast() {
                watch(directory, rootIndex: rootIndex)
                let path = directory.path
                let relative = directory.relativePath
                root.matcher.enter(directory: relative, absoluteDirectory: WatchPaths.filePath(path))
                guard case .success(let listing) = DirectoryScanner.list(path) else { continue }
                directory.entries.reserveCapacity(listing.count)
                for (name, stamp) in listing where directory.entries[name] == nil {
                    if !root.matcher.isEmpty {
                        let below = relative.isEmpty ? name : WatchPaths.join(relative, name)
                        if root.matcher.isIgnored(relativePath: below, isDirectory: stamp.isDirectory) { continue }
                    }
                    var entry = DirectoryNode.Entry(stamp: stamp, directory: nil)
                    if stamp.isDirectory && options.recursive {
                        let child = DirectoryNode(name: name, parent: directory)
                        entry.directory = child
                        stack.append(child)
                    }
                    directory.entries[name] = entry
                    if report {
                        coalescer.created(
                            WatchPaths.join(path, name), isDirectory: stamp.isDirectory, existedBefore: false, at: now)
                    }
                }
            }
        }

        /// Adds the kernel watch of `directory` (inotify only). A limit reached is counted and reported.
        func watch(_ directory: DirectoryNode, rootIndex: Int) {
            #if os(Linux)
                guard let inotify, directory.watch < 0 else { return }
                if let limit = options.simulatedWatchLimit, nodesByWatch.count >= limit {
                    unwatchedDirectory(directory)
                    return
                }
                switch inotify.addWatch(directory.path) {
                case .success(let watch):
                    if let other = nodesByWatch[watch], other !== directory {
                        // The same directory reached twice (a bind mount, or overlapping roots): one node reports.
                        return
                    }
                    directory.watch = watch
                    nodesByWatch[watch] = directory
                    session.watchesChanged(by: 1)
                case .failure(let error) where error.errno == ENOSPC:
                    unwatchedDirectory(directory)
                case .failure:
                    break  // gone or replaced meanwhile: its parent's events say so
                }
            #endif
        }

        private func unwatchedDirectory(_ directory: DirectoryNode) {
            unwatched += 1
            limitReport = WatchLimitReport(
                limit: .watches, unwatchedDirectories: unwatched,
                firstUnwatched: limitReport?.firstUnwatched ?? WatchPaths.filePath(directory.path),
                currentValue: Self.readLimit("max_user_watches"))
        }

        /// Releases the watches of `node`'s subtree (it was removed, or moved out of the tree).
        func forgetWatches(below node: DirectoryNode) {
            for directory in node.subtree() where directory.watch >= 0 {
                #if os(Linux)
                    inotify?.removeWatch(directory.watch)
                #endif
                nodesByWatch.removeValue(forKey: directory.watch)
                directory.watch = -1
                session.watchesChanged(by: -1)
            }
        }

        // MARK: Rescanning

        /// Compares a root's tree with the disk and reports the differences (created, modified: stamp changed,
        /// removed), watching new directories and retrying directories a limit left unwatched.
        /// - Complexity: O(entries of the root).
        func rescan(rootIndex: Int) {
            let root = roots[rootIndex]
            let now = ContinuousClock.now
            var stack = [root.node]
            while let directory = stack.popLast() {
                if directory.watch < 0 { watch(directory, rootIndex: rootIndex) }
                let path = directory.path
                guard case .success(let listing) = DirectoryScanner.list(path) else { continue }
                var seen = Set<[UInt8]>(minimumCapacity: listing.count)
                for (name, stamp) in listing {
                    if isExcluded(name, in: directory, rootIndex: rootIndex, isDirectory: stamp.isDirectory) {
                        continue
                    }
                    seen.insert(name)
                    let full = WatchPaths.join(path, name)
                    if let old = directory.entries[name], old.stamp.kind == stamp.kind, old.stamp.inode == stamp.inode {
                        if let child = old.directory {
                            stack.append(child)
                        } else if old.stamp != stamp {
                            coalescer.modified(full, isDirectory: false, existedBefore: true, at: now)
                        }
                        directory.entries[name]?.stamp = stamp
                        continue
                    }
                    let existed = directory.entries[name] != nil
                    if let old = directory.entries[name]?.directory { forgetWatches(below: old) }
                    var entry = DirectoryNode.Entry(stamp: stamp, directory: nil)
                    if stamp.isDirectory && root.fileName == nil && options.recursive {
                        entry.directory = DirectoryNode(name: name, parent: directory)
                    }
                    directory.entries[name] = entry
                    coalescer.created(full, isDirectory: stamp.isDirectory, existedBefore: existed, at: now)
                    if let child = entry.directory { walk(child, rootIndex: rootIndex, report: true, at: now) }
                }
                for (name, entry) in directory.entries where !seen.contains(name) {
                    if let child = entry.directory { forgetWatches(below: child) }
                    directory.entries.removeValue(forKey: name)
                    coalescer.removed(
                        WatchPaths.join(path, name), isDirectory: entry.stamp.isDirectory, existedBefore: true, at: now)
                }
            }
        }
    }
#endif
