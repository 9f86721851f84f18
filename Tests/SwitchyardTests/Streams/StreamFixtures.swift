import Foundation
import Switchyard

/// A temporary file that tests read as a stream; removed when `remove()` is called (tests use `defer`).
struct TemporaryFile {
    let path: String

    init(_ bytes: [UInt8], name: String = "input") throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchyard-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    init(_ text: String, name: String = "input") throws {
        try self.init(Array(text.utf8), name: name)
    }

    /// Writes `count` blocks produced by `block(index)`, without holding the whole file in memory.
    init(blocks count: Int, name: String = "large", _ block: (Int) -> [UInt8]) throws {
        try self.init([UInt8](), name: name)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        for index in 0..<count { try handle.write(contentsOf: block(index)) }
    }

    var input: ByteInput { .file(path) }

    func remove() {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}

/// An `AsyncSequence` of byte buffers cut at the given sizes (cycled), for `ByteInput.sequence`.
struct CutBytes: AsyncSequence, Sendable {
    let bytes: [UInt8]
    let sizes: [Int]

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        let sizes: [Int]
        var offset = 0
        var turn = 0

        mutating func next() async -> [UInt8]? {
            guard offset < bytes.count else { return nil }
            let size = sizes[turn % sizes.count]
            turn += 1
            let end = Swift.min(bytes.count, offset + size)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, sizes: sizes) }
}

/// What a reference implementation says the lines of `bytes` are: split at `\n`, one `\r` before it dropped, a
/// final unterminated line kept, a leading BOM dropped.
func referenceLines(_ bytes: [UInt8], stripsBOM: Bool = true) -> [[UInt8]] {
    var bytes = bytes[...]
    if stripsBOM && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    for byte in bytes {
        if byte == 0x0A {
            if current.last == 0x0D { current.removeLast() }
            lines.append(current)
            current = []
        } else {
            current.append(byte)
        }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
}

/// Runs `body` as synchronous code, so the blocking (synchronous) overloads of the stream APIs are chosen even
/// inside an async test (async contexts prefer the asynchronous overloads).
@discardableResult
func synchronously<T>(_ body: () throws -> T) rethrows -> T { try body() }
