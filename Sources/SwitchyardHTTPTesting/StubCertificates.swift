#if HTTP || Push
    import Foundation
    import NIOSSL

    /// A certificate authority and a server certificate it signed for `127.0.0.1` and `localhost`, generated for a
    /// test run: ``StubServer/start(tls:http2:eventLoopGroup:)`` serves HTTPS with it, and a client trusts it through
    /// ``clientConfiguration`` (a client with the system's trust store rejects it).
    ///
    /// ```swift
    /// let certificates = try StubCertificates.generate()
    /// let server = try await StubServer.start(tls: certificates)
    /// let session = HTTPSession(tlsConfiguration: certificates.clientConfiguration)
    /// ```
    ///
    /// Keys are P-256, certificates valid from the moment of generation for two days. Generation runs the `openssl`
    /// command (Debian's `openssl` package; macOS ships one) three times in a temporary folder it removes afterwards,
    /// which takes some tens of milliseconds and blocks the calling thread: call it once per test or suite, not on a
    /// path that must not block.
    public struct StubCertificates: Sendable {
        /// The authority's certificate: what a client must trust.
        public let authority: NIOSSLCertificate
        /// The authority's certificate in PEM, for clients configured from a file or text.
        public let authorityPEM: String
        /// The server's certificate, signed by ``authority``.
        public let certificate: NIOSSLCertificate
        /// The server certificate's private key.
        public let privateKey: NIOSSLPrivateKey

        /// A client configuration that trusts ``authority`` only.
        public var clientConfiguration: TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .certificates([authority])
            return configuration
        }

        /// Generates a new authority and server certificate.
        /// - Throws: ``StubCertificatesError`` when the `openssl` command is missing or fails (its message is included).
        public static func generate() throws -> StubCertificates {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("switchyard-stub-tls-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let file = { (name: String) in folder + "/" + name }
            try Self.configuration.write(toFile: file("openssl.cnf"), atomically: true, encoding: .utf8)
            let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try openssl(
                ["req", "-x509", "-config", file("openssl.cnf"), "-extensions", "authority", "-days", "2"] + key
                    + ["-subj", "/CN=Switchyard stub authority", "-keyout", file("ca.key"), "-out", file("ca.pem")])
            try openssl(
                ["req", "-new", "-config", file("openssl.cnf")] + key
                    + ["-subj", "/CN=127.0.0.1", "-keyout", file("server.key"), "-out", file("server.csr")])
            try openssl([
                "x509", "-req", "-in", file("server.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"),
                "-set_serial", "\(UInt32.random(in: 1...UInt32.max))", "-days", "2", "-sha256",
                "-extfile", file("openssl.cnf"), "-extensions", "server", "-out", file("server.pem"),
            ])
            let authorityPEM = try String(contentsOfFile: file("ca.pem"), encoding: .utf8)
            return StubCertificates(
                authority: try NIOSSLCertificate(bytes: Array(authorityPEM.utf8), format: .pem),
                authorityPEM: authorityPEM,
                certificate: try NIOSSLCertificate(
                    bytes: Array(try String(contentsOfFile: file("server.pem"), encoding: .utf8).utf8), format: .pem),
                privateKey: try NIOSSLPrivateKey(file: file("server.key"), format: .pem))
        }

        /// A server's TLS configuration with this certificate, offering `protocols` by ALPN (`["h2"]`,
        /// `["http/1.1"]`): for other test servers than ``StubServer``.
        public func serverConfiguration(protocols: [String]) -> TLSConfiguration {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(certificate)], privateKey: .privateKey(privateKey))
            configuration.applicationProtocols = protocols
            return configuration
        }

        /// The extensions of both certificates (the authority may sign, the server may serve `127.0.0.1`).
        private static let configuration = """
            [req]
            distinguished_name = name
            prompt = no
            [name]
            CN = Switchyard stub
            [authority]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            [server]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = IP:127.0.0.1, DNS:localhost
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid

            """

        private static func openssl(_ arguments: [String]) throws {
            let search = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            guard
                let executable = (search.map { "\($0)/openssl" } + ["/usr/bin/openssl"])
                    .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            else {
                throw StubCertificatesError(
                    message: "the openssl command is not installed (Debian: apt-get install openssl)")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // The messages are read before waiting: the pipe is never left full behind a process that waits on it.
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw StubCertificatesError(
                    message: "openssl \(arguments.first ?? "") failed (exit \(process.terminationStatus)): \(message)")
            }
        }
    }

    /// Why ``StubCertificates/generate()`` failed.
    public struct StubCertificatesError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, with `openssl`'s own message when it failed.
        public var message: String
        public var description: String { message }
    }
#endif
