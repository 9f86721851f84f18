#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits the bytes in a ``ByteWindow`` into CSV records; the synchronous and asynchronous readers only feed it.
///
/// A record is scanned from its first byte each time: if it is not complete in the window, the reader reads more
/// and the record is scanned again (records longer than a chunk are rare; ``CSVOptions/maximumRecordLength`` bounds
/// the rework). Unquoted fields are scanned a byte at a time with one comparison for ordinary bytes; quoted fields
/// jump from quote to quote with `memchr`. Field positions go into a reused slot array; a completed record's
/// doubled quotes are made single in place. O(record length) per record, no allocation per record.
struct CSVFramer: InputFramer, ~Copyable {
    enum Step {
        /// A record of `fields` fields (slots `0..<fields`), valid until the next call.
        case record(fields: Int, line: Int)
        /// Read more (or call `didRead(0)` at the end of the input).
        case needInput
        /// Every record has been returned.
        case end
    }

    private enum Scan {
        /// `contentEnd` is where the line ending starts (or the end of the input); `next` is after it.
        case record(fields: Int, contentEnd: Int, next: Int, lines: Int)
        case blank(next: Int)
        case malformed(StreamError.Kind, at: Int, field: Int)
        case needInput
        case end
    }

    private(set) var window: ByteWindow
    let options: CSVOptions
    let input: String
    private(set) var slots: UnsafeMutablePointer<CSVFieldSlot>
    private var slotCapacity = 16
    /// Where fields decoded from another encoding go (``CSVFieldSlot/transcoded``); reused record to record.
    private(set) var arena: UnsafeMutablePointer<UInt8>
    private var arenaCapacity = 256
    /// What the record being scanned held that the options tolerate.
    private(set) var quirks: CSVQuirks = []
    /// How many fields the last delivered record had in the input (fewer or more than delivered when ragged).
    private(set) var fieldsRead = 0
    /// Fields of the record being scanned with text after their closing quote (rare): the field, its closing
    /// quote, and where its text ends.
    private var tails: [(field: Int, closingQuote: Int, end: Int)] = []
    /// Whether a field of the record being scanned holds doubled quotes or text after its closing quote.
    private var hasEscapedFields = false
    private(set) var header: CSVHeader?
    private var expectedFields: Int?
    /// The line the next record starts on.
    private(set) var line = 1
    private(set) var records = 0
    private(set) var skipped = 0
    private(set) var bytesRead = 0
    private(set) var inputEnded = false
    /// Until the input's first bytes are seen: whether they are a byte order mark.
    private var atStart = true
    /// After a scan ran out of bytes: the window size worth scanning again at, unless a line ending arrives first.
    /// Rescanning a long record only when the window has doubled (or may hold its end) keeps the total rescanning
    /// linear in the record's length, however small the reads.
    private var rescanAt: Int?
    private var lineEndingArrived = false
    /// When the last scan ran out of input inside a quoted field: the opening quote and the field's number.
    private var openQuote: (position: Int, field: Int)?
    private let delimiter: UInt8
    private let quote = UInt8(ascii: "\"")
    /// Bytes above this are never special in an unquoted field.
    private let highestSpecial: UInt8
    private let rejectsQuotesInUnquoted: Bool
    private let acceptsTextAfterQuote: Bool
    /// Whether each record is checked (for UTF-8, NUL bytes and the encoding).
    private let checksText: Bool

    init(options: CSVOptions, input: String) {
        self.options = options
        self.input = input
        window = ByteWindow(chunkSize: options.chunkSize, maximumCapacity: options.maximumRecordLength + 3)
        slots = .allocate(capacity: slotCapacity)
        arena = .allocate(capacity: arenaCapacity)
        acceptsTextAfterQuote = options.textAfterClosingQuote == .accept
        checksText = options.validatesUTF8 || options.encoding != .utf8
        delimiter = options.delimiter
        rejectsQuotesInUnquoted = options.quotesInUnquotedFields == .reject
        highestSpecial = Swift.max(options.delimiter, 0x0D, rejectsQuotesInUnquoted ? UInt8(ascii: "\"") : 0)
    }

    deinit {  // the window frees its own buffer
        slots.deallocate()
        arena.deallocate()
    }

    func summary(header: CSVHeader?) -> CSVSummary {
        CSVSummary(
            records: records, skippedRecords: skipped, lines: line - 1, bytes: bytesRead,
            peakBufferBytes: window.peakCapacity, header: header)
    }

