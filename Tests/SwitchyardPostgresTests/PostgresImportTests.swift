#if Postgres
    import Foundation
    import MetricsTestKit
    import PostgresTestServer
    import SwitchyardPostgres
    import SwitchyardTransit
    import Testing

    /// `GTFSImporter(feed:postgres:)` as a library, against the TLS-only throwaway cluster: what `COPY`'s text format
    /// must escape, every GTFS type, both time forms, and whole batches grouped into transactions.
    @Suite(
        "GTFS import into PostgreSQL (library)", .serialized,
        .enabled(if: PostgresServer.isAvailable, Comment(rawValue: PostgresServer.skipReason)))
    struct PostgresImportLibraryTests {
        /// Stop names that `COPY`'s text format must carry unchanged.
        static let names: [(id: String, csv: String, stored: String)] = [
            ("tab", "\"a\tb\"", "a\tb"),
            ("newline", "\"line 1\nline 2\"", "line 1\nline 2"),
            ("crlf", "\"x\r\ny\"", "x\r\ny"),
            ("backslash", "C:\\dir\\", "C:\\dir\\"),
            ("end-marker", "\"\\.\n\\.\"", "\\.\n\\."),  // COPY's end-of-data line, inside a value
            ("null-spelling", "\\N", "\\N"),  // COPY's NULL, as text
            ("unicode", "Zürich Hbf 東京 🚆", "Zürich Hbf 東京 🚆"),
            ("long", String(repeating: "x", count: 300_000), String(repeating: "x", count: 300_000)),
            ("latin1", "Caf\u{E9}-BYTE", "Café"),  // a Windows-1252 byte, decoded with a warning
            ("nul", "a\u{0}b", "ab"),  // NUL removed, with a warning
        ]

        /// A feed in `folder` with a row per name and a file of every type.
        private func writeFeed(_ folder: String) throws {
            func write(_ name: String, _ lines: [String]) throws {
                var data = Data((lines.joined(separator: "\n") + "\n").utf8)
                // The Windows-1252 é: a byte that is not UTF-8.
                if let range = data.range(of: Data("\u{E9}-BYTE".utf8)) { data.replaceSubrange(range, with: [0xE9]) }
                try data.write(to: URL(fileURLWithPath: folder + "/" + name))
            }
            try write(
                "agency.txt",
                [
                    "agency_id,agency_name,agency_url,agency_timezone,operator_note",
                    "A,Agency,https://example.org,Europe/Berlin,kept as text",
                ])
            try write(
                "stops.txt", ["stop_id,stop_name,stop_lat,stop_lon"] + Self.names.map { "\($0.id),\($0.csv),52.5,13.4" }
            )
            try write("routes.txt", ["route_id,agency_id,route_short_name,route_type", "R,A,1,3"])
            try write(
                "calendar.txt",
                [
                    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
                    "S,1,1,1,1,1,0,0,20261129,20271231",
                ])
            try write("trips.txt", ["route_id,service_id,trip_id", "R,S,T"])
            try write(
                "stop_times.txt",
                ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
                    + Self.names.enumerated().map { index, name in
                        let time = "\(24 + index / 60):\(String(format: "%02d", index % 60)):05"
                        return "T,\(time),\(time),\(name.id),\(index + 1)"
                    })
        }

        private func importFeed(
            schema: String, times: PostgresTimes = .seconds, batchSize: Int = ImportOptions.defaultBatchSize,
            metrics: TestMetrics = TestMetrics(), mode: ImportOptions.Mode = .new, dropSchema: Bool = true
        ) async throws -> (ImportSummary, PostgresServer.Server) {
            let server = try await PostgresServer.server()
            let folder = NSTemporaryDirectory() + "switchyard-postgres-library-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try writeFeed(folder)
            if dropSchema { _ = try await PostgresServer.psql(server.url, "DROP SCHEMA IF EXISTS \(schema) CASCADE") }
            let url = try PostgresURL(server.url(schema: schema))
            let summary = try await GTFSImporter(
                feed: try GTFSFeed.open(folder), postgres: url, times: times,
                options: ImportOptions(mode: mode, batchSize: batchSize), metricsFactory: metrics
            ).run()
            return (summary, server)
        }

        @Test("replace drops the recorded import only; a table no import recorded stays, refused if the feed needs it")
        func replaceDropsWhatWasRecorded() async throws {
            let (_, server) = try await importFeed(schema: "library_replace")
            _ = try await PostgresServer.psql(
                server.url,
                "CREATE TABLE library_replace.networks (mine text); INSERT INTO library_replace.networks VALUES ('kept')"
            )
            // The feed has no networks.txt: the user's table of that name is neither dropped nor in the way.
            let (replaced, _) = try await importFeed(schema: "library_replace", mode: .replace, dropSchema: false)
            #expect(replaced.state == .complete)
            #expect(try await PostgresServer.psql(server.url, "SELECT mine FROM library_replace.networks") == ["kept"])
            #expect(try await PostgresServer.psql(server.url, "SELECT count(*) FROM library_replace.trips") == ["1"])

            _ = try await PostgresServer.psql(
                server.url,
                """
                DROP SCHEMA IF EXISTS library_foreign CASCADE; CREATE SCHEMA library_foreign;
                CREATE TABLE library_foreign.stops (mine text)
                """)
            for mode in [ImportOptions.Mode.new, .replace] {
                let error = await #expect(throws: ImportError.self) {
                    _ = try await importFeed(schema: "library_foreign", mode: mode, dropSchema: false)
                }
                #expect(error?.kind == .databaseNotEmpty, "\(mode)")
                #expect(
                    error?.description.contains("stops that no import recorded") == true, "\(String(describing: error))"
                )
            }
            #expect(try await PostgresServer.psql(server.url, "SELECT count(*) FROM library_foreign.stops") == ["0"])
        }

        @Test("tabs, newlines, backslashes, COPY's own markers, long and non-UTF-8 values arrive unchanged")
        func copyText() async throws {
            let (summary, server) = try await importFeed(schema: "library_copy_text")
            #expect(summary.files.first { $0.name == "stops.txt" }?.imported == Self.names.count)
            let rows = try await PostgresServer.psql(
                server.url, "SELECT stop_id, encode(convert_to(stop_name, 'UTF8'), 'hex') FROM library_copy_text.stops")
            var stored: [String: String] = [:]
            for row in rows {
                let parts = row.split(separator: "|", maxSplits: 1)
                stored[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            for name in Self.names {
                let hex = name.stored.utf8.map { String(format: "%02x", $0) }.joined()
                #expect(stored[name.id] == hex, "\(name.id)")
            }
            let warnings = summary.files.first { $0.name == "stops.txt" }?.warnings ?? 0
            #expect(warnings >= 2, "the Windows-1252 byte and the NUL are warned about")
        }

        @Test("every GTFS type: text, integers, decimals, dates, times past midnight (seconds and interval), extras")
        func types() async throws {
            let (_, server) = try await importFeed(schema: "library_types")
            let agency = try await PostgresServer.psql(
                server.url, "SELECT agency_id, operator_note FROM library_types.agency")
            #expect(agency == ["A|kept as text"])
            let calendar = try await PostgresServer.psql(
                server.url, "SELECT start_date, end_date, monday, saturday FROM library_types.calendar")
            #expect(calendar == ["2026-11-29|2027-12-31|1|0"])
            let stop = try await PostgresServer.psql(
                server.url, "SELECT stop_lat, stop_lon FROM library_types.stops WHERE stop_id = 'tab'")
            #expect(stop == ["52.5|13.4"])
            let seconds = try await PostgresServer.psql(
                server.url, "SELECT arrival_time FROM library_types.stop_times WHERE stop_sequence = 1")
            #expect(seconds == ["86405"])  // 24:00:05
            let (_, _) = try await importFeed(schema: "library_interval", times: .interval)
            let interval = try await PostgresServer.psql(
                server.url, "SELECT arrival_time FROM library_interval.stop_times WHERE stop_sequence = 2")
            #expect(interval == ["24:01:05"])
        }

        @Test("batches of 3 rows: every row once, the import record and the rows metric counting each table's rows")
        func batches() async throws {
            let metrics = TestMetrics()
            let (summary, server) = try await importFeed(schema: "library_batches", batchSize: 3, metrics: metrics)
            let url = try PostgresURL(server.url(schema: "library_batches"))
            let status = try await ImportStatus.read(url)
            #expect(status.isComplete)
            for file in summary.files {
                let table = file.name.dropLast(4)
                let count = try await PostgresServer.psql(server.url, "SELECT count(*) FROM library_batches.\(table)")
                #expect(count == [String(file.imported)], "\(file.name)")
                #expect(status.files.first { $0.name == file.name }?.rows == file.imported, "\(file.name)")
                let rows = try metrics.expectCounter(
                    "switchyard_import_rows_total",
                    [("destination", "postgres"), ("schema", "library_batches"), ("file", file.name)])
                #expect(rows.totalValue == Int64(file.imported), "\(file.name)")
            }
            let transactions = try metrics.expectCounter(
                "switchyard_import_transactions_total", [("destination", "postgres"), ("schema", "library_batches")])
            #expect(transactions.totalValue >= Int64(summary.files.count))
        }
    }
#endif
