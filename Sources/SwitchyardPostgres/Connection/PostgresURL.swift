#if Postgres
    /// A PostgreSQL server, database and schema, as a URL:
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?PARAMETER=VALUE&…]` (`postgresql://` too).
    ///
    /// User, password, database and parameter values may be percent-encoded (`%40` for `@`). The port defaults to
    /// 5432. The parameters:
    ///
    /// - `schema`: the schema the import's tables go to (default `public`).
    /// - `sslmode`, `sslrootcert`, `sslcert`, `sslkey`: TLS, with libpq's meanings (``PostgresTLS``; default
    ///   `prefer`).
    /// - `connect_timeout`: seconds to wait for a connection (default 10).
    /// - `application_name`: the name the server shows in `pg_stat_activity` (default `switchyard`).
    ///
    /// Any other parameter is refused rather than ignored. ``description`` never shows the password.
    public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
        public var user: String
        public var password: String?
        public var host: String
        public var port: Int
        public var database: String
        /// The schema the import's tables go to.
        public var schema: String
        /// TLS: `sslmode` and the certificate files.
        public var tls: PostgresTLS
        /// How long a connection may take to be made (`connect_timeout`).
        public var connectTimeout: Duration
        /// The name the server shows for the connection (`application_name`).
        public var applicationName: String

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
            tls = .prefer
            connectTimeout = .seconds(10)
            applicationName = "switchyard"
            try readParameters(query)
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

        /// Whether `text` is meant as a PostgreSQL URL rather than a file's path: it starts with `postgres:` or
        /// `postgresql:` (any case), so that a mistyped `postgres:/…` is refused by ``init(_:)`` instead of being taken
        /// for a file. A file whose name starts so is named as `./postgres:…`.
        public static func isPostgresURL(_ text: String) -> Bool {
            let lowered = text.prefix(11).lowercased()
            return lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:")
        }

        /// `postgres://USER@HOST:PORT/DATABASE?PARAMETER=VALUE&…`, without the password; parameters at their defaults
        /// are left out.
        public var description: String {
            var parameters: [(String, String)] = []
            if schema != "public" { parameters.append(("schema", schema)) }
            parameters += tls.queryParameters
            if connectTimeout != .seconds(10) {
                parameters.append(("connect_timeout", "\(connectTimeout.components.seconds)"))
            }
            if applicationName != "switchyard" { parameters.append(("application_name", applicationName)) }
            let query = parameters.map { "\($0)=\(PostgresURL.encoded($1, keeping: "/:"))" }.joined(separator: "&")
            return "postgres://\(PostgresURL.encoded(user))@\(host.contains(":") ? "[\(host)]" : host):\(port)/"
                + PostgresURL.encoded(database) + (query.isEmpty ? "" : "?" + query)
        }

        /// The parameters understood in a URL's query.
        public static let parameters = [
            "schema", "sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name",
        ]

        /// Reads the query's parameters into the properties (the last of a repeated parameter wins, as in libpq).
        private mutating func readParameters(_ query: Substring) throws(PostgresURLError) {
            var mode: PostgresTLS.Mode?
            var systemRoots = false
            for parameter in query.split(separator: "&") where !parameter.isEmpty {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0])
                guard pair.count == 2 else {
                    throw PostgresURLError("the parameter '\(name)' has no value (\(name)=…)")
                }
                let value = try PostgresURL.decoded(pair[1], name)
                switch name {
                case "schema": schema = value
                case "sslmode":
                    guard let parsed = PostgresTLS.Mode(rawValue: value) else {
                        let modes = PostgresTLS.Mode.allCases.map(\.rawValue).joined(separator: ", ")
                        throw PostgresURLError("sslmode must be one of \(modes), got '\(value)'")
                    }
                    mode = parsed
                case "sslrootcert":
                    systemRoots = value == "system"
                    tls.rootCertificatePath = systemRoots || value.isEmpty ? nil : value
                case "sslcert": tls.clientCertificatePath = value.isEmpty ? nil : value
                case "sslkey": tls.clientKeyPath = value.isEmpty ? nil : value
                case "connect_timeout":
                    guard let seconds = Int(value), seconds >= 0 else {
                        throw PostgresURLError("connect_timeout must be a whole number of seconds, got '\(value)'")
                    }
                    // libpq: 0 means no limit; anything under 2 s means 2 s.
                    connectTimeout = seconds == 0 ? .seconds(Int32.max) : .seconds(max(seconds, 2))
                case "application_name": applicationName = value
                default:
                    let known = PostgresURL.parameters.joined(separator: ", ")
                    throw PostgresURLError("unsupported parameter '\(name)' (understood: \(known))")
                }
            }
            // libpq 16: the system's authorities are worth using only with the host checked.
            if systemRoots, let mode, mode != .verifyFull {
                throw PostgresURLError(
                    "sslrootcert=system needs sslmode=verify-full (or no sslmode), got \(mode.rawValue)")
            }
            tls.mode = mode ?? (systemRoots ? .verifyFull : .prefer)
            guard (tls.clientCertificatePath == nil) == (tls.clientKeyPath == nil) else {
                throw PostgresURLError("a client certificate needs both sslcert and sslkey")
            }
            if tls.mode == .disable, tls.rootCertificatePath != nil || tls.clientCertificatePath != nil {
                throw PostgresURLError("sslmode=disable cannot use sslrootcert, sslcert or sslkey")
            }
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

        /// `text` with the characters a URL's parts cannot hold percent-encoded (but those in `kept`: a query's value
        /// may hold `/` and `:`).
        private static func encoded(_ text: String, keeping kept: String = "") -> String {
            var out = ""
            for byte in text.utf8 {
                let scalar = Unicode.Scalar(byte)
                if byte < 0x80,
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-._~".unicodeScalars.contains(scalar) || kept.unicodeScalars.contains(scalar)
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
