#if Watch
    extension WatchLoop {
        /// A `MOVED_FROM` whose `MOVED_TO` never came: moved out of the tree (or to an ignored name).
        func movedOut(_ move: PendingMove, at now: ContinuousClock.Instant) {
            guard let entry = move.entry else { return }
            if let node = entry.directory { forget(node) }
            coalescer.removed(move.from, isDirectory: entry.stamp.isDirectory, existedBefore: true, at: now)
        }

        /// A directory node leaves the tree: its watches and its `.gitignore` rules go.
        func forget(_ node: DirectoryNode) {
            if let rootIndex = rootIndex(of: node) { roots[rootIndex].matcher.forget(directory: node.relativePath) }
            forgetWatches(below: node)
        }

        /// A root directory was deleted, moved away or cannot be listed: its tree is forgotten and reported removed.
        func rootVanished(_ rootIndex: Int, at now: ContinuousClock.Instant) {
            let root = roots[rootIndex]
            if let fileNames = root.fileNames {
                for name in fileNames where root.node.entries[name] != nil {
                    coalescer.removed(
                        WatchPaths.join(WatchPaths.bytes(root.path), name), isDirectory: false, existedBefore: true,
                        at: now)
                }
            } else if !root.node.entries.isEmpty || root.node.watch >= 0 {
                coalescer.removed(WatchPaths.bytes(root.path), isDirectory: true, existedBefore: true, at: now)
            }
            forgetWatches(below: root.node)
            root.node.entries.removeAll()
        }
    }

    #if os(Linux)
        extension WatchLoop {
            /// Reads and handles everything the kernel queued.
            func readKernelEvents() {
                guard let inotify else { return }
                while let (events, more) = inotify.read() {
                    let now = ContinuousClock.now
                    for event in events { handle(event, at: now) }
                    if !more { return }  // the queue was emptied: poll says when more comes
                }
            }

            /// One kernel event: the tree is updated and the change recorded.
            func handle(_ event: InotifyEvent, at now: ContinuousClock.Instant) {
                if event.has(Inotify.queueOverflow) {
                    overflowed = true
                    return
                }
                guard let directory = nodesByWatch[event.watch] else { return }  // a watch already forgotten
                if event.has(Inotify.ignored) {
                    nodesByWatch.removeValue(forKey: event.watch)
                    directory.watch = -1
                    session.watchesChanged(by: -1)
                    return
                }
                guard let rootIndex = rootIndex(of: directory) else { return }
                if event.has(Inotify.deleteSelf) || event.has(Inotify.moveSelf) {
                    if directory.parent == nil { rootVanished(rootIndex, at: now) }
                    return  // otherwise its parent reports it
                }
                // Events about the watched directory itself (its attributes: chmod, touch) are reported by its
                // parent's watch, as an entry of the parent.
                guard !event.name.isEmpty else { return }
                let isDirectory = event.has(Inotify.isDirectory)
                let name = event.name
                if event.has(Inotify.movedTo), let move = pendingMoves.removeValue(forKey: event.cookie) {
                    movedIn(move, to: name, in: directory, isDirectory: isDirectory, rootIndex: rootIndex, at: now)
                    return
                }
                if isExcluded(name, in: directory, rootIndex: rootIndex, isDirectory: isDirectory) { return }
                // A name renamed away earlier and now reused: the rename went out of the tree.
                expireMoves(from: name, in: directory, at: now)
                if name == Self.gitignoreName { reloadGitignore(of: directory, rootIndex: rootIndex) }
                let path = WatchPaths.join(directory.path, name)
                let existed = directory.entries[name] != nil
                if event.has(Inotify.movedFrom) {
                    let entry = directory.entries.removeValue(forKey: name)
                    if let node = entry?.directory {
                        // Its `.gitignore` rules are keyed by where it was: read again where it lands.
                        roots[rootIndex].matcher.forget(directory: node.relativePath)
                    }
                    pendingMoves[event.cookie] = PendingMove(
                        from: path, directory: directory, name: name, entry: entry, deadline: now + pairingWindow)
                } else if event.has(Inotify.create) || event.has(Inotify.movedTo) {
                    appeared(name, in: directory, path: path, isDirectory: isDirectory, rootIndex: rootIndex, at: now)
                } else if event.has(Inotify.delete) {
                    if let node = directory.entries.removeValue(forKey: name)?.directory { forget(node) }
                    coalescer.removed(path, isDirectory: isDirectory, existedBefore: existed, at: now)
                } else {
                    if !existed, let stamp = DirectoryScanner.stamp(path) {
                        directory.entries[name] = DirectoryNode.Entry(stamp: stamp, directory: nil)
                    }
                    markDirty(name, in: directory)
                    coalescer.modified(path, isDirectory: isDirectory, existedBefore: existed, at: now)
                }
            }

            static let gitignoreName = Array(".gitignore".utf8)

            /// Settles pending moves away from `name` in `directory` as moves out of the tree.
            private func expireMoves(from name: [UInt8], in directory: DirectoryNode, at now: ContinuousClock.Instant) {
                guard !pendingMoves.isEmpty else { return }
                for (cookie, move) in pendingMoves where move.directory === directory && move.name == name {
                    pendingMoves.removeValue(forKey: cookie)
                    movedOut(move, at: now)
                }
            }

            /// A `.gitignore` changed: its rules are read again for what is found from now on.
            private func reloadGitignore(of directory: DirectoryNode, rootIndex: Int) {
                guard options.ignore.gitignore else { return }
                let relative = directory.relativePath
                roots[rootIndex].matcher.forget(directory: relative)
                for node in directory.subtree() {
                    roots[rootIndex].matcher.enter(
                        directory: node.relativePath, absoluteDirectory: WatchPaths.filePath(node.path))
                }
            }

            /// A new entry (created, or moved in from outside): a directory is watched, then walked, and what it
            /// holds is reported too. An entry the tree already has as it is (found by the walk of its new parent
            /// before its own event came) stays as it is.
            private func appeared(
                _ name: [UInt8], in directory: DirectoryNode, path: [UInt8], isDirectory: Bool, rootIndex: Int,
                at now: ContinuousClock.Instant
            ) {
                let old = directory.entries[name]
                guard let stamp = DirectoryScanner.stamp(path) else {
                    // Gone again already (its removal or rename is queued after this event): it is reported
                    // created, so the tree holds it until that event says where it went.
                    if let node = old?.directory { forget(node) }
                    let kind: EntryStamp.Kind = isDirectory ? .directory : .file
                    directory.entries[name] = DirectoryNode.Entry(
                        stamp: EntryStamp(kind: kind, inode: 0, size: 0, modified: 0), directory: nil)
                    coalescer.created(path, isDirectory: isDirectory, existedBefore: old != nil, at: now)
                    return
                }
                if let old, old.stamp.inode == stamp.inode, old.stamp.kind == stamp.kind, stamp.inode != 0 { return }
                if let node = old?.directory { forget(node) }
                var entry = DirectoryNode.Entry(stamp: stamp, directory: nil)
                if stamp.isDirectory && options.recursive && roots[rootIndex].fileNames == nil {
                    entry.directory = DirectoryNode(name: name, parent: directory)
                }
                directory.entries[name] = entry
                coalescer.created(path, isDirectory: stamp.isDirectory, existedBefore: old != nil, at: now)
                if let child = entry.directory { walk(child, rootIndex: rootIndex, report: true, at: now) }
            }

            /// A `MOVED_TO` paired with its `MOVED_FROM`.
            private func movedIn(
                _ move: PendingMove, to name: [UInt8], in directory: DirectoryNode, isDirectory: Bool, rootIndex: Int,
                at now: ContinuousClock.Instant
            ) {
                let path = WatchPaths.join(directory.path, name)
                if isExcluded(name, in: directory, rootIndex: rootIndex, isDirectory: isDirectory) {
                    movedOut(move, at: now)  // renamed to a name not watched
                    return
                }
                expireMoves(from: name, in: directory, at: now)
                guard var entry = move.entry else {
                    // Renamed from a name not watched (a temporary file, an ignored name): it appears.
                    appeared(name, in: directory, path: path, isDirectory: isDirectory, rootIndex: rootIndex, at: now)
                    return
                }
                let existed = directory.entries[name] != nil
                if let old = directory.entries[name]?.directory { forget(old) }
                if let node = entry.directory {
                    node.name = name
                    node.parent = directory
                    if options.ignore.gitignore { reloadGitignore(of: node, rootIndex: rootIndex) }
                } else if entry.stamp.isDirectory && options.recursive && roots[rootIndex].fileNames == nil {
                    entry.directory = DirectoryNode(name: name, parent: directory)
                }
                directory.entries[name] = entry
                markDirty(name, in: directory)
                coalescer.moved(
                    from: move.from, to: path, isDirectory: isDirectory, fromExistedBefore: true,
                    toExistedBefore: existed, at: now)
                if let node = entry.directory, node.watch < 0 {
                    walk(node, rootIndex: rootIndex, report: true, at: now)
                }
            }
        }
    #endif
#endif
