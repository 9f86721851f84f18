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
struct CSVFramer {
    enum Step {
        /// A record of `fields` fields (slots `0..<fields`), valid until the next call.
        case record(fields: Int, line: Int)
        /// Read more (or call `didRead(0)` at the end of the input).
        case needInput
        /// Every record has been returned.
        case end
    }

    private enum Scan {
        case record(fields: Int, next: Int, lines: Int)
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
    private let delimiter: UInt8
    private let quote = UInt8(ascii: "\"")
    /// Bytes above this are never special in an unquoted field.
    private let highestSpecial: UInt8
    private let rejectsQuotesInUnquoted: Bool

    init(options: CSVOptions, input: String) {
        self.options = options
        self.input = input
        window = ByteWindow(chunkSize: options.chunkSize, maximumCapacity: options.maximumRecordLength + 1)
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

    /// The next record, or what the framer needs. Malformed records are thrown or skipped per the options.
    /// Throws ``StreamError``.
    mutating func next() throws -> Step {
        while true {
            if byteOrderMarkPending {
                guard window.unconsumed >= 3 || inputEnded else { return .needInput }
                byteOrderMarkPending = false
                skipByteOrderMark()
            }
            let recordStart = window.start
            switch scan() {
            case .needInput:
                if window.unconsumed > options.maximumRecordLength {
                    throw StreamError(.recordTooLong(limit: options.maximumRecordLength), input: input, line: line)
                }
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
                guard let next = lineEnd(after: position) else { return .needInput }
                try reject(kind, at: position, field: field, recordStart: recordStart, next: next)
            case .record(let fields, let next, let lines):
                let recordLine = line
                if options.validatesUTF8, let bad = invalidUTF8(from: recordStart, to: next) {
                    try reject(.invalidUTF8, at: bad, field: field(containing: bad, fields: fields) + 1,
                               recordStart: recordStart, next: next)
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
                    try reject(kind, at: nil, field: nil, recordStart: recordStart, next: next)
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
        } else {
            window.didRead(count)
            bytesRead += count
        }
    }

    // MARK: Scanning

    /// Scans one record from `window.start` without consuming it, filling `slots`.
    private mutating func scan() -> Scan {
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
                        return inputEnded ? .malformed(.unterminatedQuote, at: opening, field: fields + 1) : .needInput
                    }
                    index = base.distance(to: UnsafeRawPointer(found))
                    if index + 1 == end && !inputEnded { return .needInput }
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
            if index == end { return .record(fields: fields, next: end, lines: lines) }
            if base.load(fromByteOffset: index, as: UInt8.self) == delimiter {
                index += 1
                continue
            }
            guard let next = lineEnding(at: index) else { return .needInput }
            return .record(fields: fields, next: next, lines: lines)
        }
    }

    /// The position after the line ending at `index` (`\n`, `\r\n`, `\r\r\n`, or a lone run of `\r`), or nil if
    /// more input is needed to tell.
    private func lineEnding(at index: Int) -> Int? {
        let base = UnsafeRawPointer(window.base)
        var next = index
        while next < window.end && base.load(fromByteOffset: next, as: UInt8.self) == 0x0D { next += 1 }
        if next < window.end {
            return base.load(fromByteOffset: next, as: UInt8.self) == 0x0A ? next + 1 : next
        }
        return inputEnded ? next : nil
    }

    /// The position after the first `\n` at or after `position` (where a malformed record is skipped to), the end
    /// of the input if there is none, or nil if more input is needed.
    private func lineEnd(after position: Int) -> Int? {
        let base = UnsafeRawPointer(window.base)
        if let found = memchr(base + position, 0x0A, window.end - position) {
            return base.distance(to: UnsafeRawPointer(found)) + 1
        }
        return inputEnded ? window.end : nil
    }

    private func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte == 0x09 && delimiter != 0x09)
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

    private mutating func skipByteOrderMark() {
        guard window.unconsumed >= 3 else { return }
        let bytes = UnsafeRawPointer(window.base + window.start)
        if bytes.load(as: UInt8.self) == 0xEF && bytes.load(fromByteOffset: 1, as: UInt8.self) == 0xBB
            && bytes.load(fromByteOffset: 2, as: UInt8.self) == 0xBF
        {
            window.start += 3
        }
    }

    /// Reports a malformed record (position-less for field-count errors) and skips to `next`, or throws.
    private mutating func reject(
        _ kind: StreamError.Kind, at position: Int?, field: Int?, recordStart: Int, next: Int
    ) throws {
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
        if options.hasHeader && header == nil || options.malformedRecords == .stop { throw error }
        line += 1 + countLineFeeds(from: recordStart, count: Swift.max(0, next - recordStart - 1))
        window.start = next
        skipped += 1
        options.reportSkippedRecord?(error)
    }
}
