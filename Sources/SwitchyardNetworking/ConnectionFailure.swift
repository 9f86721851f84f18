#if HTTP || Postgres || Push
    import NIOCore
    import NIOPosix
    import NIOSSL

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A connection's failure in words a person reads, naming the server where it is known:
    ///
    /// ```text
    /// connection refused by 127.0.0.1:8080
    /// connection reset by example.org:443
    /// no such host: feeds.example
    /// timed out connecting to example.org:443
    /// TLS: the server's certificate is not trusted: example.org:443 sent one that no trusted authority signed, …
    /// ```
    ///
    /// Reads SwiftNIO's errors (`IOError` by its errno, `NIOConnectionError`, `ChannelError`, a failed DNS lookup) and
    /// NIOSSL's; the errors of protocols above TCP and TLS are the caller's to read (SwitchyardHTTP's
    /// `TransportErrors` reads AsyncHTTPClient's, HTTP/1.1's and HTTP/2's). Every text it makes has balanced parentheses
    /// and no errno number; a library's own text appears only for an error it has no words for. Package-level, in a
    /// module of its own on SwiftNIO and NIOSSL alone, so that the package's SwiftNIO clients (HTTP, PostgreSQL, APNs)
    /// word their failures the same way. The texts may change between releases: match on ``kind``, not on words.
    package struct ConnectionFailure: Sendable, Hashable, CustomStringConvertible {
        /// What happened to the connection.
        package enum Kind: Sendable, Hashable {
            /// Nobody listens on the server's port (`ECONNREFUSED`).
            case refused
            /// The server reset or closed the connection before the exchange ended (`ECONNRESET`, `EPIPE`, an end of
            /// file, a TLS connection closed without ending TLS).
            case closed
            /// No connection within the connect timeout, or the system gave up waiting for the server (`ETIMEDOUT`).
            case timedOut
            /// No route to the server's host or network (`EHOSTUNREACH`, `ENETUNREACH`).
            case unreachable
            /// The server's name could not be looked up: no such host, or the lookup failed.
            case unknownHost
            /// The server's certificate is not trusted: signed by no trusted authority, expired, not yet valid, or not
            /// issued to the host. It will not change by trying again.
            case untrustedCertificate
            /// TLS failed otherwise: a failed handshake, a protocol error.
            case tls
            /// Any other failure of the connection (the text says which).
            case other
        }

        /// What happened.
        package var kind: Kind
        /// The failure in words.
        package var description: String

        package init(_ kind: Kind, _ description: String) {
            self.kind = kind
            self.description = description
        }

        /// `error` in words, or nil when it is not a failure of a connection (cancellation, a redirect limit, an error
        /// of the caller's). `host` and `port` name the server the connection was for, where the error does not say.
        /// - Complexity: O(1), except for a `NIOConnectionError`: O(the addresses tried).
        package init?(_ error: any Error, host: String? = nil, port: Int? = nil) {
            let place = Self.place(host: host, port: port)
            switch error {
            case let error as IOError:
                self = Self.errno(error.errnoCode, place: place)
            case let error as NIOConnectionError:
                self = Self.connection(error)
            case let error as SocketAddressError.UnknownHost:
                self = Self.lookup(error)
            case let error as ChannelError:
                self = Self.channel(error, place: place)
            case let error as NIOSSLError:
                self = Self.tls(error, place: place)
            case let error as NIOSSLExtraError:
                self =
                    error == .failedToValidateHostname
                    ? ConnectionFailure(
                        .untrustedCertificate,
                        "TLS: the server's certificate is not trusted: it is not issued to \(host ?? "the host")")
                    : ConnectionFailure(.tls, "TLS with \(place) failed: \(error)")
            default:
                return nil
            }
        }

        /// `host:port` (an IPv6 address in brackets), or "the server" when the host is not known.
        package static func place(host: String?, port: Int?) -> String {
            guard let host else { return "the server" }
            let name = host.contains(":") ? "[\(host)]" : host
            return port.map { "\(name):\($0)" } ?? name
        }

        /// A system call's failure on a connection to `place`, by its errno.
        package static func errno(_ code: Int32, place: String) -> ConnectionFailure {
            switch code {
            case ECONNREFUSED: ConnectionFailure(.refused, "connection refused by \(place)")
            case ECONNRESET: ConnectionFailure(.closed, "connection reset by \(place)")
            case EPIPE: ConnectionFailure(.closed, "connection closed by \(place) while the request was sent")
            case ECONNABORTED: ConnectionFailure(.closed, "connection to \(place) aborted")
            case ETIMEDOUT: ConnectionFailure(.timedOut, "timed out waiting for \(place)")
            case EHOSTUNREACH: ConnectionFailure(.unreachable, "no route to \(place): host unreachable")
            case ENETUNREACH: ConnectionFailure(.unreachable, "no route to \(place): network unreachable")
            default:
                ConnectionFailure(.other, "connection to \(place) failed: \(String(cString: strerror(code)))")
            }
        }

        /// Every address of a name failed, or its lookup did.
        private static func connection(_ error: NIOConnectionError) -> ConnectionFailure {
            let failures = error.connectionErrors.map {
                ConnectionFailure($0.error, host: error.host, port: error.port)
                    ?? ConnectionFailure(.other, "connection to \(place(host: error.host, port: error.port)) failed")
            }
            if let first = failures.first {
                var texts: [String] = []
                for failure in failures where !texts.contains(failure.description) { texts.append(failure.description) }
                return ConnectionFailure(first.kind, texts.joined(separator: ", and "))
            }
            if let lookup = error.dnsAError ?? error.dnsAAAAError {
                return ConnectionFailure(lookup, host: error.host, port: error.port)
                    ?? ConnectionFailure(.unknownHost, "cannot look up \(error.host): \(lookup)")
            }
            return ConnectionFailure(.unknownHost, "no such host: \(error.host) has no address")
        }

        /// A failed DNS lookup.
        private static func lookup(_ error: SocketAddressError.UnknownHost) -> ConnectionFailure {
            switch Int32(truncatingIfNeeded: error.errorCode) {
            case EAI_NONAME: ConnectionFailure(.unknownHost, "no such host: \(error.host)")
            case EAI_AGAIN: ConnectionFailure(.unknownHost, "cannot look up \(error.host) now: a temporary DNS failure")
            default: ConnectionFailure(.unknownHost, "cannot look up \(error.host): \(error.errorDescription)")
            }
        }

        private static func channel(_ error: ChannelError, place: String) -> ConnectionFailure {
            switch error {
            case .connectTimeout(let amount):
                ConnectionFailure(
                    .timedOut, "timed out connecting to \(place), after \(Duration.nanoseconds(amount.nanoseconds))")
            case .eof, .inputClosed, .outputClosed, .ioOnClosedChannel, .alreadyClosed:
                ConnectionFailure(.closed, "connection closed by \(place) before the exchange ended")
            default:
                ConnectionFailure(.other, "connection to \(place) failed: \(error)")
            }
        }

        private static func tls(_ error: NIOSSLError, place: String) -> ConnectionFailure {
            switch error {
            case .handshakeFailed(let failure):
                let reasons = Self.reasons(failure)
                if reasons.contains("certificate verify failed") {
                    return ConnectionFailure(
                        .untrustedCertificate,
                        "TLS: the server's certificate is not trusted: \(place) sent one that no trusted authority "
                            + "signed, or that has expired or is not yet valid")
                }
                if reasons.contains("EOF during handshake") {
                    return ConnectionFailure(.closed, "connection closed by \(place) during the TLS handshake")
                }
                return ConnectionFailure(.tls, "TLS handshake with \(place) failed: \(reasons)")
            case .uncleanShutdown:
                return ConnectionFailure(.closed, "connection closed by \(place) without ending TLS")
            default:
                return ConnectionFailure(.tls, "TLS with \(place) failed: \(error)")
            }
        }

        /// BoringSSL's reasons, in words: `…:OPENSSL_internal:WRONG_VERSION_NUMBER at file:line` reads "wrong version
        /// number".
        private static func reasons(_ error: BoringSSLError) -> String {
            let stack: [BoringSSLInternalError]
            switch error {
            case .sslError(let errors), .unknownError(let errors): stack = errors
            default: return "\(error)"
            }
            guard !stack.isEmpty else { return "\(error)" }
            return stack.map { entry in
                var text = Substring(entry.description)
                if let at = text.firstRange(of: " at ") { text = text[..<at.lowerBound] }
                if let colon = text.lastIndex(of: ":") { text = text[text.index(after: colon)...] }
                let trimmed = text.drop { $0 == " " }
                let isCode = !trimmed.isEmpty && trimmed.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
                return isCode ? String(trimmed.lowercased().map { $0 == "_" ? " " : $0 }) : String(trimmed)
            }.joined(separator: ", ")
        }
    }
#endif
