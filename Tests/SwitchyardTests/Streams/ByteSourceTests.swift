import Switchyard
import Testing

/// A stateful pull source: the bytes of `text`, handed out `step` bytes per read.
private final class Dribble: ByteSource {
    private let bytes: [UInt8]
    private let step: Int
    private var offset = 0
    private(set) var reads = 0

    init(_ text: String, step: Int) {
        bytes = Array(text.utf8)
        self.step = step
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        reads += 1
        let count = min(step, buffer.count, bytes.count - offset)
        buffer.copyMemory(
            from: UnsafeRawBufferPointer(rebasing: bytes.withUnsafeBytes { $0 }[offset..<(offset + count)]))
        offset += count
        return count
    }
}

@Suite("ByteSource inputs")
struct ByteSourceTests {
    private static let csv = "a,b\n" + (0..<500).map { "\($0),\"x,\($0)\"\n" }.joined()

    @Test("a custom source read synchronously and asynchronously gives the same records", arguments: [1, 3, 64, 4096])
    func records(step: Int) async throws {
        let input = ByteInput.source(name: "dribble") { Dribble(Self.csv, step: step) }
        var synchronous: [String] = []
        _ = try synchronously { try CSVRecords(input).forEachRecordBlocking { synchronous.append($0[1].string) } }
        var asynchronous: [String] = []
        for try await record in CSVRecords(input) { asynchronous.append(record[1]) }
        #expect(synchronous.count == 500)
        #expect(synchronous == asynchronous)
        #expect(synchronous.last == "x,499")
    }

    @Test("errors from opening or reading a source are rethrown unchanged")
    func errors() async throws {
        struct Broken: Error {}
        let input = ByteInput.source(name: "broken") { throw Broken() }
        await #expect(throws: Broken.self) { for try await _ in Lines(input) {} }
        #expect(throws: Broken.self) { try synchronously { try Lines(input).forEachLineBlocking { _ in } } }
    }
}
