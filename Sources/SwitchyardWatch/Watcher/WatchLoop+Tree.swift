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

        /// Adds a watched path: a directory is walked; a file is watched through its directory. A path that a
        /// recursive root already covers (the same directory, or inside it) adds nothing; files of one directory
        /// share one root. A symbolic link given as a path is followed.
        func addRoot(_ path: FilePath) throws {
            let bytes = WatchPaths.bytes(path)
            guard let stamp = DirectoryScanner.stamp(followingLinks: bytes) else {
                throw FileWatcherError(path: path, errno: errno, reason: "no such file or directory")
            }
            let directoryPath = stamp.isDirectory ? path : path.removingLastComponent()
            if isCovered(directoryPath) { return }
            if stamp.isDirectory {
                let node = DirectoryNode(name: bytes, parent: nil)
                roots.append(Root(path: path, node: node, fileNames: nil, matcher: options.ignore.matcher()))
                walk(node, rootIndex: roots.count - 1, report: false, at: .now)
                return
            }
            guard let name = path.lastComponent else {
                throw FileWatcherError(path: path, errno: nil, reason: "not a file or directory")
            }
            let fileName = WatchPaths.bytes(FilePath(root: nil, [name]))
            let index: Int
            if let shared = roots.firstIndex(where: { $0.fileNames != nil && $0.path == directoryPath }) {
                index = shared
                roots[index].fileNames?.insert(fileName)
            } else {
                let node = DirectoryNode(name: WatchPaths.bytes(directoryPath), parent: nil)
                roots.append(
                    Root(path: directoryPath, node: node, fileNames: [fileName], matcher: IgnoreRules().matcher()))
                index = roots.count - 1
                watch(node, rootIndex: index)
            }
            roots[index].node.entries[fileName] = DirectoryNode.Entry(stamp: stamp, directory: nil)
        }

        /// Whether a directory root already reports what is directly in `directory`: it is that root, or inside a
        /// recursive one.
        private func isCovered(_ directory: FilePath) -> Bool {
            roots.contains { root in
                guard root.fileNames == nil else { return false }
                if root.path == directory { return true }
                return options.recursive && directory.starts(with: root.path)
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
            if let fileNames = root.fileNames { return !fileNames.contains(name) }
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
                switch inotify.addWatch(directory.path, followingLinks: directory.parent == nil) {
                case .success(let watch):
                    if let other = nodesByWatch[watch] {
                        guard other !== directory else { return }
                        // The kernel's watch of this directory is still held by a node the tree no longer uses
                        // there (renamed during an overflow, or moved out and back within the pairing window):
                        // it passes to the node that now stands for the directory.
                        other.watch = -1
                    } else {
                        session.watchesChanged(by: 1)
                    }
                    directory.watch = watch
                    nodesByWatch[watch] = directory
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
                guard case .success(let listing) = DirectoryScanner.list(path) else {
                    if directory === root.node { rootVanished(rootIndex, at: now) }
                    continue
                }
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
                    if stamp.isDirectory && root.fileNames == nil && options.recursive {
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