    /// A view of the record `next()` just returned.
    func view(fields: Int, line: Int) -> CSVRecordView {
        CSVRecordView(
            base: UnsafeRawPointer(window.base), arena: UnsafeRawPointer(arena), slots: UnsafePointer(slots),
            count: fields, line: line, header: header, quirks: quirks, fieldsRead: fieldsRead)
    }

    /// The next record, or what the framer needs. Malformed records are thrown or skipped per the options; each
    /// skipped record's error goes to ``CSVOptions/reportSkippedRecord``, then to `onSkipped` with the header.
    /// Throws ``StreamError``, or what `onSkipped` throws.
    mutating func next(onSkipped: (StreamError, CSVHeader?) throws -> Void = { _, _ in }) throws -> Step {
        while true {
            if atStart {
                guard try startOfInput() else { return .needInput }
                atStart = false
            }
            // (A full window is scanned again: nothing more can be read into it, and the scan decides what to do.)
            if let rescanAt, !inputEnded, !lineEndingArrived, window.unconsumed < rescanAt,
                window.unconsumed < window.maximumCapacity
            {
                return .needInput
            }
            rescanAt = nil
            let recordStart = window.start
            switch scan() {
            case .needInput:
                // Up to two `\r` of a line ending may wait for their `\n`.
                if window.unconsumed > options.maximumRecordLength + 2 {
                    // A quoted field running on across line endings past the limit: most likely a stray quote,
                    // whose record ends at the line ending after it. The same diagnosis in either policy.
                    // (Before the end of the input, `resynchronize` finds a line ending only within the window.)
                    if let quote = openQuote, let (contentEnd, next) = resynchronize(after: quote.position) {
                        let error = malformed(
                            .strayQuote, at: quote.position, field: quote.field, recordStart: recordStart)
                        try reject(error, recordStart: recordStart, contentEnd: contentEnd, next: next, onSkipped)
                        continue
                    }
                    throw StreamError(.recordTooLong(limit: options.maximumRecordLength), input: input, line: line)
                }
                awaitMore()
                return .needInput
            case .end:
                if options.hasHeader && header == nil {
                    throw StreamError(.missingHeader, input: input, line: line)
                }
                return .end
            case .blank(let next):
                window.start = next
                line += 1
            case .malformed(let kind, let position, let field):
                let error = malformed(kind, at: position, field: field, recordStart: recordStart)
                if stopsAtMalformed { throw error }
                // A stray quote's record ends at the first line ending after the quote, however far the field ran.
                guard let (contentEnd, next) = resynchronize(after: position) else {
                    awaitMore()
                    return .needInput
                }
                try skip(error, recordStart: recordStart, contentEnd: contentEnd, next: next, onSkipped)
            case .record(let fields, let contentEnd, let next, let lines):
                let span = RecordSpan(start: recordStart, contentEnd: contentEnd, next: next, lines: lines)
                if let step = try complete(fields: fields, span, onSkipped) { return step }
            }
        }
    }

    /// Where a scanned record lies: its first byte, where its line ending starts, the byte after that, and how
    /// many physical lines it covers.
    private struct RecordSpan {
        let start: Int
        let contentEnd: Int
        let next: Int
        let lines: Int
    }

