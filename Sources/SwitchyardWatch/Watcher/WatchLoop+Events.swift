#if Watch
    extension WatchLoop {
        /// A `MOVED_FROM` whose `MOVED_TO` never came: moved out of the tree (or to an ignored name).
        func movedOut(_ move: PendingMove, at now: ContinuousClock.Instant) {
            guard let entry = move.entry else { return }
            if let node = entry.directory { forgetWatches(below: node) }
            coalescer.removed(move.from, isDirectory: entry.stamp.isDirectory, existedBefore: true, at: now)
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
                let isDirectory = event.has(Inotify.isDirectory)
                let name = event.name
                if event.has(Inotify.movedTo), let move = pendingMoves.removeValue(forKey: event.cookie) {
                    movedIn(move, to: name, in: directory, rootIndex: rootIndex, at: now)
                    return
                }
                if isExcluded(name, in: directory, rootIndex: rootIndex, isDirectory: isDirectory) { return }
                let path = WatchPaths.join(directory.path, name)
                let existed = directory.entries[name] != nil
                if event.has(Inotify.movedFrom) {
                    let entry = directory.entries.removeValue(forKey: name)
                    pendingMoves[event.cookie] = PendingMove(
                        from: path, directory: directory, name: name, entry: entry, deadline: now + pairingWindow)
                } else if event.has(Inotify.create) || event.has(Inotify.movedTo) {
                    appeared(name, in: directory, path: path, isDirectory: isDirectory, rootIndex: rootIndex, at: now)
                } else if event.has(Inotify.delete) {
                    if let node = directory.entries.removeValue(forKey: name)?.directory { forgetWatches(below: node) }
                    coalescer.removed(path, isDirectory: isDirectory, existedBefore: existed, at: now)
                } else {
                    if !existed, let stamp = DirectoryScanner.stamp(path) {
                        directory.entries[name] = DirectoryNode.Entry(stamp: stamp, directory: nil)
                    }
                    dirty.append((directory, name))
                    coalescer.modified(path, isDirectory: isDirectory, existedBefore: existed, at: now)
                }
            }

            /// A new entry (created, or moved in from outside): a directory is watched, then walked, and what it
            /// holds is reported too.
            private func appeared(
                _ name: [UInt8], in directory: DirectoryNode, path: [UInt8], isDirectory: Bool, rootIndex: Int,
                at now: ContinuousClock.Instant
            ) {
                let existed = directory.entries[name] != nil
                if let old = directory.entries[name]?.directory { forgetWatches(below: old) }
                guard let stamp = DirectoryScanner.stamp(path) else {
                    // Gone again already (its removal or rename is queued after this event): it is reported
                    // created, so the tree holds it until that event says where it went.
                    let kind: EntryStamp.Kind = isDirectory ? .directory : .file
                    directory.entries[name] = DirectoryNode.Entry(
                        stamp: EntryStamp(kind: kind, inode: 0, size: 0, modified: 0), directory: nil)
                    coalescer.created(path, isDirectory: isDirectory, existedBefore: existed, at: now)
                    return
                }
                var entry = DirectoryNode.Entry(stamp: stamp, directory: nil)
                if stamp.isDirectory && options.recursive && roots[rootIndex].fileName == nil {
                    entry.directory = DirectoryNode(name: name, parent: directory)
                }
                directory.entries[name] = entry
                coalescer.created(path, isDirectory: stamp.isDirectory, existedBefore: existed, at: now)
                if let child = entry.directory { walk(child, rootIndex: rootIndex, report: true, at: now) }
            }

            /// A `MOVED_TO` paired with its `MOVED_FROM`.
            private func movedIn(
                _ move: PendingMove, to name: [UInt8], in directory: DirectoryNode, rootIndex: Int,
                at now: ContinuousClock.Instant
            ) {
                let isDirectory = move.entry?.stamp.isDirectory ?? false
                let path = WatchPaths.join(directory.path, name)
                if isExcluded(name, in: directory, rootIndex: rootIndex, isDirectory: isDirectory) {
                    movedOut(move, at: now)  // renamed to a name not watched
                    return
                }
                guard var entry = move.entry else {
                    // Renamed from a name not watched (a temporary file, an ignored name): it appears.
                    appeared(name, in: directory, path: path, isDirectory: isDirectory, rootIndex: rootIndex, at: now)
                    return
                }
                let existed = directory.entries[name] != nil
                if let old = directory.entries[name]?.directory { forgetWatches(below: old) }
                if let node = entry.directory {
                    node.name = name
                    node.parent = directory
                } else if entry.stamp.isDirectory && options.recursive && roots[rootIndex].fileName == nil {
                    entry.directory = DirectoryNode(name: name, parent: directory)
                }
                directory.entries[name] = entry
                dirty.append((directory, name))
                coalescer.moved(
                    from: move.from, to: path, isDirectory: isDirectory, fromExistedBefore: true,
                    toExistedBefore: existed, at: now)
                if let node = entry.directory, node.watch < 0 {
                    walk(node, rootIndex: rootIndex, report: true, at: now)
                }
            }

            /// A root directory was deleted or moved away: its tree is forgotten and reported removed.
            private func rootVanished(_ rootIndex: Int, at now: ContinuousClock.Instant) {
                let root = roots[rootIndex]
                if let fileName = root.fileName {
                    if root.node.entries[fileName] != nil {
                        coalescer.removed(
                            WatchPaths.bytes(root.path), isDirectory: false, existedBefore: true, at: now)
                    }
                } else {
                    coalescer.removed(WatchPaths.bytes(root.path), isDirectory: true, existedBefore: true, at: now)
                }
                for entry in root.node.entries.values { if let node = entry.directory { forgetWatches(below: node) } }
                root.node.entries.removeAll()
            }
        }
    #endif
#endif
