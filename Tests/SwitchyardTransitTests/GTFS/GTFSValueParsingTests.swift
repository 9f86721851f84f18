import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("GTFS value parsing")
struct GTFSValueParsingTests {
    private func parse<T>(_ text: String, _ parser: (UnsafeRawBufferPointer) -> Result<T, ValueError>) -> T? {
        Array(text.utf8).withUnsafeBytes { try? parser($0).get() }
    }

    @Test("times: H:MM:SS and HH:MM:SS, hours past 24, as seconds")
    func times() {
        #expect(parse("8:05:00", GTFSValueParsing.time) == Int64(8 * 3600 + 5 * 60))
        #expect(parse("08:05:09", GTFSValueParsing.time) == Int64(8 * 3600 + 5 * 60 + 9))
        #expect(parse("00:00:00", GTFSValueParsing.time) == Int64(0))
        #expect(parse("25:13:00", GTFSValueParsing.time) == Int64(90780))
        #expect(parse("47:59:59", GTFSValueParsing.time) == Int64(47 * 3600 + 59 * 60 + 59))
        #expect(parse("123:00:01", GTFSValueParsing.time) == Int64(123 * 3600 + 1))
        #expect(parse(" 7:30:00 ", GTFSValueParsing.time) == Int64(7 * 3600 + 30 * 60))
        for bad in [
            "8:5:00", "08:60:00", "08:00:60", "0800:00", "8:05", "ab:cd:ef", "-1:00:00", "", "08:00:00:00", "8:05:0a",
        ] {
            #expect(parse(bad, GTFSValueParsing.time) == nil, "\(bad) should be rejected")
        }
        let short = { (text: String) in Array(text.utf8).withUnsafeBytes { GTFSValueParsing.timeWithoutSeconds($0) } }
        #expect(short("8:05") == 8 * 3600 + 5 * 60 && short(" 08:05 ") == 8 * 3600 + 5 * 60)
        #expect(short("25:13") == 25 * 3600 + 13 * 60 && short("0:00") == 0)
        #expect(short("123456:59") == Int64(123_456 * 3600 + 59 * 60))
        for bad in ["8:5", "8:60", ":05", "8:05:00", "1234567:00", "a:05", "8.05", "-1:00", "", "8:0a"] {
            #expect(short(bad) == nil, "\(bad) is not a time without seconds")
        }
    }

    @Test("dates: YYYYMMDD naming a day that exists")
    func dates() {
        for good in ["20250131", "20240229", "20000229", "20251231", "20250430", "20250228", "00010101", "99991231"] {
            #expect(parse(good, GTFSValueParsing.date) == Int64(good), "\(good) should be accepted")
        }
        for bad in [
            "2025013", "20251301", "20250100", "2025-01-31", "202501311", "abcdefgh",
            "20250229", "19000229", "20250431", "20240230", "20251132", "00000101", "00000000",
        ] {
            #expect(parse(bad, GTFSValueParsing.date) == nil, "\(bad) should be rejected")
        }
    }

    @Test("integers and reals")
    func numbers() {
        #expect(parse("42", GTFSValueParsing.integer) == 42)
        #expect(parse("-7", GTFSValueParsing.integer) == -7)
        #expect(parse(" 3 ", GTFSValueParsing.integer) == 3)
        #expect(parse("9223372036854775807", GTFSValueParsing.integer) == Int64.max)
        for bad in ["", "-", "1.5", "12a", "9223372036854775808"] {
            #expect(parse(bad, GTFSValueParsing.integer) == nil, "\(bad) should be rejected")
        }
        let integral = { (text: String) in Array(text.utf8).withUnsafeBytes { GTFSValueParsing.integralDecimal($0) } }
        #expect(integral("2.0") == 2 && integral(" -1.00 ") == -1 && integral("3.") == 3 && integral("+4.0") == 4)
        for bad in ["2.5", "2.01", ".0", "-.0", "2", "1e3", "2.0.0", "2,0", "", "2 .0", "2\t.0", "1.0e0"] {
            #expect(integral(bad) == nil, "\(bad) is not an integer written as a decimal")
        }
        #expect(parse("52.5200066", GTFSValueParsing.real) == 52.5200066)
        #expect(parse("-13.4", GTFSValueParsing.real) == -13.4)
        #expect(parse(".5", GTFSValueParsing.real) == 0.5)
        #expect(parse("1e3", GTFSValueParsing.real) == 1000)
        #expect(parse("0.1234567890123456789", GTFSValueParsing.real) == 0.1234567890123456789)
        #expect(parse("-1.5E-3", GTFSValueParsing.real) == -0.0015)
        #expect(parse("+2.", GTFSValueParsing.real) == 2)
        // Decimal only: `Double(String)` would take hexadecimal, infinities and NaN.
        for bad in [
            "", "north", "1.2.3", "-", ".", "0x10", "0X1p4", "inf", "-infinity", "nan", "1e", "1e+", "e5", "1e400",
            "1_000",
        ] {
            #expect(parse(bad, GTFSValueParsing.real) == nil, "\(bad) should be rejected")
        }
    }
}
