#if Postgres
    /// How a connection to PostgreSQL uses TLS: the URL's `sslmode`, `sslrootcert`, `sslcert` and `sslkey`, with
    /// libpq's meanings, so that a URL that works with `psql` works here.
    ///
    /// | `sslmode` | TLS | the server's certificate |
    /// |---|---|---|
    /// | `disable` | never | — |
    /// | `allow`, `prefer` (the default) | when the server offers it, else plain TCP | not checked |
    /// | `require` | always: a server without TLS is refused | not checked; with `sslrootcert`, as `verify-ca` |
    /// | `verify-ca` | always | signed by a trusted authority |
    /// | `verify-full` | always | signed by a trusted authority and issued to the URL's host |
    ///
    /// - The trusted authorities are `sslrootcert`'s (a PEM file of one or more certificates) or, when it is
    ///   `system` or absent, the system's trust store. `sslrootcert=system` without `sslmode` means `verify-full`,
    ///   as in libpq 16.
    /// - `verify-full` matches a host name against the certificate's DNS names, and an IP address (`127.0.0.1`,
    ///   `[::1]`) against its IP addresses.
    /// - `sslcert` and `sslkey` (PEM files) give a client certificate for servers that ask for one (`clientcert`
    ///   in `pg_hba.conf`); one without the other is refused.
    /// - `allow` tries TLS first, where libpq tries plain TCP first: the connection is encrypted whenever it can be.
    ///
    /// The files are read when the first connection is made, on a blocking executor, never on the cooperative pool;
    /// connections with the same settings share one TLS context.
    public struct PostgresTLS: Sendable, Hashable {
        /// The `sslmode`.
        public enum Mode: String, Sendable, Hashable, CaseIterable {
            case disable
            case allow
            case prefer
            case require
            case verifyCA = "verify-ca"
            case verifyFull = "verify-full"
        }

        /// What the connection asks of the server.
        public var mode: Mode
        /// The PEM file of the authorities that sign the server's certificate, or nil for the system's trust store.
        public var rootCertificatePath: String?
        /// The PEM file of the client's certificate (and its chain), or nil.
        public var clientCertificatePath: String?
        /// The PEM file of the client certificate's private key, or nil.
        public var clientKeyPath: String?

        public init(
            mode: Mode = .prefer, rootCertificatePath: String? = nil, clientCertificatePath: String? = nil,
            clientKeyPath: String? = nil
        ) {
            self.mode = mode
            self.rootCertificatePath = rootCertificatePath
            self.clientCertificatePath = clientCertificatePath
            self.clientKeyPath = clientKeyPath
        }

        /// libpq's default: TLS when the server offers it, its certificate not checked.
        public static let prefer = PostgresTLS()

        /// How the server's certificate is checked.
        enum Verification: Sendable, Hashable {
            case none
            case authority
            case authorityAndHost
        }

        /// The check `mode` and `rootCertificatePath` give (`require` with a root certificate checks the authority,
        /// as libpq does).
        var verification: Verification {
            switch mode {
            case .disable, .allow, .prefer: .none
            case .require: rootCertificatePath == nil ? .none : .authority
            case .verifyCA: .authority
            case .verifyFull: .authorityAndHost
            }
        }

        /// Whether a server without TLS is refused.
        var isRequired: Bool {
            switch mode {
            case .disable, .allow, .prefer: false
            case .require, .verifyCA, .verifyFull: true
            }
        }

        /// The URL query parameters that give this value (empty for the default).
        var queryParameters: [(String, String)] {
            var parameters: [(String, String)] = []
            if mode != .prefer { parameters.append(("sslmode", mode.rawValue)) }
            if let rootCertificatePath { parameters.append(("sslrootcert", rootCertificatePath)) }
            if let clientCertificatePath { parameters.append(("sslcert", clientCertificatePath)) }
            if let clientKeyPath { parameters.append(("sslkey", clientKeyPath)) }
            return parameters
        }
    }
#endif
