#if Watch
    /// Paths a ``FileWatcher`` neither watches nor reports, in gitignore syntax.
    ///
    /// ```swift
    /// let rules = IgnoreRules(globs: ["*.o", "/build/", "!keep.o"], gitignore: true)
    /// let watcher = try await FileWatcher(["/work/app"], options: .init(ignore: rules))
    /// ```
    ///
    /// **Syntax** (git's, `man gitignore`). Blank lines and lines starting with `#` hold no pattern; trailing spaces
    /// are trimmed unless escaped (`\ `); `\` makes the next character literal (`\#notes`, `\!important`). A leading
    /// `!` negates: a path a negated pattern matches is kept. A trailing `/` matches directories only (`logs/`). A `/`
    /// at the start or in the middle anchors the pattern to its directory (`/build` is only the top-level `build`,
    /// `doc/*.txt` only the files directly in the top-level `doc`); otherwise the pattern matches a name at any depth
    /// (`*.o`). `*` matches any run of bytes and `?` one byte, neither across `/`; `[a-z]`, `[!0-9]` and `[^…]`
    /// are classes of bytes (with `[:alpha:]` and the other POSIX classes, ASCII only). `**/x` matches `x` in any
    /// directory, `x/**` everything inside `x`, `a/**/b` `b` zero or more directories below `a`; any other `**` is
    /// `*`. A malformed pattern is matched literally (an unclosed `[` is a `[`). Matching is byte for byte and
    /// case-sensitive, so it works for names that are not valid UTF-8.
    ///
    /// **Which rule wins.** The last rule that matches a path decides, negated or not. The rules of a deeper
    /// `.gitignore` come after those of the directories above it, and ``globs`` come after every `.gitignore`: a glob
    /// overrides any file, and a file overrides the files above it.
    ///
    /// **Ignored directories.** An ignored directory is never walked or watched (it costs no inotify watch), so
    /// nothing inside it is reported, even a path a later `!` rule matches: with `build/` and `!build/keep.txt`,
    /// `build/keep.txt` is not watched. As git puts it, "it is not possible to re-include a file if a parent directory
    /// of that file is excluded".
    ///
    /// **Not read:** `.gitignore` files above a watched root, `.git/info/exclude` and `core.excludesFile`; a
    /// `.gitignore` that is a symbolic link (git does not follow one either) or larger than 100 MiB. The `.git`
    /// directory is not ignored unless a rule says so.
    ///
    /// - Complexity: Judging a path costs O(rules × path length) for ordinary patterns, O(rules × pattern length ×
    ///   path length) at worst (many `*` or `**`); never exponential.
    public struct IgnoreRules: Sendable, Hashable {
        /// Patterns in gitignore syntax, one per element, applied as lines of a `.gitignore` at each watched root
        /// (anchored patterns are relative to the root) and after every `.gitignore` file. An element is one line:
        /// a newline in it is part of the pattern, matching a newline in a name.
        public var globs: [String]
        /// Whether to honour the `.gitignore` files under each watched root, the root's own included. A `.gitignore`
        /// is read when the watcher walks its directory; an edit to it applies from the next walk of that directory.
        public var gitignore: Bool

        /// Rules from `globs` and, with `gitignore`, the `.gitignore` files of the watched trees. The default ignores
        /// nothing.
        public init(globs: [String] = [], gitignore: Bool = false) {
            self.globs = globs
            self.gitignore = gitignore
        }

        /// A fresh matcher for one watched root: the globs compiled, no `.gitignore` loaded yet.
        /// - Complexity: O(total length of the globs).
        func matcher() -> IgnoreMatcher {
            IgnoreMatcher(globs: globs.compactMap { GlobPattern(line: ArraySlice($0.utf8)) }, gitignore: gitignore)
        }
    }
#endif