    /// Completes a scanned record: checks its length and text, unescapes and decodes its fields, then takes it as
    /// the header or checks its field count. Returns the record, or nil when it was the header or was skipped.
    private mutating func complete(
        fields scanned: Int, _ span: RecordSpan, _ onSkipped: (StreamError, CSVHeader?) throws -> Void
    ) throws -> Step? {
        let recordLine = line
        guard span.contentEnd - span.start <= options.maximumRecordLength else {
            throw StreamError(.recordTooLong(limit: options.maximumRecordLength), input: input, line: line)
        }
        let isHeader = options.hasHeader && header == nil
        var decodes = false
        if checksText {
            let bytes = UnsafeRawBufferPointer(start: window.base + span.start, count: span.contentEnd - span.start)
            let (isASCII, hasNUL) = UTF8Validation.classify(bytes)
            if hasNUL { quirks.insert(.nulBytes) }
            if !isASCII {
                if options.encoding != .utf8 {
                    decodes = true
                } else if let bad = UTF8Validation.firstInvalidOffset(in: bytes).map({ span.start + $0 }) {
                    if isHeader {
                        quirks.insert(.repairedUTF8)  // `strings()` below repairs it
                    } else {
                        let error = malformed(
                            .invalidUTF8, at: bad, field: field(containing: bad, fields: scanned) + 1,
                            recordStart: span.start)
                        try reject(
                            error, recordStart: span.start, contentEnd: span.contentEnd, next: span.next, onSkipped)
                        return nil
                    }
                }
            }
        }
        // Checked before `unescape` rewrites the record's bytes: a skipped record's lines are counted over them.
        let expected = isHeader ? scanned : expectedFields ?? scanned
        if scanned != expected && options.raggedRecords == .reject {
            let kind: StreamError.Kind =
                scanned < expected
                ? .tooFewFields(expected: expected, found: scanned)
                : .tooManyFields(expected: expected, found: scanned)
            let error = malformed(kind, at: nil, field: nil, recordStart: span.start)
            try reject(error, recordStart: span.start, contentEnd: span.contentEnd, next: span.next, onSkipped)
            return nil
        }
        if hasEscapedFields { unescape(fields: scanned) }
        if decodes { decode(fields: scanned, recordLength: span.contentEnd - span.start) }
        expectedFields = expected
        if isHeader {
            header = CSVHeader(view(fields: scanned, line: recordLine).strings(), quirks: quirks)
            window.start = span.next
            line += span.lines
            return nil
        }
        var fields = scanned
        if scanned < expected {
            for index in scanned..<expected {
                store(CSVFieldSlot(start: 0, count: 0, quoted: false, escaped: false), at: index)
            }
            fields = expected
            quirks.insert(.missingFields)
        } else if scanned > expected {
            quirks.insert(.extraFields)
        }
        fieldsRead = scanned
        window.start = span.next
        line += span.lines
        records += 1
        return .record(fields: fields, line: recordLine)
    }

    /// At the start of the input: refuses UTF-16 (whose byte order mark says what it is), and drops a UTF-8 byte
    /// order mark (``CSVOptions/stripsByteOrderMark``). Returns false while more bytes are needed to tell.
    private mutating func startOfInput() throws -> Bool {
        let available = window.unconsumed
        guard available > 0 || inputEnded else { return false }
        let first = available > 0 ? window.base.load(fromByteOffset: window.start, as: UInt8.self) : 0
        if first == 0xFF || first == 0xFE {
            guard available >= 2 else { return inputEnded }
            let second = window.base.load(fromByteOffset: window.start + 1, as: UInt8.self)
            if (first, second) == (0xFF, 0xFE) || (first, second) == (0xFE, 0xFF) {
                throw StreamError(.unsupportedEncoding(first == 0xFF ? "UTF-16LE" : "UTF-16BE"), input: input, line: 1)
            }
        }
        return !options.stripsByteOrderMark || window.dropByteOrderMark(inputEnded: inputEnded)
    }

    /// Where the next read goes. Never nil in practice: `next()` throws before a record can fill the window.
    mutating func spaceForRead() throws -> UnsafeMutableRawBufferPointer {
        guard let space = window.spaceForRead() else {
            throw StreamError(.recordTooLong(limit: options.maximumRecordLength), input: input, line: line)
        }
        return space
    }

    /// Records a read of `count` bytes; 0 means the input ended.
    mutating func didRead(_ count: Int) {
        if count == 0 {
            inputEnded = true
            return
        }
        if rescanAt != nil && !lineEndingArrived {
            let new = window.base + window.end
            lineEndingArrived = memchr(new, 0x0A, count) != nil || memchr(new, 0x0D, count) != nil
        }
        window.didRead(count)
        bytesRead += count
    }

    private mutating func awaitMore() {
        rescanAt = Swift.max(1, 2 * window.unconsumed)
        lineEndingArrived = false
    }

    private var stopsAtMalformed: Bool {
        options.malformedRecords == .stop || (options.hasHeader && header == nil)
    }

    // MARK: Scanning

