#if Images
    /// Whether an encoded image ends where its container says it does.
    ///
    /// libvips 8.14 decodes a JPEG or PNG held in memory that ends early as if the rest were blank (a warning, not
    /// an error, whatever `fail_on` says), and so do browsers; a thumbnail of such a file shows a grey or
    /// transparent band. The pipeline refuses it instead, naming it truncated: JPEG without its end-of-image
    /// marker, PNG without its `IEND` chunk, GIF without its trailer, WebP shorter than its RIFF header declares.
    /// Other formats are left to their decoders. Bytes after the end (padding, a phone's trailer, a motion photo's
    /// video) are tolerated, as every mainstream decoder does: the end marker is searched backwards through the
    /// tail it is given (a whole in-memory image; a file's last MiB, past which a file is left to libvips, whose
    /// file loader reports truncation itself). - Complexity: O(the tail's length).
    enum TruncationCheck {
        /// Why `head` (the first bytes) and `tail` (the last bytes, as many as the caller read) of a `length`-byte
        /// image show it truncated, or nil. `tailIsWhole` says whether `tail` holds all of the image after its head:
        /// when it does not, an end marker missing from it proves nothing and is not reported.
        static func problem(
            head: ArraySlice<UInt8>, tail: ArraySlice<UInt8>, length: Int, tailIsWhole: Bool = true
        ) -> String? {
            let head = Array(head)
            let tail = Array(tail)
            if !tailIsWhole { return endMarkerProblem(head, tail) == nil ? nil : webPProblem(head, length) }
            return endMarkerProblem(head, tail) ?? webPProblem(head, length)
        }

        /// A JPEG, PNG or GIF without its end marker in `tail`.
        private static func endMarkerProblem(_ head: [UInt8], _ tail: [UInt8]) -> String? {
            if head.starts(with: [0xFF, 0xD8, 0xFF]) {
                return contains(tail, [0xFF, 0xD9]) ? nil : "the JPEG data ends before its end-of-image marker"
            }
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                return contains(tail, Array("IEND".utf8)) ? nil : "the PNG data ends before its IEND chunk"
            }
            if head.starts(with: Array("GIF8".utf8)) {
                return tail.suffix(64).contains(0x3B) ? nil : "the GIF data ends before its trailer"
            }
            return nil
        }

        /// A WebP shorter than its RIFF header declares.
        private static func webPProblem(_ head: [UInt8], _ length: Int) -> String? {
            if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
                let declared = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
                return length >= declared + 8
                    ? nil : "the WebP data is \(length) bytes, its header says \(declared + 8)"
            }
            return nil
        }

        /// Whether `pattern` occurs in `bytes`, searched from the end (where an end marker is).
        private static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
            guard bytes.count >= pattern.count else { return false }
            return stride(from: bytes.count - pattern.count, through: 0, by: -1).contains { start in
                pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] }
            }
        }
    }
#endif
