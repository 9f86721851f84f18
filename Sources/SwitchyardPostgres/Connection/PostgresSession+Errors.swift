#if Postgres
    import NIOSSL
    import PostgresNIO
    import SwitchyardNetworking
    import SwitchyardTransit

    extension PostgresSession {
        /// `error` as an ``ImportError`` (`.database`) naming the server: a server's message with its SQLSTATE, or what
        /// went wrong with the connection, in words (refused, no such host, timed out, the certificate not trusted or
        /// not issued to the host, TLS required but not offered). Errors of other kinds pass through.
        static func describe(_ error: any Error, url: PostgresURL, connecting: Bool = false) -> any Error {
            if error is ImportError || error is CancellationError { return error }
            if let error = error as? PostgresTLSFileError { return ImportError(.database, "\(url): \(error)") }
            guard let psql = error as? PSQLError else {
                guard connecting else { return error }
                return ImportError(.database, "\(url): cannot connect: \(transportReason(error, url: url))")
            }
            if let info = psql.serverInfo, let message = info[.message] {
                let state = info[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                let detail = info[.detail].map { ": \($0)" } ?? ""
                return ImportError(.database, "\(url): \(message)\(detail)\(state)")
            }
            let reason: String =
                switch psql.code {
                case .connectionError, .failedToAddSSLHandler:
                    "cannot connect: " + (psql.underlying.map { transportReason($0, url: url) } ?? "connection failed")
                case .sslUnsupported:
                    "the server does not offer TLS, and sslmode=\(url.tls.mode.rawValue) requires it"
                case .receivedUnencryptedDataAfterSSLRequest: "the server answered TLS with plain text"
                case .serverClosedConnection, .uncleanShutdown: "the server closed the connection"
                case .clientClosedConnection: "the connection was closed"
                case .authMechanismRequiresPassword:
                    "the server asks for a password: give it in the URL (USER:PASSWORD@)"
                case .unsupportedAuthMechanism:
                    "the server asks for an authentication method this client does not speak"
                case .saslError: "authentication failed"
                case .queryCancelled: "the statement was cancelled"
                default: "\(psql.code)\(psql.underlying.map { ": \(transportReason($0, url: url))" } ?? "")"
                }
            return ImportError(.database, "\(url): \(reason)")
        }

        /// What a connection failure means, in words: the certificate problems in the URL's terms (`sslrootcert`,
        /// `sslmode`), anything else as the package's other clients word it.
        static func transportReason(_ error: any Error, url: PostgresURL) -> String {
            switch error {
            case let error as NIOSSLExtraError where error == .failedToValidateHostname:
                return "the server's certificate is not issued to \(url.host) (sslmode=verify-full)"
            case NIOSSLError.handshakeFailed(let failure) as NIOSSLError
            where "\(failure)".contains("CERTIFICATE_VERIFY_FAILED"):
                let authority = url.tls.rootCertificatePath.map { "sslrootcert \($0)" } ?? "the system's trust store"
                return "the server's certificate is not signed by an authority in \(authority) "
                    + "(sslmode=\(url.tls.mode.rawValue))"
            default:
                return ConnectionFailure(error, host: url.host, port: url.port)?.description ?? "\(error)"
            }
        }
    }
#endif
