#if Postgres
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #endif
    import NIOCore
    import NIOPosix
    import PostgresTestServer
    import SwitchyardPostgres
    import SwitchyardTransit
    import Testing

    /// Connections to the throwaway cluster of `Scripts/postgres-dev.sh`, which takes TCP connections with TLS only,
    /// its certificate signed by the cluster's own authority for `localhost` and `127.0.0.1`.
    @Suite(
        "PostgreSQL over TLS", .serialized,
        .enabled(if: PostgresServer.isAvailable, Comment(rawValue: PostgresServer.skipReason)))
    struct PostgresTLSTests {
        /// The error of connecting to `url` and reading a schema that holds no import (which proves the connection).
        private func connectionError(_ url: String) async -> String {
            do {
                _ = try await ImportStatus.read(try PostgresURL(url))
                return "no error"
            } catch {
                return "\(error)"
            }
        }

        private func server() async throws -> (PostgresServer.Server, String) {
            let server = try await PostgresServer.server()
            let authority = try #require(server.file("ca.crt"), "the cluster's folder (SWITCHYARD_POSTGRES_DIR)")
            return (server, authority)
        }

        /// `url` with the parameters of TLS replaced by `parameters`, a schema no import uses, and a connect timeout of
        /// two minutes: these tests read the error a connection ends with, and in a loaded run (Thread Sanitizer,
        /// every suite in parallel) a connection has taken more than the default 10 s to get there.
        private func url(
            _ server: PostgresServer.Server, host: String? = nil, user: String? = nil, _ parameters: String
        )
            -> String
        {
            var base = String(server.url.prefix { $0 != "?" })
            if let host { base = base.replacingOccurrences(of: "127.0.0.1", with: host) }
            if let user {
                let credentials = base.dropFirst("postgres://".count).prefix { $0 != "@" }
                base = base.replacingOccurrences(of: credentials + "@", with: user + "@")
            }
            return base + "?schema=tls_no_import&connect_timeout=120" + (parameters.isEmpty ? "" : "&" + parameters)
        }

        @Test("verify-full with the cluster's authority connects, by IP address and by host name")
        func verifyFull() async throws {
            let (server, authority) = try await server()
            for host in ["127.0.0.1", "localhost"] {
                let error = await connectionError(
                    url(server, host: host, "sslmode=verify-full&sslrootcert=\(authority)"))
                #expect(error.contains("holds no Switchyard import"), "\(host): \(error)")
            }
        }

        @Test("prefer (the default) and require connect without checking the certificate")
        func unchecked() async throws {
            let (server, _) = try await server()
            for parameters in ["", "sslmode=prefer", "sslmode=require", "sslmode=allow"] {
                let error = await connectionError(url(server, parameters))
                #expect(error.contains("holds no Switchyard import"), "\(parameters): \(error)")
            }
        }

        @Test("a wrong sslrootcert is refused, naming the certificate problem")
        func wrongAuthority() async throws {
            let (server, _) = try await server()
            let other = try #require(server.file("other-ca.crt"))
            for mode in ["verify-ca", "verify-full", "require"] {
                let error = await connectionError(url(server, "sslmode=\(mode)&sslrootcert=\(other)"))
                #expect(error.contains("certificate is not signed by an authority in sslrootcert \(other)"), "\(error)")
                #expect(!error.contains("SingleConnectionFailure") && balanced(error), "\(error)")
            }
        }

        @Test("sslrootcert=system checks the server against the system's authorities, which never signed the cluster's")
        func systemAuthorities() async throws {
            let (server, _) = try await server()
            let error = await connectionError(url(server, "sslrootcert=system"))
            #expect(
                error.contains("not signed by an authority in the system's trust store (sslmode=verify-full)"),
                "\(error)")
        }

        @Test("verify-full refuses a certificate issued to another host")
        func wrongHost() async throws {
            let (server, authority) = try await server()
            // The script's server listens on 127.0.0.2 too; its certificate names 127.0.0.1 and localhost only.
            let error = await connectionError(
                url(server, host: "127.0.0.2", "sslmode=verify-full&sslrootcert=\(authority)"))
            #expect(error.contains("the server's certificate is not issued to 127.0.0.2"), "\(error)")
            // verify-ca checks the authority alone.
            let authorityOnly = await connectionError(
                url(server, host: "127.0.0.2", "sslmode=verify-ca&sslrootcert=\(authority)"))
            #expect(authorityOnly.contains("holds no Switchyard import"), "\(authorityOnly)")
        }

        @Test("sslmode=disable against a server that takes TLS only: the server's refusal is shown")
        func disabled() async throws {
            let (server, _) = try await server()
            let error = await connectionError(url(server, "sslmode=disable"))
            #expect(error.contains("no encryption") && error.contains("SQLSTATE"), "\(error)")
        }

        @Test("a client certificate logs in the role that the server authenticates by certificate")
        func clientCertificate() async throws {
            let (server, authority) = try await server()
            let certificate = try #require(server.file("client.crt"))
            let key = try #require(server.file("client.key"))
            let error = await connectionError(
                url(
                    server, user: "switchyard_cert",
                    "sslmode=verify-full&sslrootcert=\(authority)&sslcert=\(certificate)&sslkey=\(key)"))
            #expect(error.contains("holds no Switchyard import"), "\(error)")
            let without = await connectionError(
                url(server, user: "switchyard_cert", "sslmode=verify-full&sslrootcert=\(authority)"))
            #expect(without.contains("certificate"), "\(without)")
        }

        @Test("a certificate file that is missing or not PEM is named")
        func unreadableFiles() async throws {
            let (server, authority) = try await server()
            let missing = await connectionError(url(server, "sslmode=verify-full&sslrootcert=/nonexistent/ca.crt"))
            #expect(missing.contains("sslrootcert /nonexistent/ca.crt: No such file or directory"), "\(missing)")
            let notPEM = await connectionError(
                url(server, "sslmode=verify-full&sslrootcert=\(authority)&sslcert=/etc/hostname&sslkey=/etc/hostname"))
            #expect(notPEM.contains("sslcert /etc/hostname: not a PEM certificate"), "\(notPEM)")
        }
    }

    /// Connections that fail before TLS: no server, and a server without TLS.
    @Suite("PostgreSQL connection failures")
    struct PostgresConnectionFailureTests {
        @Test("require against a server that does not offer TLS fails, saying so; prefer goes on without TLS")
        func serverWithoutTLS() async throws {
            let group = MultiThreadedEventLoopGroup.singleton
            // A server that declines TLS ('N' to the SSLRequest) and then closes: enough to see the client's choice.
            let channel = try await ServerBootstrap(group: group)
                .childChannelInitializer { $0.pipeline.addHandler(DeclineTLS()) }
                .bind(host: "127.0.0.1", port: 0).get()
            defer { channel.close(promise: nil) }
            let port = try #require(channel.localAddress?.port)
            let required = await failure("postgres://me@127.0.0.1:\(port)/db?sslmode=require")
            #expect(required.contains("the server does not offer TLS, and sslmode=require requires it"), "\(required)")
            let preferred = await failure("postgres://me@127.0.0.1:\(port)/db?sslmode=prefer")
            #expect(!preferred.contains("does not offer TLS"), "\(preferred)")
        }

        @Test("a refused connection reads as one, with balanced parentheses and no NIO dump")
        func refused() async throws {
            #if canImport(Glibc)
                // A port bound but not listening: connections to it are refused, and no other socket can take it
                // meanwhile (a port merely closed again may become another connection's source port, which answers
                // with a reset).
                let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                try #require(socket >= 0)
                defer { close(socket) }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let bound = withUnsafeMutablePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
                    }
                }
                try #require(bound)
                let port = Int(UInt16(bigEndian: address.sin_port))
            #else
                let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .bind(host: "127.0.0.1", port: 0).get()
                let port = try #require(channel.localAddress?.port)
                try await channel.close()
            #endif
            let error = await failure("postgres://me@127.0.0.1:\(port)/db")
            #expect(error.contains("connection refused by 127.0.0.1:\(port)"), "\(error)")
            #expect(
                !error.contains("SingleConnectionFailure") && !error.contains("reset") && balanced(error), "\(error)")
        }

        @Test("an unknown host is named")
        func unknownHost() async {
            let error = await failure("postgres://me@no-such-host.invalid/db?connect_timeout=5")
            #expect(error.contains("no such host: no-such-host.invalid"), "\(error)")
        }

        private func failure(_ url: String) async -> String {
            do {
                _ = try await ImportStatus.read(try PostgresURL(url))
                return "no error"
            } catch {
                return "\(error)"
            }
        }
    }

    /// Whether every parenthesis of `text` is closed.
    private func balanced(_ text: String) -> Bool {
        var depth = 0
        for character in text {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth < 0 { return false }
        }
        return depth == 0
    }

    /// Answers a PostgreSQL SSLRequest with 'N' (no TLS) and closes after the next message.
    private final class DeclineTLS: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            // The SSLRequest: length 8, code 80877103.
            if bytes.readableBytes == 8, bytes.getInteger(at: 4, as: UInt32.self) == 80_877_103 {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "N")), promise: nil)
            } else {
                context.close(promise: nil)
            }
        }
    }
#endif
