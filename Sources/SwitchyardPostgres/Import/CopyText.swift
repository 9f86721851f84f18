#if Postgres
    import PostgresNIO
    @_spi(ImportDestinations) import SwitchyardTransit

    /// Values in `COPY`'s text format: columns separated by tabs, rows by newlines, `\N` for NULL, and a backslash
    /// before a backslash, tab, newline or carriage return inside a value (written as `\\`, `\t`, `\n`, `\r`).
    enum CopyText {
        /// About how many bytes are sent to the server at a time.
        static let chunkSize = 32 * 1024

        /// How a column's integers are written.
        enum Form {
            /// As decimal numbers.
            case number
            /// A date column's `YYYYMMDD` as `YYYY-MM-DD`.
            case date
            /// A time column's seconds as `H:MM:SS` (an `interval`'s input).
            case interval
        }

        /// Appends `cell` (its text in `text`), an integer in the column's `form`.
        static func append(_ cell: RowBatch.Cell, text: [UInt8], form: Form, to buffer: inout ByteBuffer) {
            switch cell {
            case .null:
                buffer.writeStaticString("\\N")
            case .integer(let value) where form == .interval:
                if value < 0 { buffer.writeInteger(UInt8(ascii: "-")) }
                let seconds = value.magnitude
                appendDecimal(Int64(seconds / 3600), width: 1, to: &buffer)
                buffer.writeInteger(UInt8(ascii: ":"))
                appendDecimal(Int64(seconds / 60 % 60), width: 2, to: &buffer)
                buffer.writeInteger(UInt8(ascii: ":"))
                appendDecimal(Int64(seconds % 60), width: 2, to: &buffer)
            case .integer(let value) where form == .date:
                appendDecimal(value / 10_000, width: 4, to: &buffer)
                buffer.writeInteger(UInt8(ascii: "-"))
                appendDecimal(value / 100 % 100, width: 2, to: &buffer)
                buffer.writeInteger(UInt8(ascii: "-"))
                appendDecimal(value % 100, width: 2, to: &buffer)
            case .integer(let value):
                appendDecimal(value, width: 1, to: &buffer)
            case .real(let value):
                // Parsed values are finite; the spellings PostgreSQL reads are there all the same.
                if value.isNaN {
                    buffer.writeStaticString("NaN")
                } else if value.isInfinite {
                    buffer.writeString(value < 0 ? "-Infinity" : "Infinity")
                } else {
                    buffer.writeString(value.description)
                }
            case .text(let offset, let length):
                text.withUnsafeBufferPointer { bytes in
                    appendEscaped(UnsafeBufferPointer(rebasing: bytes[Int(offset)..<Int(offset + length)]), to: &buffer)
                }
            }
        }

        /// Appends one row of `_switchyard_import_problems` (file, line, field, severity, kind, reason).
        static func append(_ problem: ImportProblem, to buffer: inout ByteBuffer) {
            appendEscaped(problem.file, to: &buffer)
            buffer.writeInteger(UInt8(ascii: "\t"))
            appendDecimal(Int64(problem.line), width: 1, to: &buffer)
            buffer.writeInteger(UInt8(ascii: "\t"))
            if let field = problem.field { appendEscaped(field, to: &buffer) } else { buffer.writeStaticString("\\N") }
            for text in [problem.severity.rawValue, problem.kind.rawValue, problem.reason] {
                buffer.writeInteger(UInt8(ascii: "\t"))
                appendEscaped(text, to: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "\n"))
        }

        private static func appendEscaped(_ text: String, to buffer: inout ByteBuffer) {
            var text = text
            text.withUTF8 { appendEscaped($0, to: &buffer) }
        }

        /// Appends `bytes` with the four special bytes escaped, and a NUL byte (which no PostgreSQL text holds) as the
        /// two characters `\0`. Values never hold one (the reader removes them, with a warning); a problem's field
        /// name, read from a header, may.
        private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\t"): escape = "\\t"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case 0: escape = "\\\\0"
                default: continue
                }
                if index > start { buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                buffer.writeStaticString(escape)
                start = index + 1
            }
            if bytes.count > start { buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[start...])) }
        }

        /// Appends `value` in decimal, at least `width` digits (zero-padded), without allocating: most cells of a
        /// large file are integers.
        static func appendDecimal(_ value: Int64, width: Int, to buffer: inout ByteBuffer) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
                var magnitude = value.magnitude
                var start = digits.count
                repeat {
                    start -= 1
                    digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0 || digits.count - start < width
                if value < 0 {
                    start -= 1
                    digits[start] = UInt8(ascii: "-")
                }
                buffer.writeBytes(UnsafeBufferPointer(rebasing: digits[start...]))
            }
        }
    }
#endif