    /// Scans one record from `window.start` without consuming it, filling `slots`.
    private mutating func scan() -> Scan {
        openQuote = nil
        if !quirks.isEmpty { quirks = [] }
        hasEscapedFields = false
        if !tails.isEmpty { tails.removeAll(keepingCapacity: true) }
        let base = UnsafeRawPointer(window.base)
        let end = window.end
        var index = window.start
        if index == end { return inputEnded ? .end : .needInput }
        let lineFeed: UInt8 = 0x0A
        let carriageReturn: UInt8 = 0x0D
        let first = base.load(fromByteOffset: index, as: UInt8.self)
        if first == lineFeed || first == carriageReturn {
            guard let next = lineEnding(at: index) else { return .needInput }
            return .blank(next: next)
        }
        var fields = 0
        var lines = 1
        while true {
            if options.trimsWhitespace { index = skipBlanks(from: index, to: end) }
            var slot = CSVFieldSlot(start: index, count: 0, quoted: false, escaped: false)
            if index < end && base.load(fromByteOffset: index, as: UInt8.self) == quote {
                let opening = index
                index += 1
                slot = CSVFieldSlot(start: index, count: 0, quoted: true, escaped: false)
                while true {
                    guard let found = memchr(base + index, Int32(quote), end - index) else {
                        if inputEnded {
                            // Lines after an opening quote that never closes: a stray quote, which costs its own
                            // line only (as when the field runs past the record limit).
                            let kind: StreamError.Kind = linesFollow(opening) ? .strayQuote : .unterminatedQuote
                            return .malformed(kind, at: opening, field: fields + 1)
                        }
                        openQuote = (opening, fields + 1)
                        return .needInput
                    }
                    index = base.distance(to: UnsafeRawPointer(found))
                    if index + 1 == end && !inputEnded {
                        openQuote = (opening, fields + 1)
                        return .needInput
                    }
                    if index + 1 < end && base.load(fromByteOffset: index + 1, as: UInt8.self) == quote {
                        slot.escaped = true
                        hasEscapedFields = true
                        index += 2
                        continue
                    }
                    break
                }
                slot.count = index - slot.start
                lines += countLineFeeds(from: slot.start, count: slot.count)
                let closing = index
                index += 1
                if options.trimsWhitespace { index = skipBlanks(from: index, to: end) }
                if index == end && !inputEnded { return .needInput }
                if index < end && !endsField(at: index) {
                    if spansLines(from: slot.start, to: slot.start + slot.count) {
                        return .malformed(.strayQuote, at: opening, field: fields + 1)
                    }
                    guard acceptsTextAfterQuote else {
                        return .malformed(.textAfterClosingQuote, at: index, field: fields + 1)
                    }
                    switch textAfterQuote(closing: closing, from: index, field: fields) {
                    case nil: return .needInput
                    case let after?:
                        index = after
                        if !tails.isEmpty && tails[tails.count - 1].field == fields {
                            slot.escaped = true
                            hasEscapedFields = true
                        }
                    }
                }
            } else {
                let highest = highestSpecial
                while index < end {
                    let byte = base.load(fromByteOffset: index, as: UInt8.self)
                    if byte > highest {
                        index += 1
                        continue
                    }
                    if byte == delimiter || byte == lineFeed || byte == carriageReturn { break }
                    if byte == quote && rejectsQuotesInUnquoted {
                        return .malformed(.quoteInUnquotedField, at: index, field: fields + 1)
                    }
                    index += 1
                }
                if index == end && !inputEnded { return .needInput }
                var fieldEnd = index
                if options.trimsWhitespace {
                    while fieldEnd > slot.start && isBlank(base.load(fromByteOffset: fieldEnd - 1, as: UInt8.self)) {
                        fieldEnd -= 1
                    }
                }
                slot.count = fieldEnd - slot.start
            }
            store(slot, at: fields)
            fields += 1
            if index == end { return .record(fields: fields, contentEnd: end, next: end, lines: lines) }
            if base.load(fromByteOffset: index, as: UInt8.self) == delimiter {
                index += 1
                continue
            }
            guard let next = lineEnding(at: index) else { return .needInput }
            return .record(fields: fields, contentEnd: index, next: next, lines: lines)
        }
    }

    /// Whether the byte at `index` (< end) ends a field: a delimiter or a line ending.
    @inline(__always)
    private func endsField(at index: Int) -> Bool {
        let byte = window.base.load(fromByteOffset: index, as: UInt8.self)
        return byte == delimiter || byte == 0x0A || byte == 0x0D
    }

