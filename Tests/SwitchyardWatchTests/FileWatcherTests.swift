#if Watch && os(Linux)
    import Dispatch
    import Glibc
    import SwitchyardTesting
    import SystemPackage
    import Testing

    @testable import SwitchyardWatch

    /// The watcher against real files in a temporary folder. No sleeps: each test waits for the events it
    /// expects, with a timeout.
    @Suite("FileWatcher")
    struct FileWatcherTests {
        let tree = TemporaryTree()
        let log = EventLog()

        func watcher(_ options: FileWatcher.Options = .init(quietWindow: .milliseconds(20))) async throws
            -> FileWatcher
        {
            try await FileWatcher(tree.root, options: options)
        }

        @Test("a file created, written, then removed: created, modified, removed")
        func everyKind() async throws {
            let watcher = try await watcher()
            defer { watcher.stop() }
            let file = tree.path("a.txt")
            tree.write("a.txt")
            await log.collect(from: watcher) { $0.contains(.created(file)) }
            tree.write("a.txt", "more")
            await log.collect(from: watcher) { $0.contains(.modified(file)) }
            tree.unlink("a.txt")
            let events = await log.collect(from: watcher) { $0.contains(.removed(file)) }
            #expect(events == [.created(file), .modified(file), .removed(file)])
        }

        @Test("mkdir -p of a deep tree, then a file at its bottom: every directory and the file are reported")
        func deepMkdir() async throws {
            let watcher = try await watcher()
            defer { watcher.stop() }
            var relative = ""
            var expected: Set<FilePath> = []
            for level in 0..<12 {
                relative += (relative.isEmpty ? "" : "/") + "d\(level)"
                tree.mkdir(relative)
                expected.insert(tree.path(relative))
            }
            tree.write(relative + "/f")
            expected.insert(tree.path(relative + "/f"))
            let wanted = expected
            let events = await log.collect(from: watcher) { wanted.isSubset(of: $0.createdPaths) }
            #expect(expected.isSubset(of: events.createdPaths))
            #expect(watcher.watchedDirectories == 13)
        }

        @Test("a clone-like burst (200 directories of 5 files, written at once) reports every file")
        func burst() async throws {
            let watcher = try await watcher()
            defer { watcher.stop() }
            var expected: Set<FilePath> = []
            for directory in 0..<200 {
                tree.mkdir("pkg\(directory)")
                for file in 0..<5 {
                    tree.write("pkg\(directory)/file\(file).swift")
                    expected.insert(tree.path("pkg\(directory)/file\(file).swift"))
                }
            }
            let wanted = expected
            let events = await log.collect(from: watcher) { wanted.isSubset(of: $0.createdPaths) }
            #expect(expected.isSubset(of: events.createdPaths))
        }

        @Test("renames within and across directories are one renamed event each")
        func renames() async throws {
            tree.mkdir("a")
            tree.mkdir("b")
            tree.write("a/one")
            let watcher = try await watcher()
            defer { watcher.stop() }
            tree.rename("a/one", "a/two")
            await log.collect(from: watcher) { $0.contains(.renamed(from: tree.path("a/one"), to: tree.path("a/two"))) }
            tree.rename("a/two", "b/three")
            await log.collect(from: watcher) {
                $0.contains(.renamed(from: tree.path("a/two"), to: tree.path("b/three")))
            }
        }

        @Test("a renamed directory: later events carry its new paths")
        func directoryRename() async throws {
            tree.mkdir("old")
            tree.mkdir("old/inner")
            let watcher = try await watcher()
            defer { watcher.stop() }
            tree.rename("old", "new")
            await log.collect(from: watcher) { $0.contains(.renamed(from: tree.path("old"), to: tree.path("new"))) }
            tree.write("new/inner/file")
            let events = await log.collect(from: watcher) { $0.contains(.created(tree.path("new/inner/file"))) }
            #expect(!events.contains { $0.path.string.contains("/old/") })
        }

        @Test("an editor's atomic save (write a temporary file, rename it over) is one modified event")
        func atomicSave() async throws {
            tree.write("main.swift", "old")
            let watcher = try await watcher()
            defer { watcher.stop() }
            tree.write(".main.swift.tmp", "new")
            tree.rename(".main.swift.tmp", "main.swift")
            let saved: Set<FileEvent> = [
                .modified(tree.path("main.swift")),
                .renamed(from: tree.path(".main.swift.tmp"), to: tree.path("main.swift")),
            ]
            let events = await log.collect(from: watcher) { !saved.isDisjoint(with: $0) }
            // A busy machine may deliver the temporary file's creation before the rename: then its rename is
            // reported too, and nothing claims that it still exists.
            if events.count > 1 {
                #expect(events.first == .created(tree.path(".main.swift.tmp")))
                #expect(events.contains(.renamed(from: tree.path(".main.swift.tmp"), to: tree.path("main.swift"))))
            } else {
                #expect(events == [.modified(tree.path("main.swift"))])
            }
        }

        @Test("a single file is followed across atomic saves and log rotation")
        func singleFile() async throws {
            tree.write("app.log", "1")
            tree.write("other", "1")
            let watcher = try await FileWatcher(tree.path("app.log"), options: .init(quietWindow: .milliseconds(20)))
            defer { watcher.stop() }
            tree.write("other", "2")
            tree.write("app.tmp", "2")
            tree.rename("app.tmp", "app.log")
            await log.collect(from: watcher) { $0.contains(.modified(tree.path("app.log"))) }
            log.clear()
            tree.rename("app.log", "app.log.1")
            tree.write("app.log", "3")
            let events = await log.collect(from: watcher) { !$0.isEmpty && $0.last?.path == tree.path("app.log") }
            #expect(events.allSatisfy { $0.path == tree.path("app.log") })
            tree.write("app.log", "4")
            await log.collect(from: watcher) { $0.last == .modified(tree.path("app.log")) }
        }

        @Test("names with #, spaces, a newline and invalid UTF-8 are reported as they are on disk")
        func unusualNames() async throws {
            let watcher = try await watcher()
            defer { watcher.stop() }
            let names: [[UInt8]] = [
                Array("x#1.txt".utf8), Array("with space".utf8), Array("new\nline".utf8), [0x66, 0xFF, 0xFE, 0x2E],
            ]
            let root = WatchPaths.bytes(tree.root)
            let expected = Set(names.map { WatchPaths.filePath(WatchPaths.join(root, $0)) })
            for path in expected { tree.write(path) }
            let wanted = expected
            let events = await log.collect(from: watcher) { wanted.isSubset(of: $0.createdPaths) }
            #expect(expected.isSubset(of: events.createdPaths))
        }

        @Test("ignore rules keep watches off ignored folders, and their changes unreported")
        func ignoreRules() async throws {
            tree.mkdir("node_modules")
            tree.mkdir("node_modules/dep")
            tree.mkdir("src")
            let options = FileWatcher.Options(
                quietWindow: .milliseconds(20), ignore: IgnoreRules(globs: ["node_modules/", "*.o"]))
            let watcher = try await watcher(options)
            defer { watcher.stop() }
            #expect(watcher.watchedDirectories == 2)  // the root and src
            tree.write("node_modules/dep/index.js")
            tree.write("src/main.o")
            tree.write("src/main.c")
            let events = await log.collect(from: watcher) { $0.contains(.created(tree.path("src/main.c"))) }
            #expect(events == [.created(tree.path("src/main.c"))])
        }

        @Test("onBatch without a delivery runs on the watcher's thread; with one, on its destination")
        func handlers() async throws {
            let inline = CallbackExpectation("a batch on the watcher's thread")
            let watcher = try await FileWatcher(tree.root, options: .init(quietWindow: .zero)) { batch in
                if batch.contains(.created(tree.path("a"))) { inline.fulfill() }
            }
            defer { watcher.stop() }
            var iterator = watcher.makeAsyncIterator()
            #expect(try await iterator.next() == nil)  // a watcher with a handler has no batches to iterate
            tree.write("a")
            await inline.fulfillment(within: .seconds(20))
            let queue = DispatchQueue(label: "switchyard.tests.watch-delivery")
            let delivered = CallbackExpectation("a batch on the delivery's queue")
            let queued = try await FileWatcher(tree.root, options: .init(quietWindow: .zero), delivery: .queue(queue)) {
                batch in
                dispatchPrecondition(condition: .onQueue(queue))
                if batch.contains(.created(tree.path("b"))) { delivered.fulfill() }
            }
            defer { queued.stop() }
            tree.write("b")
            await delivered.fulfillment(within: .seconds(20))
        }

        @Test("the polling backend reports what its rescans find: created, modified, removed")
        func polling() async throws {
            tree.write("a", "1")
            let options = FileWatcher.Options(
                quietWindow: .milliseconds(10), backend: .polling(interval: .milliseconds(50)))
            let watcher = try await watcher(options)
            defer { watcher.stop() }
            #expect(watcher.watchedDirectories == 0)
            tree.write("b")
            await log.collect(from: watcher) { $0.contains(.created(tree.path("b"))) }
            tree.write("a", "longer contents")
            await log.collect(from: watcher) { $0.contains(.modified(tree.path("a"))) }
            tree.unlink("b")
            await log.collect(from: watcher) { $0.contains(.removed(tree.path("b"))) }
        }

        @Test("a chmod or touch of a watched directory itself neither stops the watch nor invents a change")
        func directoryAttributes() async throws {
            tree.mkdir("sub")
            let options = FileWatcher.Options(quietWindow: .milliseconds(20), ignore: IgnoreRules(globs: ["*.o"]))
            let watcher = try await watcher(options)
            defer { watcher.stop() }
            _ = tree.root.withPlatformString { chmod($0, 0o750) }
            _ = tree.path("sub").withPlatformString { chmod($0, 0o750) }
            tree.write("sub/after")
            let events = await log.collect(from: watcher) { $0.contains(.created(tree.path("sub/after"))) }
            #expect(!events.contains(.created(tree.path("sub"))))
            #expect(events.allSatisfy { $0 == .created(tree.path("sub/after")) || $0 == .modified(tree.path("sub")) })
        }

        @Test("a root given as a symbolic link to a directory is followed")
        func symbolicLinkRoot() async throws {
            tree.mkdir("real")
            let link = tree.path("link")
            _ = tree.path("real").withPlatformString { target in link.withPlatformString { symlink(target, $0) } }
            let watcher = try await FileWatcher(link, options: .init(quietWindow: .milliseconds(20)))
            defer { watcher.stop() }
            #expect(watcher.watchedDirectories == 1)
            tree.write("real/file")
            await log.collect(from: watcher) { $0.contains(.created(link.appending("file"))) }
        }

        @Test("two files of one directory are both watched")
        func twoFiles() async throws {
            tree.write("a.txt")
            tree.write("b.txt")
            let watcher = try await FileWatcher(
                [tree.path("a.txt"), tree.path("b.txt")], options: .init(quietWindow: .milliseconds(20)))
            defer { watcher.stop() }
            #expect(watcher.watchedDirectories == 1)
            tree.write("c.txt", "not watched")
            tree.write("b.txt", "changed")
            tree.write("a.txt", "changed")
            let events = await log.collect(from: watcher) {
                $0.contains(.modified(tree.path("a.txt"))) && $0.contains(.modified(tree.path("b.txt")))
            }
            #expect(!events.contains { $0.path == tree.path("c.txt") })
        }

        @Test("an iterator keeps its watcher alive")
        func iteratorKeepsWatcher() async throws {
            var iterator = try await FileWatcher(tree.root, options: .init(quietWindow: .milliseconds(20)))
                .makeAsyncIterator()
            tree.write("kept")
            #expect(try await iterator.next() == [.created(tree.path("kept"))])
        }

        @Test("a missing path is an error")
        func missingPath() async {
            await #expect(throws: FileWatcherError.self) {
                _ = try await FileWatcher(tree.path("nope"))
            }
        }

        @Test("stop ends the iteration")
        func stopEnds() async throws {
            let watcher = try await watcher()
            watcher.stop()
            var iterator = watcher.makeAsyncIterator()
            #expect(try await iterator.next() == nil)
        }
    }
#endif
