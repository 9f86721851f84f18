#if Postgres
    import NIOConcurrencyHelpers
    import NIOSSL
    import PostgresNIO
    import Switchyard

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The TLS contexts of this process's connections: one per distinct ``PostgresTLS``, made once on
    /// `BlockingExecutor.shared` (making one reads the certificate files and the system's trust store) and shared by
    /// every connection with the same settings. A certificate file changed on disk is read again only by a new process.
    enum PostgresTLSContexts {
        /// At most a few settings are used by one process; the bound only keeps a misuse from growing without end.
        private static let limit = 32
        private static let made = NIOLockedValueBox<[PostgresTLS: NIOSSLContext]>([:])

        /// postgres-nio's TLS setting for `tls`.
        /// - Throws: ``PostgresTLSFileError`` if a certificate or key file cannot be read.
        static func configuration(for tls: PostgresTLS) async throws -> PostgresConnection.Configuration.TLS {
            guard tls.mode != .disable else { return .disable }
            let context = try await context(for: tls)
            return tls.isRequired ? .require(context) : .prefer(context)
        }

        private static func context(for tls: PostgresTLS) async throws -> NIOSSLContext {
            if let context = made.withLockedValue({ $0[tls] }) { return context }
            let context = try await BlockingExecutor.shared.run { try make(tls) }
            return made.withLockedValue { made in
                if let earlier = made[tls] { return earlier }  // another connection made it meanwhile
                if made.count >= limit { made.removeAll() }
                made[tls] = context
                return context
            }
        }

        /// Makes the context (blocking: reads files).
        private static func make(_ tls: PostgresTLS) throws -> NIOSSLContext {
            let configuration = try tlsConfiguration(tls)
            do {
                return try NIOSSLContext(configuration: configuration)
            } catch {
                // The files were read and parsed: what is left is their combination (a key that is not the
                // certificate's) or, without sslrootcert, the system's store.
                let parameter = tls.clientCertificatePath != nil ? "sslcert/sslkey" : "sslrootcert"
                let path =
                    tls.clientCertificatePath.map { "\($0) with \(tls.clientKeyPath ?? "")" }
                    ?? tls.rootCertificatePath ?? "the system's trust store"
                throw PostgresTLSFileError(parameter: parameter, path: path, reason: "\(error)")
            }
        }

        /// NIOSSL's configuration for `tls`, its certificate and key files read and parsed (blocking), so that making
        /// a context from it reads no file. Without `sslrootcert`, a check of the server uses the system's trust
        /// store: on Linux its bundle is read here too (the first of the usual paths that exists); elsewhere, or with
        /// none of them, NIOSSL reads the system's store when the context is made.
        static func tlsConfiguration(_ tls: PostgresTLS) throws -> TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification =
                switch tls.verification {
                case .none: .none
                case .authority: .noHostnameVerification
                case .authorityAndHost: .fullVerification
                }
            if let path = tls.rootCertificatePath {
                let authorities = try load("sslrootcert", path) { try NIOSSLCertificate.fromPEMBytes($0) }
                guard !authorities.isEmpty else {
                    throw PostgresTLSFileError(parameter: "sslrootcert", path: path, reason: "no PEM certificate in it")
                }
                configuration.trustRoots = .certificates(authorities)
            } else if tls.verification != .none, let bundle = systemBundle {
                let authorities = try load("the system's trust store", bundle) {
                    try NIOSSLCertificate.fromPEMBytes($0)
                }
                if !authorities.isEmpty { configuration.trustRoots = .certificates(authorities) }
            }
            if let certificatePath = tls.clientCertificatePath, let keyPath = tls.clientKeyPath {
                let chain = try load("sslcert", certificatePath) { try NIOSSLCertificate.fromPEMBytes($0) }
                guard !chain.isEmpty else {
                    throw PostgresTLSFileError(
                        parameter: "sslcert", path: certificatePath, reason: "no PEM certificate in it")
                }
                configuration.certificateChain = chain.map { .certificate($0) }
                let key = try load("sslkey", keyPath) { try NIOSSLPrivateKey(bytes: $0, format: .pem) }
                configuration.privateKey = .privateKey(key)
            }
            return configuration
        }

        /// The system's bundle of trusted authorities, at the first of the places Linux distributions keep it.
        private static let systemBundle: String? = {
            #if os(Linux)
                let places = [
                    "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Alpine, Arch
                    "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL
                    "/etc/ssl/ca-bundle.pem",  // openSUSE
                    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
                ]
                return places.first { access($0, R_OK) == 0 }
            #else
                return nil
            #endif
        }()

        /// The file at `path`, parsed by `parse`; its errors (no file, not readable, not PEM) named.
        private static func load<Value>(_ parameter: String, _ path: String, _ parse: ([UInt8]) throws -> Value) throws
            -> Value
        {
            let bytes: [UInt8]
            switch contents(of: path) {
            case .success(let read): bytes = read
            case .failure(let failure):
                throw PostgresTLSFileError(
                    parameter: parameter, path: path, reason: String(cString: strerror(failure.code)))
            }
            do {
                return try parse(bytes)
            } catch {
                let what = parameter == "sslkey" ? "a PEM private key (unencrypted)" : "a PEM certificate"
                throw PostgresTLSFileError(parameter: parameter, path: path, reason: "not \(what)")
            }
        }

        /// The bytes of the file at `path` (certificates and keys: a few kilobytes), or the errno of the failure.
        private static func contents(of path: String) -> Result<[UInt8], FileFailure> {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return .failure(FileFailure(code: errno)) }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return .failure(FileFailure(code: errno))
                }
                if count == 0 { return .success(bytes) }
                bytes += chunk[..<count]
                guard bytes.count <= 1 << 20 else { return .failure(FileFailure(code: EFBIG)) }  // not a certificate
            }
        }

        /// The errno of a failed read.
        private struct FileFailure: Error {
            var code: Int32
        }
    }

    /// A certificate or key file a URL's `sslrootcert`, `sslcert` or `sslkey` names that cannot be used.
    struct PostgresTLSFileError: Error, CustomStringConvertible {
        var parameter: String
        var path: String
        var reason: String

        var description: String { "\(parameter) \(path): \(reason)" }
    }
#endif
