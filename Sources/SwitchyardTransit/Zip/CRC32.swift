import CSwitchyardZlib

/// CRC-32 (the zip / gzip polynomial) through zlib's `crc32`, for inputs of any length.
package enum ZipCRC32 {
    /// Returns `crc` updated with `bytes`; start from 0. O(`bytes.count`), no allocation.
    package static func update(_ crc: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard var address = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return crc }
        var value = uLong(crc)
        var remaining = bytes.count
        while remaining > 0 {  // zlib takes a 32-bit length
            let chunk = min(remaining, ZipLimits.zlibChunk)
            value = crc32(value, address, uInt(chunk))
            address += chunk
            remaining -= chunk
        }
        return UInt32(truncatingIfNeeded: value)
    }
}
