#if CLI
    import Foundation
    import Switchyard
    import SwitchyardTesting
    import SwitchyardTransit
    import Testing

    @Suite("switchyard import, status and sample-feed")
    struct ImportCommandTests {
        private static let batchSize = 100

        private func scratch(_ name: String = #function) -> String {
            let path =
                NSTemporaryDirectory() + "switchyard-cli-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        @Test("sample-feed, import with --progress json (the last line is the summary), status")
        func importAndStatus() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let generated = try await SwitchyardProcess.run([
                "sample-feed", "--profile", "tiny", "--out", folder + "/feed.zip",
            ])
            #expect(generated.status == 0, "\(generated.standardError)")
            let imported = try await SwitchyardProcess.run([
                "import", folder + "/feed.zip", "--database", folder + "/feed.sqlite", "--progress", "json",
            ])
            #expect(imported.status == 0, "\(imported.standardError)")
            let lines = imported.standardOutput.split(separator: "\n")
            let last = try #require(lines.last)
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            #expect(summary["state"] as? String == "complete")
            let files = try #require(summary["files"] as? [String: [String: Any]])
            let stopTimes = try #require(files["stop_times.txt"])
            #expect((stopTimes["records"] as? Int ?? 0) > 0)
            #expect(stopTimes["records"] as? Int == stopTimes["imported"] as? Int)
            #expect(summary["seconds"] is Double)
            #expect(lines.dropLast().allSatisfy { $0.hasPrefix("{\"progress\"") })
            let status = try await SwitchyardProcess.run(["status", folder + "/feed.sqlite"])
            #expect(status.status == 0)
            #expect(status.standardOutput.contains("complete"))
            #expect(status.standardOutput.contains("stop_times.txt"))
        }

        @Test("clean errors for a corrupt zip, a missing file, an occupied database")
        func errors() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Data("not a zip".utf8).write(to: URL(fileURLWithPath: folder + "/bad.zip"))
            let corrupt = try await SwitchyardProcess.run([
                "import", folder + "/bad.zip", "--database", folder + "/a.sqlite",
            ])
            #expect(corrupt.status == 1)
            #expect(corrupt.standardError.contains("\(folder)/bad.zip: error: not a zip archive"))
            let missing = try await SwitchyardProcess.run([
                "import", folder + "/nothing.zip", "--database", folder + "/a.sqlite",
            ])
            #expect(missing.status == 1)
            #expect(missing.standardError.contains("cannot open the feed"))
            _ = try await SwitchyardProcess.run(["sample-feed", "--profile", "tiny", "--out", folder + "/feed"])
            let first = try await SwitchyardProcess.run([
                "import", folder + "/feed", "--database", folder + "/b.sqlite", "--progress", "none",
            ])
            #expect(first.status == 0)
            let again = try await SwitchyardProcess.run([
                "import", folder + "/feed", "--database", folder + "/b.sqlite",
            ])
            #expect(again.status == 1)
            #expect(again.standardError.contains("--resume"))
        }

        @Test("feed text that could drive the terminal (escape sequences, bidi overrides) is printed written out")
        func controlCharactersAreShownNotSent() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let escape = "\u{1B}]0;title\u{07}\u{1B}[2J"
            let files = [
                "agency.txt":
                    "agency_id,agency_name,agency_url,agency_timezone\nA1,Nord,https://example.org,Europe/Berlin\n",
                "stops.txt":
                    "stop_id,stop_name,stop_lat,stop_lon\nS1,Mitte,52.5,13.4\nS2,Nowhere,north\(escape),13.0\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A1,U2,1\n",
                "trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\n",
                "stop_times.txt":
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\n",
                "calendar.txt":
                    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                    + "WD,1,1,1,1,1,0,0,20250101,20251231\n",
                "notes\(escape)\u{202E}txt.md": "not GTFS\n",
            ]
            try FileManager.default.createDirectory(atPath: folder + "/feed", withIntermediateDirectories: true)
            for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/feed/" + name)) }
            let imported = try await SwitchyardProcess.run([
                "import", folder + "/feed", "--database", folder + "/feed.sqlite", "--progress", "lines",
            ])
            #expect(imported.status == 0, "\(imported.standardError)")
            for output in [imported.standardOutput, imported.standardError] {
                #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
            }
            #expect(
                imported.standardOutput.contains("north\\u{1B}]0;title\\u{7}\\u{1B}[2J"), "\(imported.standardOutput)")
            #expect(imported.standardOutput.contains("\\u{202E}txt.md"), "\(imported.standardOutput)")
            let status = try await SwitchyardProcess.run(["status", folder + "/feed.sqlite"])
            #expect(status.status == 0)
            #expect(!status.standardOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
            #expect(status.standardOutput.contains("\\u{1B}[2J"), "\(status.standardOutput)")
            // JSON escapes them too, and decodes to the same names.
            let json = try await SwitchyardProcess.run([
                "import", folder + "/feed", "--database", folder + "/json.sqlite", "--progress", "json",
            ])
            #expect(json.status == 0, "\(json.standardError)")
            #expect(!json.standardOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
            let last = try #require(json.standardOutput.split(separator: "\n").last)
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            #expect(summary["ignored_files"] as? [String] == ["notes\(escape)\u{202E}txt.md"])
        }

        @Test("SIGINT, SIGTERM and SIGKILL at random points, then --resume: identical tables", .timeLimit(.minutes(3)))
        func interruptAndResume() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let feed = folder + "/feed.zip"
            #expect(try await SwitchyardProcess.run(["sample-feed", "--profile", "tiny", "--out", feed]).status == 0)
            let reference = folder + "/reference.sqlite"
            let complete = try await SwitchyardProcess.run(
                ["import", feed, "--database", reference, "--batch-size", String(Self.batchSize), "--progress", "none"])
            #expect(complete.status == 0, "\(complete.standardError)")
            let expected = try await DatabaseTables(reference)
            let total = try ImportStatus.read(reference).files.reduce(0) { $0 + $1.rows }

            var random = SeededRandomNumberGenerator.forTest("interruptAndResume")
            var interruptions = 0
            // SIGTERM (`timeout`, `systemctl stop`) stops an import as Ctrl-C does.
            for (round, signal) in [SIGINT, SIGTERM, SIGKILL].enumerated() {
                let stops = signal != SIGKILL
                let database = folder + "/db-\(round).sqlite"
                var arguments = ["import", feed, "--database", database, "--batch-size", String(Self.batchSize)]
                // Interrupt three times per round at random amounts of committed rows, then let --resume finish.
                for attempt in 0..<3 {
                    let threshold = Int.random(in: 0..<(total * 3 / 4), using: &random)
                    let status = try await SwitchyardProcess.runUntil(arguments, rows: threshold, then: signal)
                    guard let record = try? ImportStatus.read(database) else {
                        // Stopped before the import record was written (a signal at a threshold of a few rows can land
                        // while the import is still preparing): nothing was imported, nothing to resume.
                        #expect(
                            !arguments.contains("--resume"), "round \(round) attempt \(attempt): the record is gone")
                        if stops {
                            #expect(
                                [130, signal].contains(status), "round \(round) attempt \(attempt): exit \(status)")
                        }
                        continue
                    }
                    if stops {
                        // 130: stopped at a batch boundary; 0: finished first; killed by the signal only once the
                        // import is complete and the process is on its way out.
                        let expected = record.isComplete ? [0, 130, signal] : [130]
                        #expect(
                            expected.contains(status),
                            "round \(round) attempt \(attempt): exit \(status), \(record.state)")
                    }
                    // Whole batches only: each table holds exactly the rows its import record counts.
                    for file in record.files where file.state != .pending {
                        let rows = try await DatabaseTables.count(database, table: String(file.name.dropLast(4)))
                        #expect(rows == file.rows, "\(file.name): the table matches its import record")
                        if file.state != .complete {
                            #expect(
                                file.records % Self.batchSize == 0,
                                "\(file.name): \(file.records) records are whole batches")
                        }
                    }
                    if stops && status == 130 { #expect(record.state == .interrupted) }
                    if !record.isComplete { interruptions += 1 }
                    if !arguments.contains("--resume") { arguments.append("--resume") }
                }
                let resumed = try await SwitchyardProcess.run(arguments + ["--progress", "none"])
                #expect(resumed.status == 0, "\(resumed.standardError)")
                #expect(try await DatabaseTables(database) == expected, "round \(round) (signal \(signal))")
            }
            #expect(interruptions > 0, "at least one signal landed before the import was complete")
            print("interruptAndResume: \(interruptions) of 9 signals landed mid-import")
        }

        @Test(
            "a malformed --database URL is an error (exit 1, error: --database: reason), not a usage error; usage errors stay 64"
        )
        func malformedDatabaseURL() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let feed = folder + "/feed.zip"
            #expect(try await SwitchyardProcess.run(["sample-feed", "--profile", "tiny", "--out", feed]).status == 0)
            for (url, reason) in [
                ("postgres://user@host", "--database: name the database"),
                ("postgres://a@b/c?sslmode=bogus", "--database: sslmode must be one of"),
                ("POSTGRESQL://a@b:99999/c", "--database: the port must be a number"),
                ("postgres://a@b/c?colour=blue", "--database: unsupported parameter 'colour'"),
            ] {
                let run = try await SwitchyardProcess.run(["import", feed, "--database", url])
                #expect(run.status == 1, "\(url): \(run.standardError)")
                #expect(run.standardError.hasPrefix("error: \(reason)"), "\(url): \(run.standardError)")
                #expect(!run.standardError.contains("Usage:"), "\(url): not reported as a usage error")
            }
            // --schema and --times with a malformed URL: the URL is what is wrong, not the options.
            let withSchema = try await SwitchyardProcess.run([
                "import", feed, "--database", "postgres://a@b/c?sslmode=bogus", "--schema", "x", "--times", "interval",
            ])
            #expect(withSchema.status == 1)
            #expect(withSchema.standardError.hasPrefix("error: --database: sslmode"), "\(withSchema.standardError)")
            // With --progress json the last line is the failed summary; the password shows nowhere.
            let json = try await SwitchyardProcess.run([
                "import", feed, "--database", "postgres://user:s3cret@host", "--progress", "json",
            ])
            #expect(json.status == 1)
            let summary = try lastJSON(json.standardOutput)
            #expect(summary["state"] as? String == "failed")
            #expect(summary["database"] as? String == "postgres://user:***@host")
            let error = try #require(summary["error"] as? [String: Any])
            #expect((error["message"] as? String)?.hasPrefix("--database: name the database") == true, "\(error)")
            #expect(!(json.standardOutput + json.standardError).contains("s3cret"))
            // Wrong arguments are still ArgumentParser's usage errors (64), whatever --database holds.
            for arguments in [
                ["import", feed, "--database", "postgres://user@host", "--no-such-option"],
                ["import", "--database", "postgres://user@host"],
                ["import", feed, "--database", "postgres://a@b/c", "--resume", "--replace"],
                ["import", feed, "--database", folder + "/feed.sqlite", "--schema", "x"],
            ] {
                let run = try await SwitchyardProcess.run(arguments)
                #expect(run.status == 64, "\(arguments): \(run.standardError)")
            }
        }

        @Test("--database postgres:/… (one slash) is refused as a PostgreSQL URL, never taken for a file")
        func oneSlashPostgresURL() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let feed = folder + "/feed.zip"
            #expect(try await SwitchyardProcess.run(["sample-feed", "--profile", "tiny", "--out", feed]).status == 0)
            // Run where `postgres:/tmp/` is a folder, so that taken as an SQLite path the import would succeed.
            let name = "switchyard-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(
                atPath: folder + "/postgres:/tmp", withIntermediateDirectories: true)
            let run = try await SwitchyardProcess.run(
                ["import", feed, "--database", "postgres:/tmp/" + name], directory: folder)
            #expect(run.status == 1, "\(run.standardError)")
            #expect(run.standardError.hasPrefix("error: --database: "), "\(run.standardError)")
            #expect(run.standardError.contains("postgres://"), "\(run.standardError)")
            for place in [folder + "/postgres:/tmp", "/tmp", folder] {
                let written = try FileManager.default.contentsOfDirectory(atPath: place).filter { $0.hasPrefix(name) }
                #expect(written.isEmpty, "\(place): \(written)")
            }
            // Not even `<database>.lock`, which an SQLite import takes first.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/postgres:/tmp").isEmpty)
        }

        @Test("status: a malformed PostgreSQL URL, postgres:/… included, is an error (exit 1) naming the reason")
        func statusMalformedDatabaseURL() async throws {
            for (url, reason) in [
                ("postgres://user@host", "error: name the database"),
                ("postgres://a@b/c?sslmode=bogus", "error: sslmode must be one of"),
                ("postgres:/tmp/feed.sqlite", "postgres://"),
            ] {
                let run = try await SwitchyardProcess.run(["status", url])
                #expect(run.status == 1, "\(url): \(run.standardError)")
                #expect(run.standardError.hasPrefix("error: "), "\(url): \(run.standardError)")
                #expect(run.standardError.contains(reason), "\(url): \(run.standardError)")
            }
            let usage = try await SwitchyardProcess.run(["status", "postgres://user@host", "--no-such-option"])
            #expect(usage.status == 64)
        }

        /// The last line of standard output, as a JSON object.
        private func lastJSON(_ output: String) throws -> [String: Any] {
            let last = try #require(output.split(separator: "\n").last)
            return try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        }

        @Test(
            "with --progress json a failed import still ends on one JSON summary: state failed, the error with file and line"
        )
        func jsonFailures() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // Before the import begins: no such feed, not a zip.
            try Data("stop_id\n".utf8).write(to: URL(fileURLWithPath: folder + "/stops.txt"))
            for (feed, kind) in [("/nothing.zip", "unreadable_feed"), ("/stops.txt", "unreadable_feed")] {
                let output = try await SwitchyardProcess.run([
                    "import", folder + feed, "--database", folder + "/a.sqlite", "--progress", "json",
                ])
                #expect(output.status == 1)
                let summary = try lastJSON(output.standardOutput)
                #expect(summary["state"] as? String == "failed")
                let error = try #require(summary["error"] as? [String: Any])
                #expect(error["kind"] as? String == kind)
                #expect((error["message"] as? String)?.hasPrefix(folder + feed) == true)
            }
            // During the import (--strict on the quirks of a sample feed made skipped): the file and line are known.
            _ = try await SwitchyardProcess.run(["sample-feed", "--profile", "tiny", "--out", folder + "/feed"])
            let trips = try String(contentsOfFile: folder + "/feed/trips.txt", encoding: .utf8)
            try (trips + ",,T-no-route,x\n").write(
                toFile: folder + "/feed/trips.txt", atomically: true, encoding: .utf8)
            let strict = try await SwitchyardProcess.run([
                "import", folder + "/feed", "--database", folder + "/b.sqlite", "--progress", "json", "--strict",
            ])
            #expect(strict.status == 1)
            let summary = try lastJSON(strict.standardOutput)
            #expect(summary["state"] as? String == "failed")
            let error = try #require(summary["error"] as? [String: Any])
            #expect(error["kind"] as? String == "malformed_record")
            #expect((error["file"] as? String)?.hasSuffix("feed/trips.txt") == true)
            #expect(error["line"] as? Int == trips.split(separator: "\n").count + 1)
            let files = try #require(summary["files"] as? [String: [String: Any]])
            #expect(files["stops.txt"]?["complete"] as? Bool == true)
            #expect(
                strict.standardOutput.split(separator: "\n").dropLast().allSatisfy { $0.hasPrefix("{\"progress\"") })

            // Plain lines say how it ended, and the error follows.
            let plain = try await SwitchyardProcess.run([
                "import", folder + "/feed", "--database", folder + "/c.sqlite", "--progress", "lines", "--strict",
            ])
            #expect(plain.status == 1)
            #expect(
                plain.standardError.contains(
                    "] failed\n\(folder)/feed/trips.txt:\(trips.split(separator: "\n").count + 1): error: "))
            #expect(!plain.standardError.contains("finished"))

            // Without --strict: imported, and the verdict leads with the skipped record; --max-skipped 0 fails it.
            let lossy = try await SwitchyardProcess.run([
                "import", folder + "/feed", "--database", folder + "/d.sqlite", "--progress", "none",
            ])
            #expect(lossy.status == 0)
            let verdict = try #require(lossy.standardOutput.split(separator: "\n").last)
            #expect(verdict.hasPrefix("complete, 1 of ") && verdict.contains("RECORDS SKIPPED (trips.txt 1)"))
            #expect(!lossy.standardOutput.contains("all 18 reference and key checks pass\n\ncomplete in"))
            let limited = try await SwitchyardProcess.run([
                "import", folder + "/feed", "--database", folder + "/e.sqlite", "--progress", "json", "--max-skipped",
                "0",
            ])
            #expect(limited.status == 1)
            #expect(
                (try lastJSON(limited.standardOutput)["error"] as? [String: Any])?["kind"] as? String
                    == "too_many_skipped")
            let status = try await SwitchyardProcess.run(["status", folder + "/d.sqlite", "--json"])
            let trip = try #require(
                (try lastJSON(status.standardOutput)["files"] as? [String: [String: Any]])?["trips.txt"])
            #expect(trip["skipped"] as? Int == 1 && trip["warnings"] as? Int == 0)
        }

    }
#endif
