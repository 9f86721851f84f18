#if Watch
    /// What the watcher last saw of one entry: enough to tell, in a rescan, whether it changed.
    struct EntryStamp: Equatable {
        enum Kind: UInt8 { case file, directory, symbolicLink, other }

        var kind: Kind
        var inode: UInt64
        var size: Int64
        /// Modification time, nanoseconds since the epoch.
        var modified: Int64

        var isDirectory: Bool { kind == .directory }
    }

    /// One directory of the watched tree, as the watcher last saw it: its entries' stamps, its subdirectories'
    /// nodes, and its inotify watch. A node knows its name and parent, not its path: renaming a directory moves one
    /// node, and every path below follows. Owned by the watcher's thread (not thread-safe).
    final class DirectoryNode {
        struct Entry {
            var stamp: EntryStamp
            /// The subdirectory's node (nil for other kinds, or a directory not walked: ignored or not recursive).
            var directory: DirectoryNode?
        }

        /// The name in its parent (the absolute path's bytes for a root).
        var name: [UInt8]
        /// The parent; nil for a root.
        weak var parent: DirectoryNode?
        /// The inotify watch descriptor, or -1.
        var watch: Int32 = -1
        var entries: [[UInt8]: Entry] = [:]

        init(name: [UInt8], parent: DirectoryNode?) {
            self.name = name
            self.parent = parent
        }

        /// The absolute path. - Complexity: O(depth + path length).
        var path: [UInt8] {
            var components: [[UInt8]] = []
            var node: DirectoryNode? = self
            while let current = node {
                components.append(current.name)
                node = current.parent
            }
            var path = components.removeLast()
            for component in components.reversed() { path = WatchPaths.join(path, component) }
            return path
        }

        /// The path below the root (empty for the root), "/"-separated: what ignore rules match.
        var relativePath: [UInt8] {
            var components: [[UInt8]] = []
            var node: DirectoryNode? = self
            while let current = node, current.parent != nil {
                components.append(current.name)
                node = current.parent
            }
            var path: [UInt8] = []
            for component in components.reversed() {
                if !path.isEmpty { path.append(WatchPaths.slash) }
                path.append(contentsOf: component)
            }
            return path
        }

        /// `relativePath/name` below the root.
        func relativePath(of name: [UInt8]) -> [UInt8] {
            let base = relativePath
            return base.isEmpty ? name : WatchPaths.join(base, name)
        }

        /// Every directory node of this subtree, this one included (depth first).
        func subtree() -> [DirectoryNode] {
            var nodes: [DirectoryNode] = []
            var stack = [self]
            while let node = stack.popLast() {
                nodes.append(node)
                for entry in node.entries.values { if let directory = entry.directory { stack.append(directory) } }
            }
            return nodes
        }
    }
#endif
