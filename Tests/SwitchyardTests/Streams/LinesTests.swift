import Foundation
import SwitchyardTesting
import Testing

@testable import Switchyard

@Suite("Lines: line endings, chunk boundaries, limits, UTF-8, cancellation, memory")
struct LinesTests {
    /// Every line-ending and BOM case, as (input, lines, whether the last line is terminated).
    static let endingCases: [(String, [UInt8], [String], Bool)] = [
        ("empty input", [], [], true),
        ("one newline", Array("\n".utf8), [""], true),
        ("LF", Array("a\nbb\n".utf8), ["a", "bb"], true),
        ("CRLF", Array("a\r\nbb\r\n".utf8), ["a", "bb"], true),
        ("mixed LF and CRLF", Array("a\r\nb\nc\r\n".utf8), ["a", "b", "c"], true),
        ("no final newline", Array("a\nlast".utf8), ["a", "last"], false),
        ("blank lines", Array("\n\na\n\n".utf8), ["", "", "a", ""], true),
        ("CR CR LF keeps one CR", Array("a\r\r\n".utf8), ["a\r"], true),
        ("final CR without LF is content", Array("a\nb\r".utf8), ["a", "b\r"], false),
        ("lone CR is not a line ending", Array("a\rb\n".utf8), ["a\rb"], true),
        ("BOM stripped", [0xEF, 0xBB, 0xBF] + Array("a\nb".utf8), ["a", "b"], false),
        ("BOM only", [0xEF, 0xBB, 0xBF], [], true),
        ("BOM then newline", [0xEF, 0xBB, 0xBF, 0x0A], [""], true),
        ("partial BOM is data", [0xEF, 0xBB, 0x0A], ["\u{FFFD}"], true),
        (
            "BOM not at start is data", Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b\n".utf8), ["a", "\u{FEFF}b"],
            true
        ),
    ]

    @Test("line endings and BOMs, at every chunk size from 1 to 8", arguments: 0..<endingCases.count)
    func lineEndings(caseIndex: Int) async throws {
        let (name, bytes, expected, lastTerminated) = Self.endingCases[caseIndex]
        let file = try TemporaryFile(bytes)
        defer { file.remove() }
        for chunkSize in 1...8 {
            let options = LineOptions(chunkSize: chunkSize, invalidUTF8: .repair)
            var lines: [String] = []
            var terminated: [Bool] = []
            let summary = try synchronously {
                try Lines(file.input, options: options).forEachLineBlocking { line in
                    lines.append(try line.string())
                    terminated.append(line.isTerminated)
                    #expect(line.number == lines.count)
                }
            }
            #expect(lines == expected, "\(name), chunk size \(chunkSize)")
            #expect(summary.lines == expected.count)
            #expect(terminated.allSatisfy { $0 } == lastTerminated || expected.isEmpty, "\(name)")
            #expect(summary.terminatedLines == expected.count - (lastTerminated ? 0 : 1), "\(name)")
            var asyncLines: [String] = []
            for try await line in Lines(file.input, options: options) { asyncLines.append(line) }
            #expect(asyncLines == expected, "\(name), async, chunk size \(chunkSize)")
            var substrings: [String] = []
            let substringSummary = try synchronously {
                try Lines(file.input, options: options).forEachSubstringBlocking { substrings.append(String($0)) }
            }
            #expect(substrings == expected, "\(name), substrings, chunk size \(chunkSize)")
            #expect(substringSummary == summary, "\(name), substrings, chunk size \(chunkSize)")
        }
        let kept = try synchronously {
            try Lines(file.input, options: LineOptions(stripsByteOrderMark: false, invalidUTF8: .repair))
                .forEachLineBlocking { _ in }
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) && bytes.count > 3 { #expect(kept.lines >= 1) }
    }

    @Test("the BOM is kept when stripping is off")
    func bomKept() throws {
        let file = try TemporaryFile([0xEF, 0xBB, 0xBF] + Array("a\n".utf8))
        defer { file.remove() }
        var lines: [String] = []
        try Lines(file.input, options: LineOptions(stripsByteOrderMark: false)).forEachLineBlocking {
            lines.append(try $0.string())
        }
        #expect(lines == ["\u{FEFF}a"])
    }

    @Test("lines split across chunk boundaries at every offset match a reference split (sync, async, sequence)")
    func chunkBoundaries() async throws {
        var random = SeededRandomNumberGenerator.forTest("LinesTests.chunkBoundaries")
        let alphabet = Array("ab \r\n\n\r".utf8)
        for round in 0..<12 {
            let length = Int(random.next() % 90)
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let expected = referenceLines(bytes)
            let file = try TemporaryFile(bytes)
            defer { file.remove() }
            for chunkSize in 1...length + 1 {
                let options = LineOptions(chunkSize: chunkSize)
                var lines: [[UInt8]] = []
                try synchronously {
                    try Lines(file.input, options: options).forEachLineBlocking { lines.append(Array($0)) }
                }
                #expect(lines == expected, "round \(round), chunk \(chunkSize), input \(bytes)")
                var asyncLines: [[UInt8]] = []
                try await Lines(file.input, options: options).forEachLine { asyncLines.append(Array($0)) }
                #expect(asyncLines == expected, "round \(round), chunk \(chunkSize) (async)")
                var substrings: [[UInt8]] = []
                try await Lines(file.input, options: options).forEachSubstring { substrings.append(Array($0.utf8)) }
                #expect(substrings == expected, "round \(round), chunk \(chunkSize) (substrings)")
                var sequenceLines: [String] = []
                let cut = CutBytes(bytes: bytes, sizes: [chunkSize, 0, 1, chunkSize + 2])
                for try await line in Lines(.sequence(cut), options: options) { sequenceLines.append(line) }
                #expect(
                    sequenceLines == expected.map { String(decoding: $0, as: UTF8.self) }, "round \(round) (sequence)")
            }
        }
    }

