#if HTTP || Push
    /// A request the ``StubServer`` received, as recorded for assertions.
    public struct StubRequest: Sendable, CustomStringConvertible {
        /// The method (`GET`, `HEAD`, `POST`…).
        public var method: String
        /// The request target: path and query, as sent.
        public var target: String
        /// The header fields, in order.
        public var headers: [(name: String, value: String)]
        /// The body bytes.
        public var body: [UInt8]
        /// The connection it arrived on, numbered from 1 in order of acceptance (over HTTP/2, the streams of one
        /// connection share its number).
        public var connection: Int
        /// The protocol: `HTTP/1.1`, `HTTP/1.0` or `HTTP/2`.
        public var version: String

        /// The first value of the header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The path, without the query.
        public var path: String { String(target.prefix { $0 != "?" }) }

        public var description: String { "\(method) \(target) (connection \(connection))" }
    }
#endif
