#if Postgres
    import SwitchyardPostgres
    import Testing

    @Suite("PostgresURL")
    struct PostgresURLTests {
        @Test("parts, defaults, percent-escapes, IPv6, schema; the description never shows the password")
        func parsing() throws {
            let url = try PostgresURL("postgres://gtfs:s%40cret@db.example.org:6543/transit?schema=vbb")
            #expect(url.user == "gtfs" && url.password == "s@cret" && url.host == "db.example.org")
            #expect(url.port == 6543 && url.database == "transit" && url.schema == "vbb")
            #expect(url.description == "postgres://gtfs@db.example.org:6543/transit?schema=vbb")
            let plain = try PostgresURL("postgresql://me@127.0.0.1/db")
            #expect(plain.port == 5432 && plain.schema == "public" && plain.password == nil)
            #expect(try PostgresURL("postgres://me@[::1]:5433/db").host == "::1")
            #expect(PostgresURL.isPostgresURL("POSTGRES://x@y/z") && !PostgresURL.isPostgresURL("vbb.sqlite"))
            // A mistyped scheme is a URL to refuse, not a file's name.
            #expect(PostgresURL.isPostgresURL("postgres:/x@y/z") && PostgresURL.isPostgresURL("postgresql:x"))
            #expect(!PostgresURL.isPostgresURL("./postgres:x") && !PostgresURL.isPostgresURL("postgres.sqlite"))
            #expect(throws: PostgresURLError.self) { try PostgresURL("postgres:/x@y/z") }
        }

        @Test("TLS parameters with libpq's meanings and defaults; the description keeps what is not a default")
        func tls() throws {
            #expect(try PostgresURL("postgres://a@b/c").tls == .prefer)
            let full = try PostgresURL(
                "postgres://a@b/c?sslmode=verify-full&sslrootcert=/etc/ca%20file.pem&sslcert=/c.crt&sslkey=/c.key"
                    + "&connect_timeout=1&application_name=loader&schema=s")
            #expect(full.tls.mode == .verifyFull && full.tls.rootCertificatePath == "/etc/ca file.pem")
            #expect(full.tls.clientCertificatePath == "/c.crt" && full.tls.clientKeyPath == "/c.key")
            #expect(full.connectTimeout == .seconds(2) && full.applicationName == "loader")  // libpq's 2 s floor
            #expect(try PostgresURL(full.description) == full)
            #expect(
                full.description
                    == "postgres://a@b:5432/c?schema=s&sslmode=verify-full&sslrootcert=/etc/ca%20file.pem"
                    + "&sslcert=/c.crt&sslkey=/c.key&connect_timeout=2&application_name=loader")
            // sslrootcert=system: the system's trust store, and verify-full unless sslmode says otherwise.
            let system = try PostgresURL("postgres://a@b/c?sslrootcert=system")
            #expect(system.tls.mode == .verifyFull && system.tls.rootCertificatePath == nil)
            // The last of a repeated parameter wins, as in libpq.
            #expect(try PostgresURL("postgres://a@b/c?sslmode=disable&sslmode=require").tls.mode == .require)
        }

        @Test("what is missing or wrong is named")
        func errors() {
            let cases = [
                ("mysql://a@b/c", "starts with postgres://"), ("postgres://a@b", "name the database"),
                ("postgres://b/c", "name the user"), ("postgres://a@b:99999/c", "port"),
                ("postgres://a@b/c?sslmode=on", "sslmode must be one of disable, allow, prefer"),
                ("postgres://a@b/c?sslcert=/x.crt", "needs both sslcert and sslkey"),
                ("postgres://a@b/c?sslrootcert=system&sslmode=require", "sslrootcert=system needs sslmode=verify-full"),
                ("postgres://a@b/c?sslmode=disable&sslrootcert=/ca.crt", "sslmode=disable cannot use"),
                ("postgres://a@b/c?connect_timeout=soon", "connect_timeout must be"),
                ("postgres://a@b/c?target_session_attrs=any", "unsupported parameter 'target_session_attrs'"),
                ("postgres://a@b/c?sslmode", "has no value"), ("postgres://a@b/c%4", "two hex digits"),
            ]
            for (text, message) in cases {
                #expect(throws: PostgresURLError.self, "\(text)") { try PostgresURL(text) }
                do { _ = try PostgresURL(text) } catch {
                    #expect(error.description.contains(message), "\(text): \(error)")
                }
            }
        }
    }
#endif
