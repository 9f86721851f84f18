#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Scanning one record in the window, without consuming it: the framer's inner loop.
extension CSVFramer {
    /// Scans one record from `window.start` without consuming it, filling `slots`.
    mutating func scan() -> Scan {
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
            let scanned =
                index < end && base.load(fromByteOffset: index, as: UInt8.self) == quote
                ? scanQuotedField(opening: index, field: fields, lines: &lines)
                : scanUnquotedField(start: index, field: fields)
            switch scanned {
            case .stop(let result): return result
            case .field(let slot, let next):
                store(slot, at: fields)
                index = next
            }
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

    /// How scanning one field ended: the field and the index after it (its delimiter or line ending, or the
    /// window's end), or the result of the whole scan (more input needed, a malformed record).
    private enum FieldScan {
        case field(CSVFieldSlot, next: Int)
        case stop(Scan)
    }

    /// Scans the quoted field whose opening quote is at `opening`: up to its closing quote (doubled quotes
    /// escape), then what the options allow after it. Adds the line feeds inside it to `lines`.
    @inline(__always)
    private mutating func scanQuotedField(opening: Int, field fields: Int, lines: inout Int) -> FieldScan {
        let base = UnsafeRawPointer(window.base)
        let end = window.end
        var index = opening + 1
        var slot = CSVFieldSlot(start: index, count: 0, quoted: true, escaped: false)
        while true {
            guard let found = memchr(base + index, Int32(quote), end - index) else {
                if inputEnded {
                    // Lines after an opening quote that never closes: a stray quote, which costs its own
                    // line only (as when the field runs past the record limit).
                    let kind: StreamError.Kind = linesFollow(opening) ? .strayQuote : .unterminatedQuote
                    return .stop(.malformed(kind, at: opening, field: fields + 1))
                }
                openQuote = (opening, fields + 1)
                return .stop(.needInput)
            }
            index = base.distance(to: UnsafeRawPointer(found))
            if index + 1 == end && !inputEnded {
                openQuote = (opening, fields + 1)
                return .stop(.needInput)
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
        if index == end && !inputEnded { return .stop(.needInput) }
        if index < end && !endsField(at: index) {
            if spansLines(from: slot.start, to: slot.start + slot.count) {
                return .stop(.malformed(.strayQuote, at: opening, field: fields + 1))
            }
            guard acceptsTextAfterQuote else {
                return .stop(.malformed(.textAfterClosingQuote, at: index, field: fields + 1))
            }
            switch textAfterQuote(closing: closing, from: index, field: fields) {
            case nil: return .stop(.needInput)
            case let after?:
                index = after
                if !tails.isEmpty && tails[tails.count - 1].field == fields {
                    slot.escaped = true
                    hasEscapedFields = true
                }
            }
        }
        return .field(slot, next: index)
    }

    /// Scans the unquoted field starting at `start`, up to a delimiter or line ending (bytes above every special
    /// byte are skipped with one comparison each), trimming trailing blanks if the options say so.
    @inline(__always)
    private func scanUnquotedField(start: Int, field fields: Int) -> FieldScan {
        let base = UnsafeRawPointer(window.base)
        let end = window.end
        let lineFeed: UInt8 = 0x0A
        let carriageReturn: UInt8 = 0x0D
        let highest = highestSpecial
        var index = start
        while index < end {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte > highest {
                index += 1
                continue
            }
            if byte == delimiter || byte == lineFeed || byte == carriageReturn { break }
            if byte == quote && rejectsQuotesInUnquoted {
                return .stop(.malformed(.quoteInUnquotedField, at: index, field: fields + 1))
            }
            index += 1
        }
        if index == end && !inputEnded { return .stop(.needInput) }
        var fieldEnd = index
        if options.trimsWhitespace {
            while fieldEnd > start && isBlank(base.load(fromByteOffset: fieldEnd - 1, as: UInt8.self)) {
                fieldEnd -= 1
            }
        }
        return .field(CSVFieldSlot(start: start, count: fieldEnd - start, quoted: false, escaped: false), next: index)
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
    func resynchronize(after position: Int) -> (contentEnd: Int, next: Int)? {
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
    func countLineFeeds(from start: Int, count: Int) -> Int {
        var lines = 0
        var index = start
        let end = start + count
        while index < end, let found = memchr(window.base + index, 0x0A, end - index) {
            lines += 1
            index = UnsafeRawPointer(window.base).distance(to: UnsafeRawPointer(found)) + 1
        }
        return lines
    }

    mutating func store(_ slot: CSVFieldSlot, at index: Int) {
        if index == slotCapacity {
            let bigger = UnsafeMutablePointer<CSVFieldSlot>.allocate(capacity: slotCapacity * 2)
            bigger.moveInitialize(from: slots, count: slotCapacity)
            slots.deallocate()
            slots = bigger
            slotCapacity *= 2
        }
        (slots + index).initialize(to: slot)
    }
}
