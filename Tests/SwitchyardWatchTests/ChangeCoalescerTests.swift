#if Watch
    import SystemPackage
    import Testing

    @testable import SwitchyardWatch

    /// The batch state machine alone: observations in, events out, no files and no threads.
    @Suite("ChangeCoalescer")
    struct ChangeCoalescerTests {
        let start = ContinuousClock.now

        func bytes(_ path: String) -> [UInt8] { Array(path.utf8) }

        @Test("a file created and written is one created event")
        func createdAndWritten() {
            var batch = ChangeCoalescer()
            batch.created(bytes("/w/a"), isDirectory: false, existedBefore: false, at: start)
            batch.modified(bytes("/w/a"), isDirectory: false, existedBefore: true, at: start)
            batch.modified(bytes("/w/a"), isDirectory: false, existedBefore: true, at: start)
            #expect(batch.drain() == [.created("/w/a")])
            #expect(batch.isEmpty)
        }

        @Test("a file created and removed within the batch is not reported")
        func createdAndRemoved() {
            var batch = ChangeCoalescer()
            batch.created(bytes("/w/tmp"), isDirectory: false, existedBefore: false, at: start)
            batch.removed(bytes("/w/tmp"), isDirectory: false, existedBefore: true, at: start)
            #expect(batch.drain() == [])
        }

        @Test("an atomic save (temporary file renamed over the target) is one modified event of the target")
        func atomicSave() {
            var batch = ChangeCoalescer()
            batch.created(bytes("/w/.a.tmp"), isDirectory: false, existedBefore: false, at: start)
            batch.modified(bytes("/w/.a.tmp"), isDirectory: false, existedBefore: true, at: start)
            batch.moved(
                from: bytes("/w/.a.tmp"), to: bytes("/w/a"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: true, at: start)
            #expect(batch.drain() == [.modified("/w/a")])
        }

        @Test("vim's save (original renamed to a backup, new file written, backup deleted) is one modified event")
        func vimSave() {
            var batch = ChangeCoalescer()
            batch.moved(
                from: bytes("/w/a"), to: bytes("/w/a~"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: false, at: start)
            batch.created(bytes("/w/a"), isDirectory: false, existedBefore: false, at: start)
            batch.modified(bytes("/w/a"), isDirectory: false, existedBefore: true, at: start)
            batch.removed(bytes("/w/a~"), isDirectory: false, existedBefore: true, at: start)
            #expect(batch.drain() == [.modified("/w/a")])
        }

        @Test("log rotation: the log renamed away and a new one created")
        func logRotation() {
            var batch = ChangeCoalescer()
            batch.moved(
                from: bytes("/w/app.log"), to: bytes("/w/app.log.1"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: false, at: start)
            batch.created(bytes("/w/app.log"), isDirectory: false, existedBefore: false, at: start)
            #expect(batch.drain() == [.created("/w/app.log"), .renamed(from: "/w/app.log", to: "/w/app.log.1")])
        }

        @Test("a chain of renames is one rename, and a write after it is reported too")
        func renameChain() {
            var batch = ChangeCoalescer()
            batch.moved(
                from: bytes("/w/a"), to: bytes("/w/b"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: false, at: start)
            batch.moved(
                from: bytes("/w/b"), to: bytes("/w/c"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: false, at: start)
            batch.modified(bytes("/w/c"), isDirectory: false, existedBefore: true, at: start)
            #expect(batch.drain() == [.renamed(from: "/w/a", to: "/w/c"), .modified("/w/c")])
        }

        @Test("a renamed file then deleted is reported removed at its old path")
        func renamedThenDeleted() {
            var batch = ChangeCoalescer()
            batch.moved(
                from: bytes("/w/a"), to: bytes("/w/b"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: false, at: start)
            batch.removed(bytes("/w/b"), isDirectory: false, existedBefore: true, at: start)
            #expect(batch.drain() == [.removed("/w/a")])
        }

        @Test("a rename over an existing file reports the rename; the replaced file is implied")
        func renameOverExisting() {
            var batch = ChangeCoalescer()
            batch.moved(
                from: bytes("/w/a"), to: bytes("/w/b"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: true, at: start)
            #expect(batch.drain() == [.renamed(from: "/w/a", to: "/w/b")])
        }

        @Test("changes below a renamed directory follow it")
        func directoryRename() {
            var batch = ChangeCoalescer()
            batch.created(bytes("/w/d/f"), isDirectory: false, existedBefore: false, at: start)
            batch.moved(
                from: bytes("/w/d"), to: bytes("/w/e"), isDirectory: true, fromExistedBefore: true,
                toExistedBefore: false, at: start)
            #expect(batch.drain() == [.created("/w/e/f"), .renamed(from: "/w/d", to: "/w/e")])
        }

        @Test("notices come first, once each; removal then creation of a path is a modification")
        func noticesAndReplacement() {
            var batch = ChangeCoalescer()
            batch.removed(bytes("/w/a"), isDirectory: false, existedBefore: true, at: start)
            batch.notice(.rescanNeeded("/w"), at: start)
            batch.notice(.rescanNeeded("/w"), at: start)
            batch.created(bytes("/w/a"), isDirectory: false, existedBefore: false, at: start)
            #expect(batch.drain() == [.rescanNeeded("/w"), .modified("/w/a")])
        }

        @Test("a file moved away and back is not reported; removed afterwards, it is")
        func movedBack() {
            var batch = ChangeCoalescer()
            batch.moved(
                from: bytes("/w/a"), to: bytes("/w/b"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: false, at: start)
            batch.moved(
                from: bytes("/w/b"), to: bytes("/w/a"), isDirectory: false, fromExistedBefore: true,
                toExistedBefore: false, at: start)
            var copy = batch
            #expect(copy.drain() == [])
            batch.removed(bytes("/w/a"), isDirectory: false, existedBefore: true, at: start)
            #expect(batch.drain() == [.removed("/w/a")])
        }

        @Test("the deadline is the quiet window after the latest change, capped by the maximum delay")
        func deadline() {
            var batch = ChangeCoalescer()
            #expect(batch.deadline(quietWindow: .milliseconds(50), maximumDelay: .seconds(1)) == nil)
            batch.modified(bytes("/w/a"), isDirectory: false, existedBefore: true, at: start)
            batch.modified(bytes("/w/a"), isDirectory: false, existedBefore: true, at: start + .milliseconds(30))
            #expect(
                batch.deadline(quietWindow: .milliseconds(50), maximumDelay: .seconds(1))
                    == start + .milliseconds(80))
            batch.modified(bytes("/w/a"), isDirectory: false, existedBefore: true, at: start + .milliseconds(990))
            #expect(
                batch.deadline(quietWindow: .milliseconds(50), maximumDelay: .seconds(1)) == start + .seconds(1))
        }

        @Test("events keep the order in which their paths first changed")
        func order() {
            var batch = ChangeCoalescer()
            for name in ["c", "a", "b"] {
                batch.created(bytes("/w/\(name)"), isDirectory: false, existedBefore: false, at: start)
            }
            batch.modified(bytes("/w/c"), isDirectory: false, existedBefore: true, at: start)
            #expect(batch.drain() == [.created("/w/c"), .created("/w/a"), .created("/w/b")])
        }
    }
#endif
