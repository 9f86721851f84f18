#if CLI
    import Foundation
    import PostgresTestServer
    import SwitchyardPostgres
    import SwitchyardSampleFeeds
    import SwitchyardTesting
    import SwitchyardTransit
    import Synchronization
    import Testing

    /// `switchyard import --database postgres://…` against a real server (see ``PostgresServer``), as a user runs it.
    @Suite(
        "switchyard import into PostgreSQL", .serialized,
        .enabled(if: PostgresServer.isAvailable, Comment(rawValue: PostgresServer.skipReason)),
        .timeLimit(.minutes(3)))
    struct PostgresImportTests {
        static let gtfsTables = GTFSFile.allCases.map(\.tableName)

        private func scratch(_ name: String = #function) -> String {
            let folder =
                NSTemporaryDirectory() + "switchyard-pg-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return folder
        }

        /// A schema no other test uses.
        private func schema(_ name: String) -> String { "t_\(name)_\(UUID().uuidString.prefix(8).lowercased())" }

        /// Imports `feed` into a new SQLite database and a new schema (named after `label`) with the CLI, expects both
        /// to succeed with the same values in every table, and returns the PostgreSQL import's status and its last
        /// line of output (`--progress json`: the summary).
        private func importIntoBoth(
            _ feed: String, label: String, folder: String, _ server: PostgresServer.Server
        ) async throws -> (status: ImportStatus, summary: String, content: ImportTableContent) {
            let sqlite = try await SwitchyardProcess.run([
                "import", feed, "--database", folder + "/\(label).sqlite", "--progress", "none",
            ])
            #expect(sqlite.status == 0, "\(sqlite.standardError)")
            let name = schema(label)
            let postgres = try await SwitchyardProcess.run([
                "import", feed, "--database", server.url(schema: name), "--progress", "json",
            ])
            #expect(postgres.status == 0, "\(postgres.standardError)")
            let status = try await ImportStatus.read(try PostgresURL(server.url(schema: name)))
            let names = tables(of: status)
            let inSQLite = try await ImportTableContent.sqlite(folder + "/\(label).sqlite", tables: names)
            let inPostgres = try await ImportTableContent.postgres(server.url, schema: name, tables: names)
            for table in inSQLite.tables.keys.sorted() {
                #expect(inPostgres.tables[table] == inSQLite.tables[table], "\(table)")
            }
            let summary = postgres.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
            return (status, summary, inPostgres)
        }

        /// The GTFS tables an import created, from its status.
        private func tables(of status: ImportStatus) -> [String] {
            status.files.map { String($0.name.dropLast(4)) }
        }

        @Test("the quirks feed: rows are records minus skipped ones, and every value equals the SQLite import's")
        func quirksMatchSQLite() async throws {
            let server = try await PostgresServer.server()
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try QuirksFeed.writeZip(folder + "/quirks.zip")
            let (status, summary, _) = try await importIntoBoth(
                folder + "/quirks.zip", label: "quirks", folder: folder, server)
            #expect(summary.contains("\"state\": \"complete\""), "\(summary)")
            #expect(status.isComplete)
            for file in status.files {
                let expected = QuirksFeed.expected[file.name] ?? (file.records, 0, file.warnings)
                #expect(file.records == expected.records, "\(file.name)")
                #expect(file.rows == expected.records - expected.skipped, "\(file.name)")
                #expect(file.warnings == expected.warnings, "\(file.name)")
            }
        }

        @Test("backslashes, tabs, line breaks in values; a quote before a combining mark and a 70-byte name in headers")
        func escapesMatchSQLite() async throws {
            let server = try await PostgresServer.server()
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let long = String(repeating: "l", count: 70)
            let files = [
                "agency.txt":
                    "agency_id,agency_name,agency_url,agency_timezone\nA,\"Back\\slash\tand tab\",https://a.example,Europe/Berlin\n",
                "stops.txt":
                    "stop_id,stop_name,stop_lat,stop_lon,\"x\"\"\u{301}y\",\(long)\nS1,\"Line\nbreak\",52.5,13.4,\"q\"\"\",v\nS2,\"Carriage\rreturn\",52.6,13.0,,\\N\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,\\.,3\n",
                "trips.txt": "route_id,service_id,trip_id\nR,W,T\n",
                "calendar.txt":
                    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nW,1,1,1,1,1,0,0,20240101,20241231\n",
                "stop_times.txt":
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,25:00:00,25:01:00,S1,1\nT,,,S2,2\n",
            ]
            try FileManager.default.createDirectory(atPath: folder + "/feed", withIntermediateDirectories: true)
            for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/feed/" + name)) }
            let (_, _, inPostgres) = try await importIntoBoth(
                folder + "/feed", label: "escapes", folder: folder, server)
            #expect(inPostgres.tables["stops"]?.joined().contains("Line") == true)
        }

        @Test("SIGINT and SIGKILL at random points, then --resume: the same tables as an uninterrupted import")
        func interruptAndResume() async throws {
            let server = try await PostgresServer.server()
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let feed = folder + "/feed.zip"
            #expect(try await SwitchyardProcess.run(["sample-feed", "--profile", "tiny", "--out", feed]).status == 0)
            let reference = schema("reference")
            let complete = try await SwitchyardProcess.run([
                "import", feed, "--database", server.url(schema: reference), "--batch-size", "50", "--progress", "none",
            ])
            #expect(complete.status == 0, "\(complete.standardError)")
            let status = try await ImportStatus.read(try PostgresURL(server.url(schema: reference)))
            let total = status.files.reduce(0) { $0 + $1.rows }
            let expected = try await ImportTableContent.postgres(
                server.url, schema: reference, tables: tables(of: status))

            var random = SeededRandomNumberGenerator.forTest("postgres interruptAndResume")
            var interruptions = 0
            for (round, signal) in [SIGINT, SIGKILL, SIGINT, SIGKILL].enumerated() {
                let name = schema("round\(round)")
                let url = try PostgresURL(server.url(schema: name))
                var arguments = ["import", feed, "--database", server.url(schema: name), "--batch-size", "50"]
                for _ in 0..<2 {
                    let threshold = Int.random(in: 0..<(total * 3 / 4), using: &random)
                    _ = try await SwitchyardProcess.runUntil(arguments, rows: threshold, then: signal)
                    guard let record = try? await ImportStatus.read(url) else { continue }  // stopped before the record
                    // Whole batches only: each table holds exactly the rows its import record counts.
                    for file in record.files where file.state != .pending {
                        let rows = try await ImportTableContent.psql(
                            server.url, "SELECT count(*) FROM \"\(name)\".\"\(file.name.dropLast(4))\"")
                        #expect(rows == [String(file.rows)], "\(file.name): the table matches its import record")
                    }
                    if !record.isComplete { interruptions += 1 }
                    if !arguments.contains("--resume") { arguments.append("--resume") }
                }
                let resumed = try await SwitchyardProcess.run(arguments + ["--progress", "none"])
                #expect(resumed.status == 0, "\(resumed.standardError)")
                let content = try await ImportTableContent.postgres(
                    server.url, schema: name, tables: tables(of: status))
                #expect(content == expected, "round \(round) (signal \(signal))")
            }
            #expect(interruptions > 0, "at least one signal landed before the import was complete")
        }

        @Test("--times interval: H:MM:SS past 24 hours, the seconds of the default import; a resume follows the record")
        func timesAsInterval() async throws {
            let server = try await PostgresServer.server()
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let feed = folder + "/small.zip"
            #expect(try await SwitchyardProcess.run(["sample-feed", "--profile", "small", "--out", feed]).status == 0)
            let seconds = schema("seconds")
            let interval = schema("interval")
            let plain = try await SwitchyardProcess.run([
                "import", feed, "--database", server.url(schema: seconds), "--progress", "none",
            ])
            #expect(plain.status == 0, "\(plain.standardError)")
            // Begun with --times interval and killed; resumed without it: the record's choice holds.
            var arguments = ["import", feed, "--database", server.url(schema: interval), "--batch-size", "500"]
            _ = try await SwitchyardProcess.runUntil(arguments + ["--times", "interval"], rows: 3_000, then: SIGKILL)
            arguments += ["--resume", "--progress", "none"]
            let resumed = try await SwitchyardProcess.run(arguments)
            #expect(resumed.status == 0, "\(resumed.standardError)")
            let types = try await ImportTableContent.psql(
                server.url,
                """
                SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = '\(interval)'
                    AND column_name IN ('arrival_time', 'departure_time', 'start_time', 'end_time') ORDER BY 1, 2
                """)
            #expect(!types.isEmpty && types.allSatisfy { $0.hasSuffix("|interval") }, "\(types)")
            let differing = try await ImportTableContent.psql(
                server.url,
                """
                SELECT count(*) FROM "\(interval)".stop_times i JOIN "\(seconds)".stop_times s USING (trip_id, stop_sequence)
                WHERE extract(epoch FROM i.arrival_time)::bigint IS DISTINCT FROM s.arrival_time
                    OR extract(epoch FROM i.departure_time)::bigint IS DISTINCT FROM s.departure_time
                """)
            #expect(differing == ["0"])
            let counts = try await ImportTableContent.psql(
                server.url,
                """
                SELECT (SELECT count(*) FROM "\(interval)".stop_times), (SELECT count(*) FROM "\(seconds)".stop_times),
                    (SELECT max(arrival_time)::text FROM "\(interval)".stop_times),
                    (SELECT max(arrival_time) FROM "\(seconds)".stop_times)
                """)
            let fields = counts.first?.split(separator: "|").map(String.init) ?? []
            #expect(fields.count == 4 && fields[0] == fields[1], "\(counts)")
            if fields.count == 4, let maximum = Int(fields[3]) {
                let text = String(format: "%02d:%02d:%02d", maximum / 3600, maximum / 60 % 60, maximum % 60)
                #expect(fields[2] == text, "the latest time as PostgreSQL shows it")
            }
            let sqlite = try await SwitchyardProcess.run([
                "import", feed, "--database", folder + "/feed.sqlite", "--times", "interval",
            ])
            #expect(sqlite.status != 0)
            #expect(sqlite.standardError.contains("--times needs a PostgreSQL --database"), "\(sqlite.standardError)")
        }

        @Test("two feeds in two schemas; a schema that holds an import is refused unless --replace")
        func schemasSideBySide() async throws {
            let server = try await PostgresServer.server()
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(
                try await SwitchyardProcess.run(["sample-feed", "--profile", "tiny", "--out", folder + "/tiny.zip"])
                    .status
                    == 0)
            try QuirksFeed.writeZip(folder + "/quirks.zip")
            let first = schema("first")
            let second = schema("second")
            for (feed, name) in [("tiny", first), ("quirks", second)] {
                let run = try await SwitchyardProcess.run([
                    "import", folder + "/\(feed).zip", "--database", server.url, "--schema", name, "--progress", "none",
                ])
                #expect(run.status == 0, "\(run.standardError)")
            }
            let tiny = try await ImportStatus.read(try PostgresURL(server.url(schema: first)))
            let quirks = try await ImportStatus.read(try PostgresURL(server.url(schema: second)))
            #expect(tiny.isComplete && quirks.isComplete)
            #expect(tiny.feed.hasSuffix("tiny.zip") && quirks.feed.hasSuffix("quirks.zip"))
            let again = try await SwitchyardProcess.run([
                "import", folder + "/quirks.zip", "--database", server.url(schema: first), "--progress", "none",
            ])
            #expect(again.status == 1)
            #expect(again.standardError.contains("already holds an import of"), "\(again.standardError)")
            let replaced = try await SwitchyardProcess.run([
                "import", folder + "/quirks.zip", "--database", server.url(schema: first), "--replace", "--progress",
                "none",
            ])
            #expect(replaced.status == 0, "\(replaced.standardError)")
            let status = try await SwitchyardProcess.run(["status", server.url, "--schema", first, "--json"])
            #expect(status.status == 0)
            #expect(status.standardOutput.contains("quirks.zip"), "\(status.standardOutput)")
        }

        @Test("a wrong password, a missing database, a closed port, a bad URL: clear errors, JSON to the end")
        func connectionErrors() async throws {
            let server = try await PostgresServer.server()
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(
                try await SwitchyardProcess.run(["sample-feed", "--profile", "tiny", "--out", folder + "/tiny.zip"])
                    .status
                    == 0)
            let url = try PostgresURL(server.url)
            var wrong = url
            wrong.password = "not-the-password"
            var missing = url
            missing.database = "no_such_database"
            var closed = url
            closed.port = 1
            let cases: [(PostgresURL, String)] = [
                (wrong, "password authentication failed"), (missing, "does not exist"), (closed, "cannot connect"),
            ]
            for (target, message) in cases {
                var text =
                    "postgres://\(target.user):\(target.password ?? "")@\(target.host):\(target.port)/\(target.database)"
                text += "?schema=errors"
                let run = try await SwitchyardProcess.run([
                    "import", folder + "/tiny.zip", "--database", text, "--progress", "json",
                ])
                #expect(run.status == 1, "\(message)")
                #expect(run.standardError.contains(message), "\(run.standardError)")
                #expect(!run.standardError.contains(target.password ?? "\u{0}"), "the password is never printed")
                let last = try #require(run.standardOutput.split(separator: "\n").last)
                #expect(last.contains("\"state\": \"failed\""), "\(last)")
            }
            let bad = try await SwitchyardProcess.run([
                "import", folder + "/tiny.zip", "--database", "postgres://host/db",
            ])
            #expect(bad.status != 0)
            #expect(bad.standardError.contains("name the user"), "\(bad.standardError)")
        }

        @Test("a reader polling status while an import runs sees growing whole-batch counts, never an error")
        func statusWhileImporting() async throws {
            let server = try await PostgresServer.server()
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let feed = folder + "/small.zip"
            #expect(try await SwitchyardProcess.run(["sample-feed", "--profile", "small", "--out", feed]).status == 0)
            let name = schema("status")
            let url = try PostgresURL(server.url(schema: name))
            let (_, exit) = try SwitchyardProcess.start([
                "import", feed, "--database", server.url(schema: name), "--batch-size", "1000", "--progress", "none",
            ])
            var seen = false
            var last: [String: Int] = [:]
            var reads = 0
            let ended = ExitWatch(exit)
            while true {
                let done = ended.hasEnded  // read before the status: the last read sees the import's end
                do {
                    let status = try await ImportStatus.read(url)
                    seen = true
                    reads += 1
                    for file in status.files {
                        #expect(file.rows >= last[file.name, default: 0], "\(file.name): the count never goes back")
                        if file.state == .loading { #expect(file.records % 1000 == 0, "\(file.name): whole batches") }
                        last[file.name] = file.rows
                    }
                } catch {
                    // Before the record exists, there is nothing to read; once it does, every read succeeds.
                    #expect(!seen, "\(error)")
                }
                if done { break }
                await Task.yield()
            }
            #expect(await exit.value == 0)
            print("statusWhileImporting: \(reads) reads during the import")
        }

        @Test("the server restarted mid-import: a clear error, whole batches kept, --resume completes the same tables")
        func serverRestart() async throws {
            // A cluster of its own: restarting the shared one would cut the other suites' connections.
            let server = try await PostgresServer.startPrivate("import-restart")
            defer { Task { await PostgresServer.stopPrivate(server) } }
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let feed = folder + "/small.zip"
            #expect(try await SwitchyardProcess.run(["sample-feed", "--profile", "small", "--out", feed]).status == 0)
            let name = schema("restart")
            let url = try PostgresURL(server.url(schema: name))
            let arguments = [
                "import", feed, "--database", server.url(schema: name), "--batch-size", "500", "--progress", "none",
            ]
            let (_, exit) = try SwitchyardProcess.start(arguments)
            let ended = ExitWatch(exit)
            // Once some batches are committed (and long before the last), the server goes away.
            while !ended.hasEnded, (try? await ImportStatus.read(url))?.files.reduce(0, { $0 + $1.rows }) ?? 0 < 2_000 {
                await Task.yield()
            }
            try await PostgresServer.restart(server)
            let status = await exit.value
            let record = try await ImportStatus.read(url)
            if status == 0 {
                #expect(record.isComplete)  // finished before the restart landed: nothing to resume
                return
            }
            #expect(status == 1)
            #expect(!record.isComplete)
            for file in record.files where file.state != .pending {
                let rows = try await ImportTableContent.psql(
                    server.url, "SELECT count(*) FROM \"\(name)\".\"\(file.name.dropLast(4))\"")
                #expect(rows == [String(file.rows)], "\(file.name): whole batches only")
            }
            let resumed = try await SwitchyardProcess.run(arguments + ["--resume"])
            #expect(resumed.status == 0, "\(resumed.standardError)")
            let reference = schema("restartref")
            let complete = try await SwitchyardProcess.run([
                "import", feed, "--database", server.url(schema: reference), "--batch-size", "500", "--progress",
                "none",
            ])
            #expect(complete.status == 0, "\(complete.standardError)")
            let names = tables(of: record)
            #expect(
                try await ImportTableContent.postgres(server.url, schema: name, tables: names)
                    == ImportTableContent.postgres(server.url, schema: reference, tables: names))
        }
    }

    /// Whether a child started by ``SwitchyardProcess/start(_:)`` has exited, readable without waiting for it.
    private final class ExitWatch: Sendable {
        private let ended = Atomic<Bool>(false)

        init(_ exit: Task<Int32, Never>) {
            Task { [self] in
                _ = await exit.value
                ended.store(true, ordering: .releasing)
            }
        }

        var hasEnded: Bool { ended.load(ordering: .acquiring) }
    }
#endif
