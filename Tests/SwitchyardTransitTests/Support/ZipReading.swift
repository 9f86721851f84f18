import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

/// Reads a whole entry through ``ZipArchive/openEntry(_:bufferSize:)``, `readSize` bytes at a time, and checks the
/// reader's count of bytes produced.
func readAll(
    _ archive: ZipArchive, _ entry: ZipEntry, readSize: Int = 65_536, bufferSize: Int = 64 * 1024
) throws -> [UInt8] {
    let reader = try archive.openEntry(entry, bufferSize: bufferSize)
    var buffer = [UInt8](repeating: 0, count: readSize)
    var result: [UInt8] = []
    while true {
        let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        if count == 0 { break }
        result += buffer[..<count]
    }
    #expect(reader.bytesProduced == UInt64(result.count))
    return result
}