    /// With ``CSVOptions/TextAfterClosingQuote/accept``: reads what follows the closing quote at `closing` up to
    /// the end of the field (`index` is its first byte that does not end a field). Blanks alone are dropped; other
    /// text is recorded in `tails`, to be appended to the field. Returns where the field ends, or nil if more input
    /// is needed to tell.
    private mutating func textAfterQuote(closing: Int, from index: Int, field: Int) -> Int? {
        let end = window.end
        let afterBlanks = skipBlanks(from: index, to: end)
        if afterBlanks == end && !inputEnded { return nil }
        if afterBlanks == end || endsField(at: afterBlanks) {
            quirks.insert(.blankAfterClosingQuote)
            return afterBlanks
        }
        var textEnd = afterBlanks
        while textEnd < end && !endsField(at: textEnd) { textEnd += 1 }
        if textEnd == end && !inputEnded { return nil }
        var kept = textEnd
        if options.trimsWhitespace {
            while kept > closing + 1 && isBlank(window.base.load(fromByteOffset: kept - 1, as: UInt8.self)) {
                kept -= 1
            }
        }
        quirks.insert(.textAfterClosingQuote)
        tails.append((field, closing, kept))
        return textEnd
    }

    /// The position after the one line ending at `index`: `\n`, `\r\n`, `\r\r\n`, or a single `\r`; nil if more
    /// input is needed to tell.
    @inline(__always)  // called on every record: a call would copy the framer
    private func lineEnding(at index: Int) -> Int? {
        let base = UnsafeRawPointer(window.base)
        let end = window.end
        if base.load(fromByteOffset: index, as: UInt8.self) == 0x0A { return index + 1 }
        guard index + 1 < end else { return inputEnded ? index + 1 : nil }
        let second = base.load(fromByteOffset: index + 1, as: UInt8.self)
        if second == 0x0A { return index + 2 }
        if second != 0x0D { return index + 1 }
        guard index + 2 < end else { return inputEnded ? index + 1 : nil }
        return base.load(fromByteOffset: index + 2, as: UInt8.self) == 0x0A ? index + 3 : index + 1
    }

    /// Where a skipped malformed record ends: the first line ending at or after `position` (its start, and the
    /// position after it), the end of the input if there is none, or nil if more input is needed.
    private func resynchronize(after position: Int) -> (contentEnd: Int, next: Int)? {
        let base = UnsafeRawPointer(window.base)
        let end = window.end
        var terminator = end
        if let found = memchr(base + position, 0x0A, end - position) {
            terminator = base.distance(to: UnsafeRawPointer(found))
        }
        if let found = memchr(base + position, 0x0D, terminator - position) {
            terminator = base.distance(to: UnsafeRawPointer(found))
        }
        if terminator == end { return inputEnded ? (end, end) : nil }
        return lineEnding(at: terminator).map { (terminator, $0) }
    }

    /// Whether a line ending after `position` is followed by more input (with the whole input in the window).
    private func linesFollow(_ position: Int) -> Bool {
        guard let (_, next) = resynchronize(after: position) else { return false }
        return next < window.end
    }

    /// Whether bytes `start..<end` hold a line ending.
    @inline(__always)  // called on every record: a call would copy the framer
    private func spansLines(from start: Int, to end: Int) -> Bool {
        let base = UnsafeRawPointer(window.base)
        return memchr(base + start, 0x0A, end - start) != nil || memchr(base + start, 0x0D, end - start) != nil
    }

    @inline(__always)  // called on every record: a call would copy the framer
    private func isBlank(_ byte: UInt8) -> Bool {
        (byte == 0x20 || byte == 0x09) && byte != delimiter
    }

    @inline(__always)  // called on every record: a call would copy the framer
    private func skipBlanks(from start: Int, to end: Int) -> Int {
        var index = start
        while index < end && isBlank(window.base.load(fromByteOffset: index, as: UInt8.self)) { index += 1 }
        return index
    }

    @inline(__always)  // called on every record: a call would copy the framer
    private func countLineFeeds(from start: Int, count: Int) -> Int {
        var lines = 0
        var index = start
        let end = start + count
        while index < end, let found = memchr(window.base + index, 0x0A, end - index) {
            lines += 1
            index = UnsafeRawPointer(window.base).distance(to: UnsafeRawPointer(found)) + 1
        }
        return lines
    }

    private mutating func store(_ slot: CSVFieldSlot, at index: Int) {
        if index == slotCapacity {
            let bigger = UnsafeMutablePointer<CSVFieldSlot>.allocate(capacity: slotCapacity * 2)
            bigger.moveInitialize(from: slots, count: slotCapacity)
            slots.deallocate()
            slots = bigger
            slotCapacity *= 2
        }
        (slots + index).initialize(to: slot)
    }

