#if Watch
    import Testing

    @testable import SwitchyardWatch

    /// Whether `globs` ignore `path`, a path below the root.
    private func ignored(_ path: String, by globs: [String], directory: Bool = false) -> Bool {
        ignored(Array(path.utf8), by: globs, directory: directory)
    }

    /// Whether `globs` ignore `path`, given as bytes (for names that are not UTF-8).
    private func ignored(_ path: [UInt8], by globs: [String], directory: Bool = false) -> Bool {
        IgnoreRules(globs: globs).matcher().isIgnored(relativePath: path, isDirectory: directory)
    }

    @Suite("IgnoreRules: gitignore syntax")
    struct IgnoreRulesTests {
        @Test("blank lines, lines of spaces and # comments hold no pattern")
        func blankLinesAndComments() {
            for line in ["", "   ", "# *.txt", "#", "!", "/"] {
                let compiled = GlobPattern(line: ArraySlice(line.utf8)) != nil
                #expect(!compiled, "\(line)")
            }
            #expect(IgnoreRules(globs: ["", "  ", "# *.txt"]).matcher().isEmpty)
            #expect(!ignored("a.txt", by: ["# *.txt"]))
            #expect(!ignored("#comment", by: ["#comment"]))
        }

        @Test("trailing spaces are trimmed unless escaped; tabs are kept")
        func trailingSpaces() {
            #expect(ignored("foo", by: ["foo   "]))
            #expect(ignored("foo ", by: ["foo\\ "]))
            #expect(!ignored("foo", by: ["foo\\ "]))
            #expect(ignored("foo ", by: ["foo\\  "]))
            #expect(!ignored("foo  ", by: ["foo\\  "]))
            #expect(ignored("foo\t", by: ["foo\t"]))
            #expect(!ignored("foo", by: ["foo\t"]))
        }

        @Test("a backslash makes #, !, wildcards, brackets and itself literal")
        func escapes() {
            #expect(ignored("#notes", by: ["\\#notes"]))
            #expect(ignored("!important", by: ["\\!important"]))
            #expect(!ignored("important", by: ["\\!important"]))
            #expect(ignored("*", by: ["\\*"]))
            #expect(!ignored("a", by: ["\\*"]))
            #expect(ignored("a?", by: ["a\\?"]))
            #expect(!ignored("ab", by: ["a\\?"]))
            #expect(ignored("[x]", by: ["\\[x]"]))
            #expect(!ignored("x", by: ["\\[x]"]))
            #expect(ignored("back\\slash", by: ["back\\\\slash"]))
        }

        @Test("a pattern without a slash matches a name at any depth")
        func unanchored() {
            #expect(ignored("a.o", by: ["*.o"]))
            #expect(ignored("src/a.o", by: ["*.o"]))
            #expect(ignored("src/deep/er/a.o", by: ["*.o"]))
            #expect(!ignored("a.oo", by: ["*.o"]))
            #expect(!ignored("a.o/readme", by: ["*.o"]))  // the last component only (the directory `a.o` is ignored)
            #expect(ignored("x/y/build", by: ["build"], directory: true))
        }

        @Test("a leading slash anchors the pattern to the root")
        func anchoredAtStart() {
            #expect(ignored("build", by: ["/build"], directory: true))
            #expect(!ignored("src/build", by: ["/build"], directory: true))
            #expect(ignored("a.o", by: ["/*.o"]))
            #expect(!ignored("src/a.o", by: ["/*.o"]))
        }

        @Test("a slash in the middle anchors the pattern to the root too")
        func anchoredInMiddle() {
            #expect(ignored("doc/frotz", by: ["doc/frotz"]))
            #expect(!ignored("a/doc/frotz", by: ["doc/frotz"]))
            #expect(ignored("doc/a.txt", by: ["doc/*.txt"]))
            #expect(!ignored("doc/sub/a.txt", by: ["doc/*.txt"]))
            #expect(!ignored("x/doc/a.txt", by: ["doc/*.txt"]))
        }

        @Test("* matches any run of bytes, the empty one included, but never a slash")
        func star() {
            #expect(ignored("a", by: ["a*"]))
            #expect(ignored("abc", by: ["a*c"]))
            #expect(ignored("src/a", by: ["src/*"]))
            // Judged on its own: `src/a` is ignored, so the walker never gets here.
            #expect(!ignored("src/a/b", by: ["src/*"]))
            #expect(ignored("a/b", by: ["*"]))  // unanchored: the last component
            #expect(ignored("x.tar.gz", by: ["*.tar.*"]))
            #expect(!ignored("x.tar", by: ["*.tar.*"]))
        }

        @Test("? matches exactly one byte of any value, never a slash")
        func questionMark() {
            #expect(ignored("foo", by: ["f?o"]))
            #expect(!ignored("fo", by: ["f?o"]))
            #expect(!ignored("fooo", by: ["f?o"]))
            let invalid: [UInt8] = [0x66, 0xFF, 0x6F]  // "f", 0xFF, "o"
            #expect(ignored(invalid, by: ["f?o"]))
            #expect(ignored("f\u{E9}", by: ["f??"]))  // é is two bytes in UTF-8
            #expect(!ignored("x/a/b", by: ["x/a?b"]))
        }

        @Test("classes: members, ranges, negation with ! and ^, ] first, - last, reversed ranges empty")
        func characterClasses() {
            #expect(ignored("a.txt", by: ["[abc].txt"]))
            #expect(!ignored("d.txt", by: ["[abc].txt"]))
            #expect(ignored("file7", by: ["file[0-9]"]))
            #expect(!ignored("filex", by: ["file[0-9]"]))
            #expect(ignored("filex", by: ["file[!0-9]"]))
            #expect(!ignored("file7", by: ["file[!0-9]"]))
            #expect(ignored("filex", by: ["file[^0-9]"]))
            #expect(!ignored("file7", by: ["file[^0-9]"]))
            let invalid: [UInt8] = [0x78, 0xFF]  // "x", 0xFF
            #expect(ignored(invalid, by: ["x[!a]"]))
            #expect(ignored("]x", by: ["[]]x"]))
            #expect(ignored("ax", by: ["[!]]x"]))
            #expect(!ignored("]x", by: ["[!]]x"]))
            #expect(ignored("-x", by: ["[a-]x"]))
            #expect(ignored("ax", by: ["[a-]x"]))
            #expect(!ignored("bx", by: ["[a-]x"]))
            #expect(!ignored("mx", by: ["[z-a]x"]))  // a reversed range is empty (its first byte is still a member)
            #expect(ignored("]x", by: ["[\\]]x"]))
        }

        @Test("POSIX classes inside brackets, ASCII only")
        func posixClasses() {
            #expect(ignored("1.log", by: ["[[:digit:]]*.log"]))
            #expect(!ignored("a.log", by: ["[[:digit:]]*.log"]))
            #expect(ignored("A", by: ["[[:upper:][:digit:]]"]))
            #expect(ignored("7", by: ["[[:upper:][:digit:]]"]))
            #expect(!ignored("a", by: ["[[:upper:][:digit:]]"]))
            #expect(ignored("1", by: ["[![:alpha:]]"]))
            #expect(!ignored("a", by: ["[![:alpha:]]"]))
            #expect(ignored("a b", by: ["a[[:space:]]b"]))
            #expect(!ignored("a\u{E9}", by: ["a[[:alpha:]]?"]))
        }

        @Test("a malformed pattern is matched literally")
        func malformedPatterns() {
            #expect(ignored("a[b", by: ["a[b"]))
            #expect(!ignored("ab", by: ["a[b"]))
            #expect(ignored("[abc", by: ["[abc"]))
            #expect(ignored("x[y", by: ["*[y"]))
            #expect(ignored("foo\\", by: ["foo\\"]))
        }

        @Test("! re-includes, and the last matching rule wins")
        func negation() {
            let rules = ["*.log", "!keep.log"]
            #expect(ignored("a.log", by: rules))
            #expect(!ignored("keep.log", by: rules))
            #expect(!ignored("sub/keep.log", by: rules))
            #expect(ignored("keep.log", by: ["!keep.log", "*.log"]))
            #expect(!ignored("keep.log", by: ["!keep.log"]))
        }

        @Test("a path below an ignored directory is judged on its own: the walker never enters the directory")
        func insideIgnoredDirectory() {
            let rules = ["build/", "!build/keep.txt"]
            #expect(ignored("build", by: rules, directory: true))
            // Not ignored on its own, yet never watched: `build` is not walked (see IgnoreMatcher).
            #expect(!ignored("build/keep.txt", by: rules))
        }

        @Test("a trailing slash matches directories only")
        func directoryOnly() {
            #expect(ignored("logs", by: ["logs/"], directory: true))
            #expect(!ignored("logs", by: ["logs/"]))
            #expect(ignored("a/logs", by: ["logs/"], directory: true))
            #expect(ignored("out", by: ["/out/"], directory: true))
            #expect(!ignored("a/out", by: ["/out/"], directory: true))
            #expect(ignored("a/b", by: ["a/b/"], directory: true))
            #expect(!ignored("a/b", by: ["a/b/"]))
            // A directory-only rule that does not apply leaves the earlier rules to decide.
            #expect(ignored("logs", by: ["logs", "!logs/"]))
        }

        @Test("**/x matches x in the root and in any directory")
        func leadingDoubleStar() {
            for path in ["foo", "a/foo", "a/b/foo"] { #expect(ignored(path, by: ["**/foo"]), "\(path)") }
            #expect(!ignored("foox", by: ["**/foo"]))
            for path in ["foo/bar", "x/foo/bar", "x/y/foo/bar"] {
                #expect(ignored(path, by: ["**/foo/bar"]), "\(path)")
            }
            #expect(!ignored("foo/x/bar", by: ["**/foo/bar"]))
        }

        @Test("x/** matches everything inside x, not x itself")
        func trailingDoubleStar() {
            #expect(ignored("abc/x", by: ["abc/**"]))
            #expect(ignored("abc/x/y", by: ["abc/**"]))
            #expect(!ignored("abc", by: ["abc/**"], directory: true))
            #expect(!ignored("x/abc/y", by: ["abc/**"]))
            #expect(ignored("abc/d", by: ["abc/**/"], directory: true))
            #expect(!ignored("abc/f", by: ["abc/**/"]))
        }

        @Test("a/**/b matches zero or more directories between a and b")
        func middleDoubleStar() {
            for path in ["a/b", "a/x/b", "a/x/y/b"] { #expect(ignored(path, by: ["a/**/b"]), "\(path)") }
            for path in ["a/xb", "b", "a/b/c", "x/a/b"] { #expect(!ignored(path, by: ["a/**/b"]), "\(path)") }
            #expect(ignored("a/b", by: ["a/**/**/b"]))
            #expect(ignored("a/x/y/b", by: ["a/**/**/b"]))
            #expect(ignored("a/x/y/b.c", by: ["a/**/*.c"]))
        }

        @Test("any other ** is a single *")
        func otherDoubleStars() {
            #expect(ignored("axyb", by: ["a**b"]))
            #expect(ignored("x/ayb", by: ["x/a**b"]))
            #expect(!ignored("x/ay/zb", by: ["x/a**b"]))
            #expect(ignored("any/depth/at/all", by: ["**"]))
            #expect(ignored("any/depth", by: ["/**"]))
        }

        @Test("names that are not UTF-8 match byte for byte")
        func invalidUTF8() {
            let name: [UInt8] = [0x6E, 0xFF, 0x2E, 0x6F]  // "n", 0xFF, ".o"
            #expect(ignored(name, by: ["*.o"]))
            #expect(ignored(name, by: ["n?.o"]))
            #expect(ignored(name, by: ["n[!a].o"]))
            #expect(!ignored(name, by: ["n.o"]))
            let deeper: [UInt8] = [0xFF, 0xFE, 0x2F] + name
            #expect(ignored(deeper, by: ["**/*.o"]))
        }

        @Test("names with spaces, # and newlines")
        func unusualNames() {
            #expect(ignored("my file.txt", by: ["my file.txt"]))
            #expect(ignored("dir/my file.txt", by: ["my *.txt"]))
            #expect(ignored("#draft#", by: ["\\#draft#"]))
            #expect(ignored("a#b", by: ["a#b"]))
            #expect(ignored("a\nb", by: ["a?b"]))
            #expect(ignored("line\nbreak", by: ["line\nbreak"]))
            #expect(!ignored("line", by: ["line\nbreak"]))
        }

        @Test("patterns that make backtracking matchers explode are matched in polynomial time")
        func noExponentialBacktracking() {
            let long = String(repeating: "a", count: 5_000)
            #expect(!ignored(long, by: ["*a*a*a*a*a*a*a*a*a*a*b"]))
            #expect(ignored(long + "b", by: ["*a*a*a*a*a*a*a*a*a*a*b"]))
            let deep = Array(repeating: "a", count: 500).joined(separator: "/")
            #expect(!ignored(deep, by: ["**/a/**/a/**/a/**/a/**/b"]))
            #expect(ignored(deep + "/b", by: ["**/a/**/a/**/a/**/a/**/b"]))
        }

        @Test("isEmpty: no globs and no .gitignore loaded")
        func emptiness() {
            #expect(IgnoreRules().matcher().isEmpty)
            #expect(IgnoreRules(gitignore: true).matcher().isEmpty)
            #expect(!IgnoreRules(globs: ["x"]).matcher().isEmpty)
            #expect(!ignored("anything", by: []))
        }
    }
#endif
