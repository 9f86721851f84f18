import Foundation
import SwitchyardTesting
import Synchronization
import Testing

@testable import Switchyard

@Suite("FileWriting: whole buffers to a descriptor, files replaced atomically")
struct FileWritingTests {
    private func folder(_ name: String = #function) throws -> String {
        let path = NSTemporaryDirectory() + "switchyard-filewriting-\(name.filter(\.isLetter))-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("writeAll writes every byte of a buffer larger than a pipe holds, through short writes")
    func writeAllThroughShortWrites() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // A pipe takes 64 KiB at a time: the writer loops while a reader, on a thread of its own, drains it.
        let received = CallbackExpectation("the reader read to the end")
        let reader = Mutex<[UInt8]>([])
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                reader.withLock { $0 += chunk[..<count] }
            }
            received.fulfill()
        }
        let written = try await BlockingExecutor.shared.run {
            defer { close(writeEnd) }
            return bytes.withUnsafeBytes { FileWriting.writeAll($0, to: writeEnd) }
        }
        #expect(written == bytes.count)
        #expect(await received.fulfillment(within: .seconds(30)).isSuccess)
        #expect(reader.withLock { $0 } == bytes)
        close(readEnd)
    }

    @Test("writeAll on a closed descriptor writes nothing and leaves errno set")
    func writeAllFailure() {
        let written = [UInt8](repeating: 1, count: 10).withUnsafeBytes { FileWriting.writeAll($0, to: -1) }
        let code = errno
        #expect(written == 0)
        #expect(code == EBADF)
    }

    @Test("replaceAtomically creates, then replaces, a file, leaving no temporary file behind")
    func replaces() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/report.txt"
        try await Self.replace(path, "first\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\n")
        try await Self.replace(path, "second, longer\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second, longer\n")
        try await Self.replace(path, "")
        // By size: FoundationEssentials' `Data(contentsOf:)` leaks its read buffer for an empty file.
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["report.txt"])
    }

    @Test("a failure names the path, the step and the reason, and leaves the old file and no temporary file")
    func failures() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = folder + "/no/such/folder/file"
        let created = await #expect(throws: FileWriteError.self) { try await Self.replace(missing, "x") }
        #expect(created?.step == "create")
        #expect(created?.code == ENOENT)
        #expect(created?.description == "\(missing): create failed (No such file or directory)")
        // A folder in the way: written and flushed, then the rename fails; the folder stays, the temporary goes.
        let occupied = folder + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied + "/inside", withIntermediateDirectories: true)
        let renamed = await #expect(throws: FileWriteError.self) { try await Self.replace(occupied, "x") }
        #expect(renamed?.step == "rename")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["occupied"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied) == ["inside"])
    }

    /// ``FileWriting/replaceAtomically(_:with:)`` on the blocking executor (it flushes to the disk), its error as
    /// thrown.
    private static func replace(_ path: String, _ text: String) async throws {
        let result = try await BlockingExecutor.shared.run {
            Result { () throws(FileWriteError) in try FileWriting.replaceAtomically(path, with: Array(text.utf8)) }
        }
        try result.get()
    }
}
