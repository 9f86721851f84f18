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
        }

        @Test("what is missing or wrong is named")
        func errors() {
            let cases = [
                ("mysql://a@b/c", "starts with postgres://"), ("postgres://a@b", "name the database"),
                ("postgres://b/c", "name the user"), ("postgres://a@b:99999/c", "port"),
                ("postgres://a@b/c?sslmode=require", "unsupported parameter"), ("postgres://a@b/c%4", "two hex digits"),
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
