#if Images
    /// Whether an encoded image ends where its container says it does.
    ///
    /// libvips 8.14 decodes a JPEG or PNG held in memory that ends early as if the rest were blank (a warning, not
    /// an error, whatever `fail_on` says), and so do browsers; a thumbnail of such a file shows a grey or
    /// transparent band. The pipeline refuses it instead, naming it truncated: JPEG without its end-of-image
    /// marker, PNG without its `IEND` chunk, GIF without its trailer, WebP shorter than its RIFF header declares.
    /// Other formats are left to their decoders. Trailing bytes after the end (padding, appended data) are
    /// tolerated, as every mainstream decoder does. - Complexity: O(1): it reads the first 12 and last 64 bytes.
    enum TruncationCheck {
        /// Why `head` (the first bytes) and `tail` (the last up to 64) of a `length`-byte image show it truncated,
        /// or nil.
        static func problem(head: ArraySlice<UInt8>, tail: ArraySlice<UInt8>, length: Int) -> String? {
            let head = Array(head)
            let tail = Array(tail)
            if head.starts(with: [0xFF, 0xD8, 0xFF]) {
                return contains(tail, [0xFF, 0xD9]) ? nil : "the JPEG data ends before its end-of-image marker"
            }
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                return contains(tail, Array("IEND".utf8)) ? nil : "the PNG data ends before its IEND chunk"
            }
            if head.starts(with: Array("GIF8".utf8)) {
                return tail.contains(0x3B) ? nil : "the GIF data ends before its trailer"
            }
            if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
                let declared = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
                return length >= declared + 8
                    ? nil : "the WebP data is \(length) bytes, its header says \(declared + 8)"
            }
            return nil
        }

        private static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
            guard bytes.count >= pattern.count else { return false }
            return (0...(bytes.count - pattern.count)).contains { Array(bytes[$0..<($0 + pattern.count)]) == pattern }
        }
    }
#endif
