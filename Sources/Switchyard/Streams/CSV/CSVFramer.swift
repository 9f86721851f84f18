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

    enum Scan {
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
    var slots: UnsafeMutablePointer<CSVFieldSlot>
    var slotCapacity = 16
    /// Where fields decoded from another encoding go (``CSVFieldSlot/transcoded``); reused record to record.
    private(set) var arena: UnsafeMutablePointer<UInt8>
    var arenaCapacity = 256
    /// What the record being scanned held that the options tolerate.
    var quirks: CSVQuirks = []
    /// How many fields the last delivered record had in the input (fewer or more than delivered when ragged).
    private(set) var fieldsRead = 0
    /// Fields of the record being scanned with text after their closing quote (rare): the field, its closing
    /// quote, and where its text ends.
    var tails: [(field: Int, closingQuote: Int, end: Int)] = []
    /// Whether a field of the record being scanned holds doubled quotes or text after its closing quote.
    var hasEscapedFields = false
    private(set) var header: CSVHeader?
    var expectedFields: Int?
    /// The line the next record starts on.
    private(set) var line = 1
    private(set) var records = 0
    private(set) var skipped = 0
    private(set) var bytesRead = 0
    private(set) var inputEnded = false
    /// Until the input's first bytes are seen: whether they are a byte order mark.
    var atStart = true
    /// After a scan ran out of bytes: the window size worth scanning again at, unless a line ending arrives first.
    /// Rescanning a long record only when the window has doubled (or may hold its end) keeps the total rescanning
    /// linear in the record's length, however small the reads.
    var rescanAt: Int?
    var lineEndingArrived = false
    /// When the last scan ran out of input inside a quoted field: the opening quote and the field's number.
    var openQuote: (position: Int, field: Int)?
    let delimiter: UInt8
    let quote = UInt8(ascii: "\"")
    /// Bytes above this are never special in an unquoted field.
    let highestSpecial: UInt8
    let rejectsQuotesInUnquoted: Bool
    let acceptsTextAfterQuote: Bool
    /// Whether each record is checked (for UTF-8, NUL bytes and the encoding).
    let checksText: Bool

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
