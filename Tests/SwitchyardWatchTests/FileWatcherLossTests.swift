#if Watch && os(Linux) && SWITCHYARD_TEST_HOOKS
    import Glibc
    import SystemPackage
    import Testing

    @testable import SwitchyardWatch

    /// Never silent loss: an overflowing kernel queue and a watch limit are reported, and a rescan finds what
    /// the queue lost.
    @Suite("FileWatcher: overflow and limits")
    struct FileWatcherLossTests {
        let tree = TemporaryTree()
        let log = EventLog()

        @Test("an overflow (reading paused, 8,000 files: 24,000 events) reports rescanNeeded, then every file")
        func overflow() async throws {
            tree.mkdir("many")
            let watcher = try await FileWatcher(tree.root, options: .init(quietWindow: .milliseconds(20)))
            defer { watcher.stop() }
            watcher.pauseReadsForTesting(true)
            var expected: Set<FilePath> = []
            for index in 0..<8_000 {
                let path = tree.path("many/f\(index)")
                tree.write(path)
                expected.insert(path)
            }
            watcher.pauseReadsForTesting(false)
            let wanted = expected
            let events = await log.collect(from: watcher, within: .seconds(40)) {
                wanted.isSubset(of: $0.createdPaths)
            }
            let rescanned = events.contains(.rescanNeeded(tree.root))
            let missing = expected.subtracting(events.createdPaths).count
            #expect(rescanned)
            #expect(missing == 0)
        }

        @Test("an atomic save read in one go, after the temporary file is already gone, is one modified event")
        func atomicSaveReadLate() async throws {
            tree.write("main.swift", "old")
            let watcher = try await FileWatcher(tree.root, options: .init(quietWindow: .milliseconds(20)))
            defer { watcher.stop() }
            watcher.pauseReadsForTesting(true)
            tree.write(".main.swift.tmp", "new")
            tree.rename(".main.swift.tmp", "main.swift")
            watcher.pauseReadsForTesting(false)
            let events = await log.collect(from: watcher) { $0.contains(.modified(tree.path("main.swift"))) }
            #expect(events == [.modified(tree.path("main.swift"))])
        }

        @Test("a file created and renamed before its events are read is reported where it ended up")
        func createdThenRenamedReadLate() async throws {
            let watcher = try await FileWatcher(tree.root, options: .init(quietWindow: .milliseconds(20)))
            defer { watcher.stop() }
            watcher.pauseReadsForTesting(true)
            tree.write("draft")
            tree.rename("draft", "final")
            watcher.pauseReadsForTesting(false)
            let events = await log.collect(from: watcher) { $0.contains(.created(tree.path("final"))) }
            #expect(events == [.created(tree.path("final"))])
        }

        @Test("a file moved out of the tree and a new one made at its path: a change of that path")
        func rotatedOut() async throws {
            tree.write("app.log", "1")
            let elsewhere = TemporaryTree()
            let watcher = try await FileWatcher(tree.root, options: .init(quietWindow: .milliseconds(20)))
            defer { watcher.stop() }
            watcher.pauseReadsForTesting(true)
            let moved = tree.path("app.log").withPlatformString { source in
                elsewhere.path("app.log").withPlatformString { rename(source, $0) }
            }
            #expect(moved == 0)
            tree.write("app.log", "2")
            watcher.pauseReadsForTesting(false)
            let events = await log.collect(from: watcher) { $0.contains { $0.path == tree.path("app.log") } }
            #expect(events == [.modified(tree.path("app.log"))])
        }

        @Test("a watch limit reached is reported with the count of unwatched directories and the setting")
        func watchLimit() async throws {
            for index in 0..<5 { tree.mkdir("d\(index)") }
            var options = FileWatcher.Options(quietWindow: .milliseconds(20))
            options.simulatedWatchLimit = 3
            let watcher = try await FileWatcher(tree.root, options: options)
            defer { watcher.stop() }
            #expect(watcher.watchedDirectories == 3)
            let events = await log.collect(from: watcher) {
                $0.contains { if case .watchLimitReached = $0 { true } else { false } }
            }
            guard case .watchLimitReached(let report) = events.first else {
                Issue.record("no limit report: \(events)")
                return
            }
            #expect(report.unwatchedDirectories == 3)
            #expect(report.setting == "fs.inotify.max_user_watches")
            #expect(report.description.contains("sysctl fs.inotify.max_user_watches="))
        }
    }
#endif