    @Test("a line longer than the limit throws with its line number; a line at the limit is fine")
    func maximumLineLength() async throws {
        let text = "12345\n1234\r\n123456\nabc\n"  // line 3 is 6 bytes
        let file = try TemporaryFile(text)
        defer { file.remove() }
        for chunkSize in [1, 2, 3, 7, 64] {
            let options = LineOptions(chunkSize: chunkSize, maximumLineLength: 5)
            var seen: [String] = []
            let error = #expect(throws: StreamError.self) {
                try synchronously {
                    try Lines(file.input, options: options).forEachLineBlocking { seen.append(try $0.string()) }
                }
            }
            #expect(error?.kind == .lineTooLong(limit: 5), "chunk \(chunkSize)")
            #expect(error?.line == 3, "chunk \(chunkSize)")
            #expect(seen == ["12345", "1234"])
            #expect(error?.description == "\(file.path):3: line longer than the limit of 5 bytes")
            await #expect(throws: StreamError(.lineTooLong(limit: 5), input: file.path, line: 3)) {
                for try await _ in Lines(file.input, options: options) {}
            }
            var substrings: [String] = []
            await #expect(throws: StreamError(.lineTooLong(limit: 5), input: file.path, line: 3)) {
                try await Lines(file.input, options: options).forEachSubstring { substrings.append(String($0)) }
            }
            #expect(substrings.prefix(2) == ["12345", "1234"])
        }
    }

    @Test("the buffer never grows past the line limit, even for an endless line")
    func endlessLine() throws {
        let file = try TemporaryFile(blocks: 64) { _ in [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024) }
        defer { file.remove() }
        let error = #expect(throws: StreamError.self) {
            try Lines(file.input, options: LineOptions(chunkSize: 4096, maximumLineLength: 100_000)).forEachLineBlocking
            { _ in }
        }
        #expect(error?.kind == .lineTooLong(limit: 100_000))
        #expect(error?.line == 1)
    }

    @Test("invalid UTF-8 throws with line and column in the String tier, or is repaired")
    func invalidUTF8() async throws {
        let file = try TemporaryFile(Array("ok\nab".utf8) + [0xC3, 0x28] + Array("\nlast\n".utf8))
        defer { file.remove() }
        await #expect(throws: StreamError(.invalidUTF8, input: file.path, line: 2, column: 3)) {
            for try await _ in Lines(file.input) {}
        }
        await #expect(throws: StreamError(.invalidUTF8, input: file.path, line: 2, column: 3)) {
            try await Lines(file.input).forEachSubstring { _ in }
        }
        var repairedSubstrings: [String] = []
        try await Lines(file.input, options: LineOptions(invalidUTF8: .repair)).forEachSubstring {
            repairedSubstrings.append(String($0))
        }
        #expect(repairedSubstrings == ["ok", "ab\u{FFFD}(", "last"])
        var repaired: [String] = []
        for try await line in Lines(file.input, options: LineOptions(invalidUTF8: .repair)) { repaired.append(line) }
        #expect(repaired == ["ok", "ab\u{FFFD}(", "last"])
        var zeroCopyCount = 0
        try await Lines(file.input).forEachLine { _ in zeroCopyCount += 1 }  // bytes are not validated unless asked
        #expect(zeroCopyCount == 3)
    }

    @Test("a missing file throws openFailed naming the path")
    func missingFile() async throws {
        let error = #expect(throws: StreamError.self) {
            try synchronously { try Lines(.file("/nonexistent/switchyard/file.txt")).forEachLineBlocking { _ in } }
        }
        #expect(error?.input == "/nonexistent/switchyard/file.txt")
        if case .openFailed(let code, _)? = error?.kind {
            #expect(code == ENOENT)
        } else {
            Issue.record("\(String(describing: error))")
        }
        await #expect(throws: StreamError.self) {
            for try await _ in Lines(.file("/nonexistent/switchyard/file.txt")) {}
        }
    }

    @Test("synchronous reading rejects a sequence input with a clear error")
    func sequenceNeedsAsync() throws {
        let input = ByteInput.sequence(CutBytes(bytes: Array("a\n".utf8), sizes: [1]), name: "upload")
        #expect(throws: StreamError(.requiresAsynchronousReading, input: "upload")) {
            try Lines(input).forEachLineBlocking { _ in }
        }
    }

    @Test("a file descriptor input reads from its offset and is closed only when asked")
    func fileDescriptor() async throws {
        let file = try TemporaryFile("skip\nline 2\nline 3\n")
        defer { file.remove() }
        let descriptor = open(file.path, O_RDONLY)
        #expect(lseek(descriptor, 5, SEEK_SET) == 5)
        var lines: [String] = []
        for try await line in Lines(.fileDescriptor(descriptor)) { lines.append(line) }
        #expect(lines == ["line 2", "line 3"])
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)") == file.path,
            "still open")
        close(descriptor)
    }

    @Test("cancellation stops iteration before the next read")
    func cancellation() async throws {
        let file = try TemporaryFile(blocks: 16) { _ in Array(String(repeating: "line\n", count: 2000).utf8) }
        defer { file.remove() }
        let options = LineOptions(chunkSize: 1024)
        let started = CallbackExpectation("first line read")
        let task = Task {
            var count = 0
            for try await _ in Lines(file.input, options: options) {
                count += 1
                if count == 1 { started.fulfill() }
                if count == 300 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        let zeroCopy = Task {
            var count = 0
            try await Lines(file.input, options: options).forEachLine { _ in
                count += 1
                if count == 300 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { _ = try await zeroCopy.value }
        let sync = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try synchronously { try Lines(file.input, options: options).forEachLineBlocking { _ in } }
        }
        await #expect(throws: CancellationError.self) { _ = try await sync.value }
        await started.fulfillment(within: .seconds(30))
    }

    @Test("memory stays flat: a 64 MB input with 64 KiB chunks never grows the buffer")
    func flatMemory() async throws {
        let line = Array("20251121,stop_4711,08:15:00,08:16:00,12\n".utf8)  // 40 bytes
        let perBlock = (1 << 20) / line.count
        let block = Array([[UInt8]](repeating: line, count: perBlock).joined())
        let file = try TemporaryFile(blocks: 64) { _ in block }
        defer { file.remove() }
        var lines = 0
        let summary = try synchronously {
            try Lines(file.input, options: LineOptions(chunkSize: 64 * 1024)).forEachLineBlocking { _ in lines += 1 }
        }
        #expect(lines == 64 * perBlock)
        #expect(summary.bytes == 64 * block.count)
        #expect(summary.peakBufferBytes == 64 * 1024)
        let asyncSummary = try await Lines(file.input, options: LineOptions(chunkSize: 64 * 1024)).forEachLine { _ in }
        #expect(asyncSummary.peakBufferBytes == 64 * 1024)
        #expect(asyncSummary.lines == lines)
    }

    @Test("one line longer than a chunk grows the buffer only as far as that line needs")
    func bufferGrowsForLongLine() throws {
        let long = String(repeating: "x", count: 10_000)
        let file = try TemporaryFile("short\n\(long)\nshort\n")
        defer { file.remove() }
        var lengths: [Int] = []
        let summary = try Lines(file.input, options: LineOptions(chunkSize: 1024)).forEachLineBlocking {
            lengths.append($0.count)
        }
        #expect(lengths == [5, 10_000, 5])
        #expect(summary.peakBufferBytes == 16 * 1024)
    }
}

@Suite("Lines: isolation")
struct LinesIsolationTests {
    @MainActor
    @Test("iterating on the main actor stays on it between reads; bodies may touch main-actor state")
    func mainActorIteration() async throws {
        let file = try TemporaryFile(String(repeating: "x\n", count: 10_000))
        defer { file.remove() }
        var count = 0
        for try await _ in Lines(file.input, options: LineOptions(chunkSize: 512)) {
            MainActor.assertIsolated()
            count += 1
        }
        try await Lines(file.input, options: LineOptions(chunkSize: 512)).forEachLine { _ in
            MainActor.assertIsolated()
            count += 1
        }
        #expect(count == 20_000)
    }
}
