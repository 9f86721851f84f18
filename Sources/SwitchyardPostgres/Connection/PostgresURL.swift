#if Postgres
    /// A PostgreSQL server, database and schema, as a URL:
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME]` (`postgresql://` too).
    ///
    /// User, password and database may be percent-encoded (`%40` for `@`). The port defaults to 5432, the schema to
    /// `public`. ``description`` never shows the password. Only plain TCP is spoken (servers on loopback or a trusted
    /// network); `sslmode` and other query parameters are refused rather than ignored.
    public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
        public var user: String
        public var password: String?
        public var host: String
        public var port: Int
        public var database: String
        /// The schema the import's tables go to.
        public var schema: String

        /// Parses `text`.
        /// - Throws: ``PostgresURLError`` naming what is wrong (without the password).
        public init(_ text: String) throws(PostgresURLError) {
            guard let rest = PostgresURL.strippingScheme(text) else {
                throw PostgresURLError("a PostgreSQL URL starts with postgres:// or postgresql://")
            }
            let pathStart = rest.firstIndex(of: "/")
            guard let pathStart else { throw PostgresURLError("name the database: postgres://USER@HOST/DATABASE") }
            let authority = rest[..<pathStart]
            var path = rest[rest.index(after: pathStart)...]
            var query: Substring = ""
            if let mark = path.firstIndex(of: "?") {
                query = path[path.index(after: mark)...]
                path = path[..<mark]
            }
            guard let at = authority.lastIndex(of: "@") else {
                throw PostgresURLError("name the user: postgres://USER@HOST/DATABASE")
            }
            let credentials = authority[..<at]
            var hostPort = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = try PostgresURL.decoded(credentials[..<colon], "user")
                password = try PostgresURL.decoded(credentials[credentials.index(after: colon)...], "password")
            } else {
                user = try PostgresURL.decoded(credentials, "user")
                password = nil
            }
            port = 5432
            if hostPort.hasPrefix("[") {
                guard let close = hostPort.firstIndex(of: "]") else {
                    throw PostgresURLError("an IPv6 host lacks its ]")
                }
                host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
                hostPort = hostPort[hostPort.index(after: close)...]
                if hostPort.hasPrefix(":") { port = try PostgresURL.port(hostPort.dropFirst()) }
            } else if let colon = hostPort.lastIndex(of: ":") {
                host = String(hostPort[..<colon])
                port = try PostgresURL.port(hostPort[hostPort.index(after: colon)...])
            } else {
                host = String(hostPort)
            }
            database = try PostgresURL.decoded(path, "database")
            schema = "public"
            for parameter in query.split(separator: "&") where !parameter.isEmpty {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, pair[0] == "schema" else {
                    throw PostgresURLError("unsupported parameter '\(pair[0])' (only schema= is understood)")
                }
                schema = try PostgresURL.decoded(pair[1], "schema")
            }
            guard !user.isEmpty else { throw PostgresURLError("name the user: postgres://USER@HOST/DATABASE") }
            guard !host.isEmpty else { throw PostgresURLError("name the host: postgres://USER@HOST/DATABASE") }
            guard !database.isEmpty, !database.contains("/") else {
                throw PostgresURLError("name one database: postgres://USER@HOST/DATABASE")
            }
            guard !schema.isEmpty, !schema.utf8.contains(0) else { throw PostgresURLError("the schema name is empty") }
            guard schema.utf8.count <= PostgresURL.longestSchema else {
                throw PostgresURLError("the schema name is longer than PostgreSQL's \(PostgresURL.longestSchema) bytes")
            }
        }

        /// The longest name PostgreSQL keeps whole (`NAMEDATALEN - 1` bytes).
        public static let longestSchema = 63

        /// Whether `text` is a PostgreSQL URL (rather than a file's path).
        public static func isPostgresURL(_ text: String) -> Bool { strippingScheme(text) != nil }

        /// `postgres://USER@HOST:PORT/DATABASE?schema=NAME`, without the password.
        public var description: String {
            "postgres://\(PostgresURL.encoded(user))@\(host.contains(":") ? "[\(host)]" : host):\(port)/"
                + PostgresURL.encoded(database) + (schema == "public" ? "" : "?schema=\(PostgresURL.encoded(schema))")
        }

        private static func strippingScheme(_ text: String) -> Substring? {
            for scheme in ["postgres://", "postgresql://"] where text.lowercased().hasPrefix(scheme) {
                return text.dropFirst(scheme.count)
            }
            return nil
        }

        private static func port(_ text: Substring) throws(PostgresURLError) -> Int {
            guard let port = Int(text), (1...65535).contains(port) else {
                throw PostgresURLError("the port must be a number from 1 to 65535, got '\(text)'")
            }
            return port
        }

        /// `text` with `%XX` escapes decoded.
        private static func decoded(_ text: Substring, _ what: String) throws(PostgresURLError) -> String {
            var bytes: [UInt8] = []
            var iterator = text.utf8.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "%") else {
                    bytes.append(byte)
                    continue
                }
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw PostgresURLError("the \(what) has a % that is not followed by two hex digits")
                }
                bytes.append(high << 4 | low)
            }
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                throw PostgresURLError("the \(what) is not UTF-8 once decoded")
            }
            return decoded
        }

        /// `text` with the characters a URL's parts cannot hold percent-encoded.
        private static func encoded(_ text: String) -> String {
            var out = ""
            for byte in text.utf8 {
                let scalar = Unicode.Scalar(byte)
                if byte < 0x80,
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-._~".unicodeScalars.contains(scalar)
                {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
            }
            return out
        }
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    extension String {
        fileprivate func leftPadded(to width: Int) -> String {
            String(repeating: "0", count: max(0, width - count)) + self
        }
    }

    /// A PostgreSQL URL that cannot be used, and why.
    public struct PostgresURLError: Error, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
#endif
