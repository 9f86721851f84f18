// libFuzzer entry point for the CSV and line framers. Built by `Fuzz/run-csv-fuzzer.sh` together with the
// framer sources themselves (no package build), so it reaches their internals.
//
// Each input's first two bytes choose the options (delimiter, trimming, header, stray quotes, chunk size, byte
// order mark, text after closing quotes, ragged records, encoding); the rest is the text, fed in chunks as the
// readers feed it. Checked on every input:
// - nothing crashes, in the stop and the skip policy, and every error is a `StreamError`;
// - every field lies inside the buffer, no accepted record is longer than the limit, and the buffer never grows
//   past the record limit (fixed memory);
// - a CSV input that parses cleanly parses to the same records again after being written back out fully quoted;
// - lines split by `LineFramer` equal a plain reference split of the same bytes.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 1 else { return 0 }
    let control = data[0]
    let more = data[1]
    let text = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    let delimiters: [UInt8] = [UInt8(ascii: ","), 0x09, UInt8(ascii: ";"), UInt8(ascii: "|")]
    let options = CSVOptions(
        delimiter: delimiters[Int(control & 3)], hasHeader: control & 4 != 0, trimsWhitespace: control & 8 != 0,
        quotesInUnquotedFields: control & 16 != 0 ? .allow : .reject,
        textAfterClosingQuote: more & 2 != 0 ? .accept : .reject, raggedRecords: more & 4 != 0 ? .accept : .reject,
        encoding: [.utf8, .utf8OrWindows1252, .windows1252, .latin1][Int(more >> 3) & 3],
        maximumRecordLength: 256, chunkSize: [1, 3, 16, 4096][Int(control >> 5) & 3])
    var skipping = options
    skipping.malformedRecords = .skip
    _ = parse(text, skipping)  // skipping must never crash or overrun, whatever it meets
    if let records = parse(text, options) {
        var written: [UInt8] = []
        if let header = records.header {
            written += encode(header.names.map { Array($0.utf8) }, delimiter: options.delimiter)
        }
        for record in records.rows { written += encode(record, delimiter: options.delimiter) }
        var roomy = options  // quoting every field makes records longer than the limit allowed
        roomy.maximumRecordLength = 1 << 16
        // Decoded fields are written back as UTF-8, which the fallback keeps as it is.
        if options.encoding != .utf8 { roomy.encoding = .utf8OrWindows1252 }
        guard let again = parse(written, roomy) else { fatalError("a written-back CSV did not parse") }
        precondition(again.rows == records.rows, "records changed after writing them back")
        precondition(again.header == records.header, "header changed after writing it back")
    }
    checkLines(text, chunkSize: [1, 3, 16, 4096][Int(control >> 5) & 3], stripsByteOrderMark: more & 1 != 0)
    return 0
}

/// Every record's fields as bytes, or nil if the input is malformed.
private func parse(_ text: [UInt8], _ options: CSVOptions) -> (header: CSVHeader?, rows: [[[UInt8]]])? {
    var framer = CSVFramer(options: options, input: "fuzz")
    var offset = 0
    var rows: [[[UInt8]]] = []
    do {
        while true {
            switch try framer.next() {
            case .record(let fields, let line):
                let view = framer.view(fields: fields, line: line)
                precondition(line >= 1)
                var row: [[UInt8]] = []
                // Decoding into UTF-8 makes a field at most three times longer.
                precondition(
                    view.reduce(0) { $0 + $1.bytes.count } <= 3 * options.maximumRecordLength,
                    "a record longer than the limit was accepted")
                precondition(
                    view.quirks.contains(.missingFields) == (view.fieldsRead < view.count),
                    "padding and its quirk disagree")
                for field in view {
                    let start = UnsafeRawPointer(
                        field.wasTranscoded ? UnsafeMutableRawPointer(framer.arena) : framer.window.base)
                    let capacity = field.wasTranscoded ? 3 * options.maximumRecordLength + 9 : framer.window.capacity
                    precondition(
                        field.bytes.isEmpty
                            || (field.bytes.baseAddress! >= start
                                && field.bytes.baseAddress! + field.bytes.count <= start + capacity),
                        "a field lies outside the buffer")
                    if field.wasTranscoded {
                        precondition(
                            UTF8Validation.firstInvalidOffset(in: field.bytes) == nil, "a decoded field is not UTF-8")
                    }
                    row.append(Array(field.bytes))
                    _ = field.string
                }
                rows.append(row)
            case .end:
                return (framer.header, rows)
            case .needInput:
                let space = try framer.spaceForRead()
                let count = min(space.count, text.count - offset)
                if count > 0 {
                    text.withUnsafeBytes {
                        space.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count)
                    }
                }
                offset += count
                framer.didRead(count)
            }
            precondition(
                framer.window.capacity <= Swift.max(options.chunkSize, options.maximumRecordLength + 3),
                "the buffer grew past the record limit")
        }
    } catch is StreamError {
        return nil
    } catch {
        fatalError("unexpected error type: \(error)")
    }
}

/// A record written with every field quoted and quotes doubled, ended by `\n`.
private func encode(_ fields: [[UInt8]], delimiter: UInt8) -> [UInt8] {
    var line: [UInt8] = []
    for (index, field) in fields.enumerated() {
        if index > 0 { line.append(delimiter) }
        line.append(UInt8(ascii: "\""))
        for byte in field {
            line.append(byte)
            if byte == UInt8(ascii: "\"") { line.append(byte) }
        }
        line.append(UInt8(ascii: "\""))
    }
    line.append(0x0A)
    return line
}

/// Lines from `LineFramer` (BOM kept, no length limit hit) against a plain split at `\n`.
private func checkLines(_ text: [UInt8], chunkSize: Int, stripsByteOrderMark: Bool) {
    var framer = LineFramer(
        options: LineOptions(
            chunkSize: chunkSize, maximumLineLength: 1 << 16,
            stripsByteOrderMark: stripsByteOrderMark), input: "fuzz")
    var offset = 0
    var lines: [[UInt8]] = []
    loop: while true {
        switch try! framer.next() {
        case .line(let bytes, _): lines.append(Array(bytes))
        case .end: break loop
        case .needInput:
            let space = try! framer.spaceForRead()
            let count = min(space.count, text.count - offset)
            if count > 0 {
                text.withUnsafeBytes { space.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            }
            offset += count
            framer.didRead(count)
        }
    }
    var expected: [[UInt8]] = []
    var current: [UInt8] = []
    let body = stripsByteOrderMark && text.starts(with: [0xEF, 0xBB, 0xBF]) ? text.dropFirst(3) : text[...]
    for byte in body {
        if byte == 0x0A {
            if current.last == 0x0D { current.removeLast() }
            expected.append(current)
            current = []
        } else {
            current.append(byte)
        }
    }
    if !current.isEmpty { expected.append(current) }
    precondition(lines == expected, "lines differ from a plain split")
}
