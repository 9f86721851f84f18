#if Watch
    import Foundation
    import SystemPackage
    import Testing

    @testable import SwitchyardWatch

    extension IgnoreMatcher {
        fileprivate func ignores(_ path: String, directory: Bool = false) -> Bool {
            isIgnored(relativePath: Array(path.utf8), isDirectory: directory)
        }
    }

    /// A temporary directory for `.gitignore` tests; `remove()` deletes it.
    private struct GitignoreTree {
        let root: URL

        init() throws {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("switchyard-ignore-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        func url(_ relative: String) -> URL {
            relative.isEmpty ? root : root.appendingPathComponent(relative)
        }

        /// The absolute path of `relative` (`""`: the root).
        func path(_ relative: String) -> SystemPackage.FilePath {
            SystemPackage.FilePath(url(relative).path)
        }

        /// Writes `bytes` to `relative`, creating the directories on the way.
        func write(_ relative: String, bytes: [UInt8]) throws {
            let file = url(relative)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }

        func write(_ relative: String, _ text: String) throws {
            try write(relative, bytes: Array(text.utf8))
        }

        func makeDirectory(_ relative: String) throws {
            try FileManager.default.createDirectory(at: url(relative), withIntermediateDirectories: true)
        }

        func remove() {
            try? FileManager.default.removeItem(at: root)
        }
    }

    extension IgnoreMatcher {
        /// Enters `relative` (`""`: the root) of `tree`, as the walker does.
        fileprivate func enter(_ relative: String, in tree: GitignoreTree) {
            enter(directory: Array(relative.utf8), absoluteDirectory: tree.path(relative))
        }
    }

    @Suite("IgnoreMatcher: .gitignore files")
    struct IgnoreMatcherTests {
        @Test("the root's .gitignore is read on enter, and its rules apply at any depth below")
        func rootGitignore() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            try tree.write(".gitignore", "# objects\n*.o\n\n/top\n")
            let matcher = IgnoreRules(gitignore: true).matcher()
            #expect(!matcher.ignores("a.o"))  // nothing loaded yet
            matcher.enter("", in: tree)
            #expect(!matcher.isEmpty)
            #expect(matcher.ignores("a.o"))
            #expect(matcher.ignores("src/a.o"))
            #expect(matcher.ignores("top"))
            #expect(!matcher.ignores("src/top"))
        }

        @Test("a deeper .gitignore overrides a shallower one, and its anchored rules are scoped to its directory")
        func nestedPrecedence() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            try tree.write(".gitignore", "*.tmp\n/local\n")
            try tree.write("sub/.gitignore", "!keep.tmp\n/local\n")
            try tree.write("sub/deeper/.gitignore", "*.tmp\n")
            let matcher = IgnoreRules(gitignore: true).matcher()
            for directory in ["", "sub", "sub/deeper"] { matcher.enter(directory, in: tree) }
            #expect(matcher.ignores("a.tmp"))
            #expect(matcher.ignores("keep.tmp"))  // sub's rules do not apply above sub
            #expect(!matcher.ignores("sub/keep.tmp"))
            #expect(matcher.ignores("sub/other.tmp"))
            #expect(!matcher.ignores("sub/x/keep.tmp"))  // sub's unanchored rule applies at any depth below sub
            #expect(matcher.ignores("sub/deeper/keep.tmp"))  // and deeper's overrides it again
            #expect(matcher.ignores("local"))
            #expect(matcher.ignores("sub/local"))
            #expect(!matcher.ignores("sub/x/local"))
            #expect(!matcher.ignores("other/local"))
        }

        @Test("globs override every .gitignore, both ways")
        func globsWin() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            try tree.write(".gitignore", "*.log\n!important.log\n")
            try tree.write("sub/.gitignore", "!debug.log\n")
            let matcher = IgnoreRules(globs: ["important.log", "debug.log"], gitignore: true).matcher()
            matcher.enter("", in: tree)
            matcher.enter("sub", in: tree)
            #expect(matcher.ignores("important.log"))
            #expect(matcher.ignores("sub/debug.log"))
            #expect(matcher.ignores("other.log"))
            let reincluding = IgnoreRules(globs: ["!*.log"], gitignore: true).matcher()
            reincluding.enter("", in: tree)
            #expect(!reincluding.ignores("other.log"))
        }

        @Test("forget drops a directory's rules and those below it, not a sibling's that shares its prefix")
        func forget() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            try tree.write("sub/.gitignore", "*.tmp\n")
            try tree.write("sub/inner/.gitignore", "*.bak\n")
            try tree.write("sub2/.gitignore", "*.tmp\n")
            let matcher = IgnoreRules(gitignore: true).matcher()
            for directory in ["", "sub", "sub/inner", "sub2"] { matcher.enter(directory, in: tree) }
            #expect(matcher.ignores("sub/a.tmp"))
            #expect(matcher.ignores("sub/inner/a.bak"))
            matcher.forget(directory: Array("sub".utf8))
            #expect(!matcher.ignores("sub/a.tmp"))
            #expect(!matcher.ignores("sub/inner/a.bak"))
            #expect(matcher.ignores("sub2/a.tmp"))
            matcher.forget(directory: [])
            #expect(matcher.isEmpty)
            #expect(!matcher.ignores("sub2/a.tmp"))
        }

        @Test("entering a directory again replaces its rules with the file's current ones")
        func reenter() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            try tree.write(".gitignore", "*.o\n")
            let matcher = IgnoreRules(gitignore: true).matcher()
            matcher.enter("", in: tree)
            #expect(matcher.ignores("a.o"))
            try tree.write(".gitignore", "*.a\n")
            matcher.enter("", in: tree)
            #expect(!matcher.ignores("a.o"))
            #expect(matcher.ignores("b.a"))
            try FileManager.default.removeItem(at: tree.url(".gitignore"))
            matcher.enter("", in: tree)
            #expect(matcher.isEmpty)
        }

        @Test("with gitignore off, enter reads nothing")
        func gitignoreOff() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            try tree.write(".gitignore", "*\n")
            let matcher = IgnoreRules(globs: [], gitignore: false).matcher()
            matcher.enter("", in: tree)
            #expect(matcher.isEmpty)
            #expect(!matcher.ignores("a"))
        }

        @Test("a missing .gitignore, a directory named .gitignore and a symbolic link hold no rules")
        func unreadableFiles() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            try tree.makeDirectory("plain")
            try tree.makeDirectory("odd/.gitignore")
            try tree.write("rules", "*\n")
            try tree.makeDirectory("link")
            try FileManager.default.createSymbolicLink(
                at: tree.url("link/.gitignore"), withDestinationURL: tree.url("rules"))
            let matcher = IgnoreRules(gitignore: true).matcher()
            for directory in ["", "plain", "odd", "link"] { matcher.enter(directory, in: tree) }
            #expect(matcher.isEmpty)
            #expect(!matcher.ignores("link/a"))
        }

        @Test("a byte order mark and CRLF line ends are dropped, as git does")
        func byteOrderMarkAndCRLF() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            try tree.write(".gitignore", bytes: [0xEF, 0xBB, 0xBF] + Array("*.o\r\n# note\r\n\r\n!keep.o\r\n".utf8))
            let matcher = IgnoreRules(gitignore: true).matcher()
            matcher.enter("", in: tree)
            #expect(matcher.ignores("a.o"))
            #expect(!matcher.ignores("keep.o"))
            #expect(IgnoreMatcher.patterns(in: Array("*.o\r\n# note\r\n\r\n!keep.o".utf8)).count == 2)
        }

        @Test("a .gitignore pattern that is not UTF-8 matches the same bytes")
        func invalidUTF8Pattern() throws {
            let tree = try GitignoreTree()
            defer { tree.remove() }
            // Two lines: "n", 0xFF, ".o" (any depth) and "/", 0xFE, "/" (a top-level directory).
            try tree.write(".gitignore", bytes: [0x6E, 0xFF, 0x2E, 0x6F, 0x0A, 0x2F, 0xFE, 0x2F, 0x0A])
            let matcher = IgnoreRules(gitignore: true).matcher()
            matcher.enter("", in: tree)
            let file: [UInt8] = [0x64, 0x2F, 0x6E, 0xFF, 0x2E, 0x6F]  // "d/n", 0xFF, ".o"
            let directory: [UInt8] = [0xFE]
            let nested: [UInt8] = [0x64, 0x2F, 0xFE]  // "d/", 0xFE
            #expect(matcher.isIgnored(relativePath: file, isDirectory: false))
            #expect(!matcher.ignores("n.o"))
            #expect(matcher.isIgnored(relativePath: directory, isDirectory: true))
            #expect(!matcher.isIgnored(relativePath: directory, isDirectory: false))
            #expect(!matcher.isIgnored(relativePath: nested, isDirectory: true))
        }
    }
#endif
