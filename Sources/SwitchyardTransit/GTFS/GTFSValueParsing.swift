/// Parsers for GTFS field values, straight from the bytes of a CSV field (no `String` is made).
///
/// Each returns the value, or a reason (`"'8:5:00' is not a time (H:MM:SS)"`) that the importer reports with the
/// file, line and field. Leading and trailing spaces are ignored for every typed value.
enum GTFSValueParsing {
    /// `H:MM:SS`, `HH:MM:SS` or more hour digits (hours past 24 are valid), minutes and seconds `00`–`59`,
    /// as seconds: `H × 3600 + MM × 60 + SS`.
    static func time(_ bytes: UnsafeRawBufferPointer) -> Result<Int64, ValueError> {
        let field = trimmed(bytes)
        let count = field.count
        // At least H:MM:SS (7 bytes); at most 6 hour digits.
        guard count >= 7, count <= 12,
            field[count - 3] == UInt8(ascii: ":"), field[count - 6] == UInt8(ascii: ":"),
            let minutes = twoDigits(field[count - 5], field[count - 4]), minutes < 60,
            let seconds = twoDigits(field[count - 2], field[count - 1]), seconds < 60
        else { return .failure(ValueError(field, "is not a time (H:MM:SS)")) }
        var hours: Int64 = 0
        for index in 0..<(count - 6) {
            let digit = field[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return .failure(ValueError(field, "is not a time (H:MM:SS)")) }
            hours = hours * 10 + Int64(digit)
        }
        return .success(hours * 3600 + minutes * 60 + seconds)
    }

    /// A time written without seconds — `8:05`, `08:05`, `25:13` — as some hand-made feeds do: its seconds at
    /// `:00`. nil for anything else (``time(_:)``'s reason stands).
    static func timeWithoutSeconds(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let field = trimmed(bytes)
        let count = field.count
        // At least H:MM (4 bytes); at most 6 hour digits, as `time` allows.
        guard count >= 4, count <= 9, field[count - 3] == UInt8(ascii: ":"),
            let minutes = twoDigits(field[count - 2], field[count - 1]), minutes < 60
        else { return nil }
        var hours: Int64 = 0
        for index in 0..<(count - 3) {
            let digit = field[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            hours = hours * 10 + Int64(digit)
        }
        return hours * 3600 + minutes * 60
    }

    /// `YYYYMMDD` naming a day that exists (years 0001–9999; February 29 only in leap years), as the number
    /// `YYYYMMDD`.
    static func date(_ bytes: UnsafeRawBufferPointer) -> Result<Int64, ValueError> {
        let field = trimmed(bytes)
        guard field.count == 8 else { return .failure(ValueError(field, "is not a date (YYYYMMDD)")) }
        var value: Int64 = 0
        for byte in field {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return .failure(ValueError(field, "is not a date (YYYYMMDD)")) }
            value = value * 10 + Int64(digit)
        }
        let year = value / 10_000
        let month = value / 100 % 100
        let day = value % 100
        guard year >= 1, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else {
            return .failure(ValueError(field, "is not a date (YYYYMMDD): no such day"))
        }
        return .success(value)
    }

    /// The number of days of `month` (1–12) in `year` (Gregorian).
    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// An optionally signed decimal integer that fits in 64 bits.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Result<Int64, ValueError> {
        let field = trimmed(bytes)
        let (negative, start) = sign(of: field)
        var index = start
        guard index < field.count else { return .failure(ValueError(field, "is not an integer")) }
        var value: Int64 = 0
        while index < field.count {
            let digit = field[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return .failure(ValueError(field, "is not an integer")) }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return .failure(ValueError(field, "is out of the integer range")) }
            value = sum
            index += 1
        }
        return .success(negative ? -value : value)
    }

    /// An integer written as a decimal whose fraction is zeros — `2.0`, `-1.00`, `3.` — as pandas writes an integer
    /// column that has empty values: that integer. nil for anything else (``integer(_:)``'s reason stands).
    static func integralDecimal(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let field = trimmed(bytes)
        // A digit right before the point: `2 .0` is no number, and `integer` would trim the space away.
        guard let point = field.firstIndex(of: UInt8(ascii: ".")), point > 0,
            field[point - 1] &- UInt8(ascii: "0") < 10,
            field[(point + 1)...].allSatisfy({ $0 == UInt8(ascii: "0") }),
            case .success(let value) = integer(UnsafeRawBufferPointer(rebasing: field[..<point]))
        else { return nil }
        return value
    }

    /// A decimal number: `-12.5`, `52.5200066`, `.5`, `1e3` — an optional sign, digits with an optional point,
    /// an optional exponent; nothing else (no hexadecimal, `inf` or `nan`, which `Double(String)` would take).
    /// Plain decimals of up to 15 significant digits take an exact fast path (the value is correctly rounded);
    /// other decimals go through `Double(String)`.
    static func real(_ bytes: UnsafeRawBufferPointer) -> Result<Double, ValueError> {
        let field = trimmed(bytes)
        let (negative, start) = sign(of: field)
        var index = start
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var sawDigit = false
        var fastPath = true
        while index < field.count {
            let byte = field[index]
            if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                sawDigit = true
                if digits > 0 || byte != UInt8(ascii: "0") { digits += 1 }
                mantissa = mantissa &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
                if seenPoint { fractionDigits += 1 }
            } else {
                fastPath = false
                break
            }
            index += 1
        }
        if fastPath, sawDigit, digits <= 15, fractionDigits <= 22 {
            let value = Double(mantissa) / powersOfTen[fractionDigits]
            return .success(negative ? -value : value)
        }
        guard isDecimal(field) else { return .failure(ValueError(field, "is not a number")) }
        let text = String(decoding: field, as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return .failure(ValueError(field, "is not a number")) }
        return .success(value)
    }

    /// Whether `field` is `[+-]? (D+ (. D*)? | . D+) ([eE] [+-]? D+)?`.
    private static func isDecimal(_ field: UnsafeRawBufferPointer) -> Bool {
        var index = sign(of: field).digitsStart
        func digits() -> Int {
            let start = index
            while index < field.count, field[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - start
        }
        var mantissaDigits = digits()
        if index < field.count, field[index] == UInt8(ascii: ".") {
            index += 1
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if index < field.count, field[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < field.count, field[index] == UInt8(ascii: "+") || field[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == field.count
    }

    /// Whether the field is empty or only spaces (such a value is `NULL`).
    static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        trimmed(bytes).isEmpty
    }

    // MARK: Helpers

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Whether `field` starts with `-`, and where its digits start (after a `-` or `+`).
    private static func sign(of field: UnsafeRawBufferPointer) -> (negative: Bool, digitsStart: Int) {
        guard let first = field.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") else {
            return (false, 0)
        }
        return (first == UInt8(ascii: "-"), 1)
    }

    private static func twoDigits(_ high: UInt8, _ low: UInt8) -> Int64? {
        let tens = high &- UInt8(ascii: "0")
        let ones = low &- UInt8(ascii: "0")
        guard tens < 10, ones < 10 else { return nil }
        return Int64(tens) * 10 + Int64(ones)
    }

    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}

/// Why a value was rejected: the value (shortened) and what is wrong with it.
struct ValueError: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ value: UnsafeRawBufferPointer, _ problem: String) {
        let text = String(decoding: value.prefix(40), as: UTF8.self)
        description = "'\(text)\(value.count > 40 ? "…" : "")' \(problem)"
    }
}