    // MARK: Completed records

    /// Makes doubled quotes single, in place, in every escaped field, and appends to a field the text that followed
    /// its closing quote (`tails`). Writes never overtake reads: each step drops at least the closing quote.
    /// (Mutating, though it changes only the window's bytes and the slots: a non-mutating call would copy the
    /// framer.)
    private mutating func unescape(fields: Int) {
        for index in 0..<fields where slots[index].escaped {
            let slot = slots[index]
            var read = slot.start
            var write = slot.start
            let end = slot.start + slot.count
            while read < end {
                let byte = window.base.load(fromByteOffset: read, as: UInt8.self)
                window.base.storeBytes(of: byte, toByteOffset: write, as: UInt8.self)
                write += 1
                read += byte == quote ? 2 : 1
            }
            if let tail = tails.first(where: { $0.field == index }) {
                let count = tail.end - tail.closingQuote - 1
                memmove(window.base + write, window.base + tail.closingQuote + 1, count)
                write += count
            }
            slots[index].count = write - slot.start
            slots[index].escaped = false
        }
    }

    /// Decodes every field that needs it per ``CSVOptions/encoding`` into the arena, as UTF-8.
    private mutating func decode(fields: Int, recordLength: Int) {
        let needed = recordLength * CSVTranscoding.maximumExpansion
        if needed > arenaCapacity {
            arena.deallocate()
            arenaCapacity = Swift.max(needed, arenaCapacity * 2)
            arena = .allocate(capacity: arenaCapacity)
        }
        let windows1252 = options.encoding != .latin1
        let keepsValidUTF8 = options.encoding == .utf8OrWindows1252
        var used = 0
        for index in 0..<fields {
            let slot = slots[index]
            let bytes = UnsafeRawBufferPointer(start: window.base + slot.start, count: slot.count)
            if UTF8Validation.isASCII(bytes) { continue }
            if keepsValidUTF8 && UTF8Validation.firstInvalidOffset(in: bytes) == nil { continue }
            let written = CSVTranscoding.decode(bytes, windows1252: windows1252, into: arena + used)
            slots[index] = CSVFieldSlot(
                start: used, count: written, quoted: slot.quoted, escaped: false, transcoded: true)
            used += written
            quirks.insert(.transcoded)
        }
    }

    private func field(containing position: Int, fields: Int) -> Int {
        var result = 0
        for index in 0..<fields where slots[index].start <= position { result = index }
        return result
    }

    /// The error for a malformed record, with line and column when a position is known.
    private func malformed(_ kind: StreamError.Kind, at position: Int?, field: Int?, recordStart: Int) -> StreamError {
        var error = StreamError(kind, input: input, line: line, field: field)
        if let position {
            let base = UnsafeRawPointer(window.base)
            var lineStart = recordStart
            var lineNumber = line
            var index = recordStart
            while index < position, let found = memchr(base + index, 0x0A, position - index) {
                index = base.distance(to: UnsafeRawPointer(found)) + 1
                lineStart = index
                lineNumber += 1
            }
            error.line = lineNumber
            error.column = position - lineStart + 1
        }
        if let field, let header, field - 1 < header.count { error.fieldName = header[field - 1] }
        return error
    }

    /// A malformed record: thrown when stopping, else skipped.
    private mutating func reject(
        _ error: StreamError, recordStart: Int, contentEnd: Int, next: Int,
        _ onSkipped: (StreamError, CSVHeader?) throws -> Void
    ) throws {
        if stopsAtMalformed { throw error }
        try skip(error, recordStart: recordStart, contentEnd: contentEnd, next: next, onSkipped)
    }

    /// Leaves a malformed record out: counts it, reports it, and moves past its line ending.
    private mutating func skip(
        _ error: StreamError, recordStart: Int, contentEnd: Int, next: Int,
        _ onSkipped: (StreamError, CSVHeader?) throws -> Void
    ) throws {
        line += 1 + countLineFeeds(from: recordStart, count: contentEnd - recordStart)
        window.start = next
        skipped += 1
        var error = error
        error.resumedAtLine = line
        options.reportSkippedRecord?(error)
        try onSkipped(error, header)
    }
}
