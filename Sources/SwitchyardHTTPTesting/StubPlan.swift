#if HTTP || Push
    /// The bytes one response sends, once its range and conditions are applied to the route's ``StubResponse``.
    struct StubPlan: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var chunks: [[UInt8]]
        var length: Int
        var dropAfterBytes: Int?
        var dropGate: StubGate?
        var dripInterval: Duration?

        init(request: StubRequest, response: StubResponse) {
            status = response.status
            headers = response.headers
            chunks = response.chunks
            dropAfterBytes = response.dropAfterBytes
            dropGate = response.dropGate
            dripInterval = response.dripInterval
            let total = response.chunks.reduce(0) { $0 + $1.count }
            length = total
            if response.status == 200, response.honoursConditions, Self.notModified(request, response) {
                status = 304
                chunks = []
                length = 0
                dropAfterBytes = nil
            } else if response.status == 200, response.honoursRanges, let start = Self.rangeStart(request, response),
                start < total
            {
                status = 206
                chunks = Self.suffix(of: response.chunks, from: start)
                length = total - start
                headers.append(("content-range", "bytes \(start)-\(total - 1)/\(total)"))
                dropAfterBytes = dropAfterBytes.map { max(0, $0 - start) }
            }
            if request.method == "HEAD" { chunks = [] }
        }

        /// The first byte a `Range: bytes=N-` (or `bytes=N-M`, served to the end) asks for, if `If-Range` (when sent)
        /// names the response's current validator.
        private static func rangeStart(_ request: StubRequest, _ response: StubResponse) -> Int? {
            guard let range = request.header("range"), range.hasPrefix("bytes=") else { return nil }
            if let condition = request.header("if-range"),
                condition != response.value(of: "etag"), condition != response.value(of: "last-modified")
            {
                return nil
            }
            let spec = range.dropFirst("bytes=".count)
            guard let dash = spec.firstIndex(of: "-") else { return nil }
            return Int(spec[..<dash])
        }

        private static func notModified(_ request: StubRequest, _ response: StubResponse) -> Bool {
            if let tags = request.header("if-none-match"), let etag = response.value(of: "etag") {
                return tags.split(separator: ",").contains { $0.trimmingCharacters(in: " ") == etag || $0 == "*" }
            }
            if let since = request.header("if-modified-since"), let modified = response.value(of: "last-modified") {
                return since == modified
            }
            return false
        }

        private static func suffix(of chunks: [[UInt8]], from start: Int) -> [[UInt8]] {
            var skipped = 0
            var result: [[UInt8]] = []
            for chunk in chunks {
                if skipped + chunk.count <= start {
                    skipped += chunk.count
                } else {
                    result.append(Array(chunk[max(0, start - skipped)...]))
                    skipped = start
                }
            }
            return result
        }
    }

    extension Substring {
        fileprivate func trimmingCharacters(in set: Character) -> Substring {
            var copy = self
            while copy.first == set { copy.removeFirst() }
            while copy.last == set { copy.removeLast() }
            return copy
        }
    }
#endif
