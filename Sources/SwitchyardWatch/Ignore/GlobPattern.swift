#if Watch
    /// One line of gitignore syntax, compiled, and its matcher over bytes.
    ///
    /// The syntax is git's (`man gitignore`): trailing unescaped spaces are trimmed; `\` makes the next byte
    /// literal; a leading `!` negates; a trailing `/` restricts the pattern to directories; a `/` at the start or in
    /// the middle anchors the pattern to its base directory, otherwise it matches a name at any depth. `*` matches
    /// any run of bytes and `?` one byte, neither across `/`; `[...]` is a class of bytes with ranges, `!`/`^`
    /// negation and the POSIX classes `[:alpha:]` and the like (ASCII only); a `**` segment (`**/x`, `x/**`,
    /// `a/**/b`) matches any number of whole directories, and any other `**` is `*`. Matching is byte for byte and
    /// case-sensitive: names need not be UTF-8.
    ///
    /// A malformed pattern is matched literally: an unclosed `[` (or an unknown `[:name:]` class) is a literal `[`,
    /// and a trailing lone `\` a literal backslash. (git's own matcher matches nothing for such a pattern.)
    ///
    /// - Complexity: Compiling is O(line length). A match is O(m × n) in the worst case for a pattern of length m
    ///   and a path of length n, with no exponential backtracking: each segment is matched by the iterative
    ///   wildcard algorithm that retries only from its last `*`, and the segments by the same algorithm one level
    ///   up, retrying only from the last `**`. A pattern without `*` matches in O(n).
    struct GlobPattern {
        /// The line started with `!`: a match re-includes the path instead of ignoring it.
        let isNegated: Bool
        /// The line ended with `/`: only directories match.
        let isDirectoryOnly: Bool
        /// The line had a `/` at its start or in its middle: the pattern is matched against the whole path below its
        /// base directory. Otherwise against the path's last component only.
        let isAnchored: Bool
        /// The pattern split at `/`. An unanchored pattern has exactly one segment, which is never a `**` segment.
        private let segments: [Segment]

        /// Compiles one line of a `.gitignore` (without its line terminator), or returns nil for a line that holds
        /// no pattern: blank, only spaces, a `#` comment, or a lone `!` or `/`.
        init?(line: ArraySlice<UInt8>) {
            guard let first = line.first, first != Syntax.hash else { return nil }
            var body = Array(Self.trimmingTrailingSpaces(line))
            let negated = body.first == Syntax.bang
            if negated { body.removeFirst() }
            let directoryOnly = body.last == Syntax.slash
            if directoryOnly { body.removeLast() }
            let anchored = body.contains(Syntax.slash)
            if anchored && body.first == Syntax.slash { body.removeFirst() }
            guard !body.isEmpty else { return nil }
            var segments = Self.segments(of: body)
            if !anchored, case .globstar = segments[0] {
                segments = [.glob([.star])]  // without a slash, `**` is `*`
            } else if segments.count > 1, case .globstar = segments[segments.count - 1] {
                // A trailing `/**` matches everything inside, but not the directory itself: at least one component.
                segments.insert(.glob([.star]), at: segments.count - 1)
            }
            self.isNegated = negated
            self.isDirectoryOnly = directoryOnly
            self.isAnchored = anchored
            self.segments = segments
        }

        /// Whether the pattern matches `path`, the path below the pattern's base directory (components separated by
        /// one `/`, no leading or trailing slash, not empty). `basenameStart` is the index of its last component;
        /// `isDirectory` whether it names a directory. The negation is not applied: see ``isNegated``.
        func matches(_ path: UnsafeBufferPointer<UInt8>, basenameStart: Int, isDirectory: Bool) -> Bool {
            if isDirectoryOnly && !isDirectory { return false }
            if isAnchored { return Self.matches(segments, path) }
            return segments[0].matches(UnsafeBufferPointer(rebasing: path[basenameStart...]))
        }

        /// Matches whole components against segments; a `**` segment takes zero or more components. On a mismatch
        /// the last `**` takes one more component and the segments after it are retried from there.
        private static func matches(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>) -> Bool {
            var segment = 0
            var start = 0  // the current component's first byte; path.count once every component is consumed
            var globstarSegment = -1
            var globstarStart = 0
            while start < path.count {
                let end = componentEnd(path, from: start)
                if segment < segments.count {
                    if case .globstar = segments[segment] {
                        globstarSegment = segment
                        globstarStart = start
                        segment += 1
                        continue
                    }
                    if segments[segment].matches(UnsafeBufferPointer(rebasing: path[start..<end])) {
                        segment += 1
                        start = Swift.min(end + 1, path.count)
                        continue
                    }
                }
                guard globstarSegment >= 0 else { return false }
                globstarStart = Swift.min(componentEnd(path, from: globstarStart) + 1, path.count)
                start = globstarStart
                segment = globstarSegment + 1
            }
            while segment < segments.count, case .globstar = segments[segment] { segment += 1 }
            return segment == segments.count
        }

        /// The index of the `/` that ends the component starting at `start`, or `path.count` for the last one.
        private static func componentEnd(_ path: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            var index = start
            while index < path.count && path[index] != Syntax.slash { index += 1 }
            return index
        }

        /// `line` without its trailing spaces, unless they are escaped with `\` (git's `trim_trailing_spaces`:
        /// spaces only, not tabs; a line ending in a lone `\` is kept whole).
        private static func trimmingTrailingSpaces(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            var trailingSpaces: Int?
            var index = line.startIndex
            while index < line.endIndex {
                switch line[index] {
                case Syntax.space:
                    if trailingSpaces == nil { trailingSpaces = index }
                case Syntax.backslash:
                    index += 1
                    if index == line.endIndex { return line }
                    trailingSpaces = nil
                default:
                    trailingSpaces = nil
                }
                index += 1
            }
            return line[line.startIndex..<(trailingSpaces ?? line.endIndex)]
        }

        /// Splits `body` (no `!`, no leading or trailing `/`) at each `/` (escaped or not, as git's matcher does)
        /// and compiles each part.
        private static func segments(of body: [UInt8]) -> [Segment] {
            var segments: [Segment] = []
            var atoms: [Atom] = []
            var index = 0
            while index < body.count {
                let byte = body[index]
                index += 1
                switch byte {
                case Syntax.slash:
                    segments.append(Segment(atoms))
                    atoms.removeAll()
                case Syntax.backslash where index < body.count:
                    let escaped = body[index]
                    index += 1
                    if escaped == Syntax.slash {
                        segments.append(Segment(atoms))
                        atoms.removeAll()
                    } else {
                        atoms.append(.byte(escaped))
                    }
                case Syntax.star:
                    atoms.append(.star)
                case Syntax.question:
                    atoms.append(.anyByte)
                case Syntax.openBracket:
                    if let parsed = characterClass(in: body, from: index) {
                        atoms.append(.set(parsed.set))
                        index = parsed.end
                    } else {
                        atoms.append(.byte(byte))
                    }
                default:
                    atoms.append(.byte(byte))
                }
            }
            segments.append(Segment(atoms))
            return segments
        }

        /// Parses the class whose `[` is just before `start`, following git's `wildmatch`: an optional `!` or `^`
        /// negates; a `]` right after the opening (and negation) is a member; `a-z` is a range (empty when reversed);
        /// `\` escapes; `[:name:]` is a POSIX class. Returns the set and the index after the closing `]`, or nil
        /// when the class is malformed (no closing `]`, or an unknown class name).
        private static func characterClass(in body: [UInt8], from start: Int) -> (set: ByteSet, end: Int)? {
            var index = start
            let negated = index < body.count && (body[index] == Syntax.bang || body[index] == Syntax.caret)
            if negated { index += 1 }
            var set = ByteSet()
            var previous: UInt8?  // the last single member, the low end of a range that follows
            var isFirst = true
            while index < body.count {
                let byte = body[index]
                if byte == Syntax.closeBracket && !isFirst {
                    if negated { set.invert() }
                    return (set, index + 1)
                }
                isFirst = false
                index += 1
                switch byte {
                case Syntax.backslash:
                    guard index < body.count else { return nil }
                    set.insert(body[index])
                    previous = body[index]
                    index += 1
                case Syntax.dash where previous != nil && index < body.count && body[index] != Syntax.closeBracket:
                    var high = body[index]
                    index += 1
                    if high == Syntax.backslash {
                        guard index < body.count else { return nil }
                        high = body[index]
                        index += 1
                    }
                    if let low = previous, low <= high { set.insert(ranges: low...high) }
                    previous = nil
                case Syntax.openBracket where index < body.count && body[index] == Syntax.colon:
                    let nameStart = index + 1
                    guard let close = body[nameStart...].firstIndex(of: Syntax.closeBracket) else { return nil }
                    if close > nameStart && body[close - 1] == Syntax.colon {
                        guard let named = posixClass(named: body[nameStart..<(close - 1)]) else { return nil }
                        set.formUnion(named)
                        previous = nil
                        index = close + 1
                    } else {
                        set.insert(byte)  // `[:` without `:]`: a literal `[`
                        previous = byte
                    }
                default:
                    set.insert(byte)
                    previous = byte
                }
            }
            return nil
        }

        /// The ASCII bytes of a POSIX class in the C locale, or nil for an unknown name.
        private static func posixClass(named name: ArraySlice<UInt8>) -> ByteSet? {
            let digits: ClosedRange<UInt8> = 0x30...0x39
            let upper: ClosedRange<UInt8> = 0x41...0x5A
            let lower: ClosedRange<UInt8> = 0x61...0x7A
            var set = ByteSet()
            switch String(decoding: name, as: UTF8.self) {
            case "alnum": set.insert(ranges: digits, upper, lower)
            case "alpha": set.insert(ranges: upper, lower)
            case "blank": set.insert(ranges: 0x09...0x09, 0x20...0x20)
            case "cntrl": set.insert(ranges: 0x00...0x1F, 0x7F...0x7F)
            case "digit": set.insert(ranges: digits)
            case "graph": set.insert(ranges: 0x21...0x7E)
            case "lower": set.insert(ranges: lower)
            case "print": set.insert(ranges: 0x20...0x7E)
            case "punct": set.insert(ranges: 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E)
            case "space": set.insert(ranges: 0x09...0x0D, 0x20...0x20)
            case "upper": set.insert(ranges: upper)
            case "xdigit": set.insert(ranges: digits, 0x41...0x46, 0x61...0x66)
            default: return nil
            }
            return set
        }
    }

    extension GlobPattern {
        /// One part of a pattern between slashes.
        fileprivate enum Segment {
            /// No wildcard: the component must equal these bytes.
            case literal([UInt8])
            /// Wildcards; runs of `*` are collapsed into one.
            case glob([Atom])
            /// `**` alone between slashes: zero or more whole components.
            case globstar

            init(_ atoms: [Atom]) {
                if atoms.count >= 2 && atoms.allSatisfy(\.isStar) {
                    self = .globstar
                    return
                }
                var collapsed: [Atom] = []
                var literal: [UInt8] = []
                var isLiteral = true
                for atom in atoms where !(atom.isStar && collapsed.last?.isStar == true) {
                    collapsed.append(atom)
                    if case .byte(let byte) = atom { literal.append(byte) } else { isLiteral = false }
                }
                self = isLiteral ? .literal(literal) : .glob(collapsed)
            }

            /// Whether one component (no `/` in it) matches. A `**` segment matches any component.
            func matches(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
                switch self {
                case .literal(let bytes): name.elementsEqual(bytes)
                case .glob(let atoms): Self.matches(atoms, name)
                case .globstar: true
                }
            }

            /// The classic iterative wildcard match: on a mismatch, the last `*` takes one more byte and the atoms
            /// after it are retried from there. O(atoms × bytes) at worst.
            private static func matches(_ atoms: [Atom], _ name: UnsafeBufferPointer<UInt8>) -> Bool {
                var atom = 0
                var index = 0
                var starAtom = -1
                var starIndex = 0
                while index < name.count {
                    if atom < atoms.count {
                        if atoms[atom].isStar {
                            starAtom = atom
                            starIndex = index
                            atom += 1
                            continue
                        }
                        if atoms[atom].accepts(name[index]) {
                            atom += 1
                            index += 1
                            continue
                        }
                    }
                    guard starAtom >= 0 else { return false }
                    starIndex += 1
                    index = starIndex
                    atom = starAtom + 1
                }
                while atom < atoms.count && atoms[atom].isStar { atom += 1 }
                return atom == atoms.count
            }
        }

        /// One element of a segment.
        fileprivate enum Atom {
            /// This byte.
            case byte(UInt8)
            /// `?`: any one byte.
            case anyByte
            /// `*`: any run of bytes, the empty one included.
            case star
            /// `[...]`: one byte of the set.
            case set(ByteSet)

            var isStar: Bool {
                if case .star = self { return true }
                return false
            }

            /// Whether the atom takes `byte` (a `*` is handled by the matcher, not here).
            func accepts(_ byte: UInt8) -> Bool {
                switch self {
                case .byte(let expected): expected == byte
                case .anyByte: true
                case .set(let set): set.contains(byte)
                case .star: false
                }
            }
        }

        /// A set of bytes, one bit each.
        fileprivate struct ByteSet {
            private var words: [UInt64] = [0, 0, 0, 0]

            func contains(_ byte: UInt8) -> Bool {
                words[Int(byte >> 6)] & (1 << (byte & 63)) != 0
            }

            mutating func insert(_ byte: UInt8) {
                words[Int(byte >> 6)] |= 1 << (byte & 63)
            }

            mutating func insert(ranges: ClosedRange<UInt8>...) {
                for range in ranges {
                    for byte in range { insert(byte) }
                }
            }

            mutating func formUnion(_ other: ByteSet) {
                for index in words.indices { words[index] |= other.words[index] }
            }

            mutating func invert() {
                for index in words.indices { words[index] = ~words[index] }
            }
        }

        /// The bytes of the syntax.
        fileprivate enum Syntax {
            static let space = UInt8(ascii: " ")
            static let bang = UInt8(ascii: "!")
            static let hash = UInt8(ascii: "#")
            static let star = UInt8(ascii: "*")
            static let dash = UInt8(ascii: "-")
            static let slash = UInt8(ascii: "/")
            static let colon = UInt8(ascii: ":")
            static let question = UInt8(ascii: "?")
            static let openBracket = UInt8(ascii: "[")
            static let backslash = UInt8(ascii: "\\")
            static let closeBracket = UInt8(ascii: "]")
            static let caret = UInt8(ascii: "^")
        }
    }
#endif
