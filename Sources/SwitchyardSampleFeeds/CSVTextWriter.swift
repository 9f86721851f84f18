import SwitchyardTransit

/// A fast builder of CSV text in one owned byte buffer: fields are appended as bytes (ASCII, integers, fixed-point
/// decimals, times, quoted text) and the caller drains the buffer whenever ``shouldDrain`` says so.
///
/// - Memory: one buffer of `2 × drainThreshold` bytes, allocated once. It grows (doubling) only if more than that is
///   appended between two drains, so a writer that is drained whenever ``shouldDrain`` is true never grows unless
///   a single record is longer than `drainThreshold`.
/// - Determinism: numbers are formatted with integer arithmetic only; the same calls give the same bytes everywhere.
/// - Cost: each append is O(length of what it writes); nothing rescans the buffer.
/// - Quoting follows RFC 4180: ``append(field:)`` quotes a field that contains `,`, `"`, CR or LF and doubles its
///   quotes; every other append writes its bytes verbatim.
///
/// Not thread-safe and not copyable: one writer belongs to one producer.
struct CSVTextWriter: ~Copyable {
    @usableFromInline internal var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline internal var capacity: Int
    @usableFromInline internal var used: Int
    /// The fill level at which ``shouldDrain`` becomes true.
    let drainThreshold: Int

    /// An empty writer that asks to be drained at `drainThreshold` bytes (default 64 KiB, at least 1).
    init(drainThreshold: Int = 64 * 1024) {
        precondition(drainThreshold > 0, "CSVTextWriter: the drain threshold must be positive, got \(drainThreshold)")
        self.drainThreshold = drainThreshold
        capacity = max(2 * drainThreshold, 256)
        storage = .allocate(capacity: capacity)
        used = 0
    }

    deinit {
        storage.deallocate()
    }

    /// The number of bytes appended since the last drain. O(1).
    var count: Int { used }

    /// Whether at least ``drainThreshold`` bytes wait to be drained. O(1).
    var shouldDrain: Bool { used >= drainThreshold }

    /// Calls `body` with the bytes appended since the last drain (valid only during the call), then empties the
    /// buffer, keeping its memory. If `body` throws, the bytes stay in the buffer. O(1) besides `body`.
    mutating func drain(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try body(UnsafeRawBufferPointer(start: storage, count: used))
        used = 0
    }

