#if HTTP
    import NIOCore

    /// A request body sent in parts of ``size`` bytes: each part the client takes is activity for the attempt's idle
    /// timeout (``IdleWatch/activity()``), so the time a large body takes to go out is not a silence (and once the
    /// response's head came, a part taken while the reader holds the body back does not restart the wait). For
    /// bodies larger than one part; a smaller one is sent as it is.
    struct UploadParts: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        /// The bytes of one part (64 KiB).
        static var size: Int { 1 << 16 }

        let bytes: [UInt8]
        let idle: IdleWatch

        func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes, idle: idle) }

        struct Iterator: AsyncIteratorProtocol {
            let bytes: [UInt8]
            let idle: IdleWatch
            var offset = 0

            mutating func next() async -> ByteBuffer? {
                guard offset < bytes.count else { return nil }
                idle.activity()
                let end = Swift.min(offset + UploadParts.size, bytes.count)
                defer { offset = end }
                return ByteBuffer(bytes: bytes[offset..<end])
            }
        }
    }
#endif
