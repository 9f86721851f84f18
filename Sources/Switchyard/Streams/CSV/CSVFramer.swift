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
struct CSVFramer: InputFramer {
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
    private(set) var header: CSVHeader?
    private var expectedFields: Int?
    /// The line the next record starts on.
    private(set) var line = 1
    private(set) var records = 0
    private(set) var skipped = 0
    private(set) var bytesRead = 0
    private(set) var inputEnded = false
    private var byteOrderMarkPending: Bool
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

    init(options: CSVOptions, input: String) {
        self.options = options
        self.input = input
        window = ByteWindow(chunkSize: options.chunkSize, maximumCapacity: options.maximumRecordLength + 3)
        slots = .allocate(capacity: slotCapacity)
        byteOrderMarkPending = options.stripsByteOrderMark
        delimiter = options.delimiter
        rejectsQuotesInUnquoted = options.quotesInUnquotedFields == .reject
        highestSpecial = Swift.max(options.delimiter, 0x0D, rejectsQuotesInUnquoted ? UInt8(ascii: "\"") : 0)
    }

    func deallocate() {
        window.deallocate()
        slots.deallocate()
    }

    func summary(header: CSVHeader?) -> CSVSummary {
        CSVSummary(records: records, skippedRecords: skipped, lines: line - 1, bytes: bytesRead,
                   peakBufferBytes: window.peakCapacity, header: header)
    }

    /// A view of the record `next()` just returned.
    func view(fields: Int, line: Int) -> CSVRecordView {
        CSVRecordView(base: UnsafeRawPointer(window.base), slots: UnsafePointer(slots), count: fields, line: line,
                      header: header)
    }

    /// The next record, or what the framer needs. Malformed records are thrown or skipped per the options; each
    /// skipped record's error goes to ``CSVOptions/reportSkippedRecord``, then to `onSkipped` with the header.
    /// Throws ``StreamError``, or what `onSkipped` throws.
    mutating func next(onSkipped: (StreamError, CSVHeader?) throws -> Void = { _, _ in }) throws -> Step {
        while true {
            if byteOrderMarkPending {
                guard window.dropByteOrderMark(inputEnded: inputEnded) else { return .needInput }
                byteOrderMarkPending = false
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
                    // A skipping reader stuck in a quoted field that spans lines: most likely a stray quote, whose
                    // record ends at the line ending after it.
                    // (Before the end of the input, `resynchronize` finds a line ending only within the window.)
                    if !stopsAtMalformed, let quote = openQuote,
                        let (contentEnd, next) = resynchronize(after: quote.position)
                    {
                        let error = malformed(.strayQuote, at: quote.position, field: quote.field, recordStart: recordStart)
                        try skip(error, recordStart: recordStart, contentEnd: contentEnd, next: next, onSkipped)
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
                let recordLine = line
                guard contentEnd - recordStart <= options.maximumRecordLength else {
                    throw StreamError(.recordTooLong(limit: options.maximumRecordLength), input: input, line: line)
                }
                if options.validatesUTF8, let bad = invalidUTF8(from: recordStart, to: contentEnd) {
                    let error = malformed(.invalidUTF8, at: bad, field: field(containing: bad, fields: fields) + 1,
                                          recordStart: recordStart)
                    if stopsAtMalformed { throw error }
                    try skip(error, recordStart: recordStart, contentEnd: contentEnd, next: next, onSkipped)
                    continue
                }
                unescape(fields: fields)
                if options.hasHeader && header == nil {
                    header = CSVHeader(view(fields: fields, line: recordLine).strings())
                    expectedFields = fields
                    window.start = next
                    line += lines
                    continue
                }
                let expected = expectedFields ?? fields
                expectedFields = expected
                if fields != expected {
                    let kind: StreamError.Kind = fields < expected
                        ? .tooFewFields(expected: expected, found: fields)
                        : .tooManyFields(expected: expected, found: fields)
                    let error = malformed(kind, at: nil, field: nil, recordStart: recordStart)
                    if stopsAtMalformed { throw error }
                    try skip(error, recordStart: recordStart, contentEnd: contentEnd, next: next, onSkipped)
                    continue
                }
                window.start = next
                line += lines
                records += 1
                return .record(fields: fields, line: recordLine)
            }
        }
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
        let base = UnsafeRawPointer(window.base)
        let end = window.end
        var index = window.start
        if index == end { return inputEnded ? .end : .needInput }
        let lineFeed: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
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
                        if inputEnded { return .malformed(.unterminatedQuote, at: opening, field: fields + 1) }
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
                        index += 2
                        continue
                    }
                    break
                }
                slot.count = index - slot.start
                lines += countLineFeeds(from: slot.start, count: slot.count)
                index += 1
                if options.trimsWhitespace { index = skipBlanks(from: index, to: end) }
                if index == end && !inputEnded { return .needInput }
                if index < end {
                    let byte = base.load(fromByteOffset: index, as: UInt8.self)
                    if byte != delimiter && byte != lineFeed && byte != carriageReturn {
                        if spansLines(from: slot.start, to: slot.start + slot.count) {
                            return .malformed(.strayQuote, at: opening, field: fields + 1)
                        }
                        return .malformed(.textAfterClosingQuote, at: index, field: fields + 1)
                    }
                }
            } else {
                let highest = highestSpecial
                while index < end {
                    let byte = base.load(fromByteOffset: index, as: UInt8.self)
                    if byte > highest { index += 1; continue }
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

    /// The position after the one line ending at `index`: `\n`, `\r\n`, `\r\r\n`, or a single `\r`; nil if more
    /// input is needed to tell.
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
        if let found = memchr(base + position, 0x0A, end - position) { terminator = base.distance(to: UnsafeRawPointer(found)) }
        if let found = memchr(base + position, 0x0D, terminator - position) {
            terminator = base.distance(to: UnsafeRawPointer(found))
        }
        if terminator == end { return inputEnded ? (end, end) : nil }
        return lineEnding(at: terminator).map { (terminator, $0) }
    }

    /// Whether bytes `start..<end` hold a line ending.
    private func spansLines(from start: Int, to end: Int) -> Bool {
        let base = UnsafeRawPointer(window.base)
        return memchr(base + start, 0x0A, end - start) != nil || memchr(base + start, 0x0D, end - start) != nil
    }

    private func isBlank(_ byte: UInt8) -> Bool {
        (byte == 0x20 || byte == 0x09) && byte != delimiter
    }

    private func skipBlanks(from start: Int, to end: Int) -> Int {
        var index = start
        while index < end && isBlank(window.base.load(fromByteOffset: index, as: UInt8.self)) { index += 1 }
        return index
    }

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

    /// Makes doubled quotes single, in place, in every escaped field.
    private func unescape(fields: Int) {
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
            slots[index].count = write - slot.start
            slots[index].escaped = false
        }
    }

    private func invalidUTF8(from start: Int, to end: Int) -> Int? {
        let bytes = UnsafeRawBufferPointer(start: window.base + start, count: end - start)
        if UTF8Validation.isASCII(bytes) { return nil }
        return UTF8Validation.firstInvalidOffset(in: bytes).map { start + $0 }
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

    /// Leaves a malformed record out: counts it, reports it, and moves past its line ending.
    private mutating func skip(
        _ error: StreamError, recordStart: Int, contentEnd: Int, next: Int,
        _ onSkipped: (StreamError, CSVHeader?) throws -> Void
    ) throws {
        line += 1 + countLineFeeds(from: recordStart, count: contentEnd - recordStart)
        window.start = next
        skipped += 1
        options.reportSkippedRecord?(error)
        try onSkipped(error, header)
    }
}