    /// Calls `body` with the bytes appended since the last drain, leaving them in place.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: used))
    }

    /// Drops everything appended since the last drain. O(1).
    mutating func removeAll() {
        used = 0
    }

    // MARK: Raw bytes

    /// Room for `byteCount` more bytes; returns where they go. The caller writes them and adds to `used`.
    @inlinable @inline(__always)
    internal mutating func reserve(_ byteCount: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity &- used < byteCount { grow(toHold: used + byteCount) }
        return storage + used
    }

    @usableFromInline
    internal mutating func grow(toHold minimum: Int) {
        let newCapacity = max(capacity * 2, minimum)
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: used)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Appends one byte.
    @inlinable
    mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        used &+= 1
    }

    /// Appends `,`.
    @inlinable
    mutating func appendComma() {
        append(UInt8(ascii: ","))
    }

    /// Appends `\n`, the end of a record.
    @inlinable
    mutating func appendNewline() {
        append(UInt8(ascii: "\n"))
    }

    /// Appends `bytes` verbatim (no quoting).
    @inlinable
    mutating func append(bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count > 0, let source = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(reserve(count)).copyMemory(from: source, byteCount: count)
        used &+= count
    }

    /// Appends a static string's UTF-8 verbatim (no quoting): headers, constant fields.
    @inlinable
    mutating func append(ascii text: StaticString) {
        precondition(
            text.hasPointerRepresentation, "CSVTextWriter.append(ascii:): the text must not be a scalar literal")
        append(bytes: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: Numbers and times

    /// The number of decimal digits of `value` (1 for 0).
    @inlinable
    internal static func digitCount(_ value: UInt64) -> Int {
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20 && value >= limit {
            digits &+= 1
            limit = limit &* 10
        }
        return digits
    }

    /// "00" "01" … "99": two digits per table lookup.
    @inlinable
    internal static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// Writes the two digits of `value` (0...99) at `target`.
    @inlinable @inline(__always)
    internal static func writePair(_ value: Int, to target: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        target[0] = pairs[2 &* value]
        target[1] = pairs[2 &* value &+ 1]
    }

    /// Appends `value` in decimal, left-padded with zeros to at least `minimumDigits` digits.
    @inlinable
    mutating func append(_ value: UInt64, minimumDigits: Int = 1) {
        let digits = max(Self.digitCount(value), minimumDigits)
        let target = reserve(digits)
        var rest = value
        var index = digits
        while rest >= 100 {
            let quotient = rest / 100
            index &-= 2
            Self.writePair(Int(truncatingIfNeeded: rest &- quotient &* 100), to: target + index)
            rest = quotient
        }
        if rest >= 10 {
            index &-= 2
            Self.writePair(Int(truncatingIfNeeded: rest), to: target + index)
        } else {
            index &-= 1
            target[index] = UInt8(truncatingIfNeeded: rest) &+ 0x30
        }
        while index > 0 {
            index &-= 1
            target[index] = 0x30
        }
        used &+= digits
    }

    /// Appends `value` in decimal (`-` first if negative), left-padded with zeros to `minimumDigits` digits.
    @inlinable
    mutating func append(_ value: Int, minimumDigits: Int = 1) {
        if value < 0 { append(UInt8(ascii: "-")) }
        append(UInt64(value.magnitude), minimumDigits: minimumDigits)
    }

    /// Appends `value / 10^fractionDigits` as a decimal with exactly `fractionDigits` digits after the point
    /// (`fixedPoint: 525200123, fractionDigits: 7` → `52.5200123`; `-5, 1` → `-0.5`). `fractionDigits` in 0...18.
    @inlinable
    mutating func append(fixedPoint value: Int, fractionDigits: Int) {
        precondition(
            (0...18).contains(fractionDigits), "CSVTextWriter: fractionDigits must be in 0...18, got \(fractionDigits)")
        if value < 0 { append(UInt8(ascii: "-")) }
        let magnitude = UInt64(value.magnitude)
        guard fractionDigits > 0 else { return append(magnitude) }
        var scale: UInt64 = 1
        for _ in 0..<fractionDigits { scale &*= 10 }
        append(magnitude / scale)
        append(UInt8(ascii: "."))
        append(magnitude % scale, minimumDigits: fractionDigits)
    }

    /// Appends a GTFS time, `HH:MM:SS`, of `seconds` after the start of the service day (noon minus 12 h); hours go
    /// past 24 (`90_780` → `25:13:00`) and take a third digit from 100 h. `seconds` ≥ 0.
    @inlinable
    mutating func append(time seconds: Int) {
        precondition(seconds >= 0, "CSVTextWriter.append(time:): the time must not be negative, got \(seconds)")
        let hours = seconds / 3600
        let minutes = (seconds / 60) % 60
        let secs = seconds % 60
        if hours >= 100 {
            append(UInt64(hours))
        } else {
            Self.writePair(hours, to: reserve(2))
            used &+= 2
        }
        let target = reserve(6)
        target[0] = UInt8(ascii: ":")
        Self.writePair(minutes, to: target + 1)
        target[3] = UInt8(ascii: ":")
        Self.writePair(secs, to: target + 4)
        used &+= 6
    }

    // MARK: Text fields

    /// Whether a field with these bytes must be quoted: it contains `,`, `"`, CR or LF. O(n).
    static func needsQuotes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D
        {
            return true
        }
        return false
    }

    /// Appends a text field given as UTF-8 bytes, quoted (with doubled quotes) only if ``needsQuotes(_:)``.
    mutating func append(field bytes: UnsafeRawBufferPointer) {
        guard Self.needsQuotes(bytes) else { return append(bytes: bytes) }
        append(UInt8(ascii: "\""))
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { append(UInt8(ascii: "\"")) }
            append(byte)
        }
        append(UInt8(ascii: "\""))
    }

    /// Appends a text field, quoted (with doubled quotes) only if it contains `,`, `"`, CR or LF. O(n).
    mutating func append(field text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append(field: UnsafeRawBufferPointer($0)) }
        if done == nil {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { append(field: $0) }
        }
    }
}
