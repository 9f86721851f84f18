#if HTTP
    @testable import SwitchyardHTTP
    import Testing

    @Suite("SHA256Hasher: known answers, whatever the pieces")
    struct SHA256HasherTests {
        /// The digests, computed apart (`sha256sum`), not by the code under test.
        static let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        static let mebibyteOfZeros = "30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58"

        /// The digest of `bytes` fed in pieces of the given sizes (cycled), an empty piece before each.
        static func digest(_ bytes: [UInt8], pieces: [Int]) -> String {
            var hasher = SHA256Hasher()
            bytes.withUnsafeBytes { all in
                var offset = 0
                var next = 0
                while offset < all.count {
                    hasher.update(UnsafeRawBufferPointer(rebasing: all[offset..<offset]))
                    let size = min(pieces[next % pieces.count], all.count - offset)
                    hasher.update(UnsafeRawBufferPointer(rebasing: all[offset..<offset + size]))
                    offset += size
                    next += 1
                }
            }
            return hasher.finish()
        }

        @Test("no input")
        func emptyInput() {
            #expect(SHA256Hasher().finish() == Self.empty)
            #expect(Self.digest([], pieces: [1]) == Self.empty)
        }

        @Test("\"abc\" (FIPS 180-2's first example), whole and byte by byte")
        func abc() {
            #expect(Self.digest(Array("abc".utf8), pieces: [3]) == Self.abc)
            #expect(Self.digest(Array("abc".utf8), pieces: [1]) == Self.abc)
        }

        @Test(
            "1 MiB of zeros, whole and in odd pieces that straddle the 64-byte blocks",
            arguments: [[1 << 20], [1, 3, 7, 63, 65, 4_097], [127], [65_537, 1]])
        func mebibyteOfZeros(pieces: [Int]) {
            #expect(Self.digest([UInt8](repeating: 0, count: 1 << 20), pieces: pieces) == Self.mebibyteOfZeros)
        }
    }
#endif
