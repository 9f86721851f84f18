#if HTTP
    /// What a download did.
    public struct DownloadResult: Sendable, Hashable {
        /// How the file came to be current.
        public enum Outcome: Sendable, Hashable {
            /// Downloaded whole.
            case downloaded
            /// Completed from a partial file of this many bytes (`Range` + `If-Range`).
            case resumed(fromByte: Int64)
            /// The server said the file is current (`304 Not Modified`); it was left as it was.
            case unchanged
        }

        /// The destination path.
        public var path: String
        /// How.
        public var outcome: Outcome
        /// The file's size.
        public var size: Int64
        /// The validators of the file now at `path` (keep them for the next ``HTTPSession/download(_:to:ifChanged:checksum:progress:resumesPartialFile:syncsToDisk:)``).
        public var validators: HTTPValidators
        /// The file's SHA-256 in lower-case hex, when the download was asked for a ``DownloadChecksum`` and wrote the
        /// file (nil for ``Outcome/unchanged``).
        public var sha256: String? = nil
    }

    /// A download's SHA-256: computed over the complete file before it gets its final name, reported in
    /// ``DownloadResult/sha256``, and checked when an expected digest is given.
    ///
    /// A mismatch removes the partial file; a resumed download that mismatches is downloaded once more in full (the
    /// server may have changed the resource under the same validators), a full download that mismatches fails with
    /// ``HTTPError/Reason/checksumMismatch(expected:actual:)``. Computing it reads the file once more, on the blocking
    /// executor (the pages just written are usually still cached).
    public struct DownloadChecksum: Sendable, Hashable {
        /// The expected digest in lower-case hex, or nil to compute and report it only.
        public private(set) var expectedSHA256: String?

        /// Computes the file's SHA-256, and checks it against `expected` when given (64 hex digits, either case; a
        /// download with anything else fails before its request with ``HTTPError/Reason/invalidChecksum(_:)``).
        public static func sha256(expected: String? = nil) -> DownloadChecksum {
            DownloadChecksum(expectedSHA256: expected?.lowercased())
        }

        /// Why the expected digest cannot be one (not 64 hex digits), or nil: for checking input (a list line, an
        /// argument) before any download.
        public var problem: String? {
            guard let expected = expectedSHA256 else { return nil }
            let valid =
                expected.utf8.count == 64
                && expected.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
            return valid ? nil : "an expected SHA-256 is 64 hex digits, not \"\(expected)\""
        }
    }
#endif
