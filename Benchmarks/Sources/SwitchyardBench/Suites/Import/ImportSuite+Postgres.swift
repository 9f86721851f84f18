import Foundation
import SwitchyardPostgres
import SwitchyardSampleFeeds
import SwitchyardTransit

/// The import suite's PostgreSQL rows, on the server of `SWITCHYARD_POSTGRES_URL` (`Scripts/postgres-dev.sh start`
/// prints one; CI exports it). Goals (issue: PostgreSQL): stop_times from the zip ≥ 0.9× the rows/s of
/// `psql -c "\copy stop_times FROM file CSV HEADER"` of the same extracted CSV; the VBB-sized sample feed end to
/// end (load, indexes, checks) in < 30 s with a peak resident set ≤ 64 MB.
///
/// The anchor's table has the same columns and types as ours, except the times: `\copy` cannot turn `H:MM:SS` into
/// seconds, so they are `interval` there (the type PostgreSQL parses them into), where our importer converts them
/// to `bigint` seconds on the way.
extension ImportSuite {
    /// The server, if the environment names one.
    static var postgresURL: PostgresURL? {
        ProcessInfo.processInfo.environment["SWITCHYARD_POSTGRES_URL"].flatMap { try? PostgresURL($0) }
    }

    /// `stop_times` from `zip` into PostgreSQL against `psql \copy` of `csv`, in turns.
    func postgresThroughput(
        zip: String, csv: String, rows stopTimesRows: Int, repetitions: Int, _ runner: Runner, _ report: Report
    ) throws {
        guard var url = Self.postgresURL, let text = ProcessInfo.processInfo.environment["SWITCHYARD_POSTGRES_URL"]
        else {
            report.note(
                "SWITCHYARD_POSTGRES_URL is not set (Scripts/postgres-dev.sh start): the PostgreSQL rows are skipped")
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/psql") else {
            report.note("psql not found (install postgresql-client): the PostgreSQL rows are skipped")
            return
        }
        let header = try String(contentsOfFile: csv, encoding: .utf8).prefix { $0 != "\n" && $0 != "\r" }
        let columns = header.split(separator: ",").map { String($0) }
        let types = Dictionary(uniqueKeysWithValues: GTFSFile.stopTimes.fields.map { ($0.name, $0.type) })
        let definitions = columns.map { column -> String in
            let type: String =
                switch types[column] {
                case .time: "interval"
                case .integer: "bigint"
                case .real: "double precision"
                case .date: "date"
                case .text, nil: "text"
                }
            return "\"\(column)\" \(type)"
        }
        let connection = Self.withoutSchema(text)  // psql's URL: the database and TLS settings, without our schema
        var anchorSeconds: [Double] = []
        var oursSeconds: [Double] = []
        for _ in 0..<repetitions {
            _ = psql(
                connection,
                "DROP SCHEMA IF EXISTS bench_anchor CASCADE; CREATE SCHEMA bench_anchor; CREATE TABLE bench_anchor.stop_times (\(definitions.joined(separator: ", ")))"
            )
            let started = Clockwork.now()
            _ = psql(connection, "\\copy bench_anchor.stop_times FROM '\(csv)' CSV HEADER")
            anchorSeconds.append(Double(Clockwork.now() - started) / 1e9)
            let copied = Int(psql(connection, "SELECT count(*) FROM bench_anchor.stop_times") ?? "") ?? -1
            if copied != stopTimesRows { report.note("psql \\copy: \(copied) rows, expected \(stopTimesRows)") }
            _ = psql(connection, "DROP SCHEMA bench_anchor CASCADE")

            url.schema = "bench_ours"
            let (summary, seconds, _) = try Self.importFeed(zip, postgres: url)
            oursSeconds.append(seconds)
            if summary.files.first(where: { $0.name == "stop_times.txt" })?.imported != stopTimesRows {
                report.note("import into PostgreSQL: WRONG stop_times row count")
            }
            _ = psql(connection, "DROP SCHEMA bench_ours CASCADE")
        }
        let anchor = median(anchorSeconds) * 1e9 / Double(stopTimesRows)
        let ours = median(oursSeconds) * 1e9 / Double(stopTimesRows)
        record(
            report, "postgres/psql \\copy stop_times.txt (anchor)", nanoseconds: anchor, samples: anchorSeconds,
            items: stopTimesRows)
        record(
            report, "postgres/stop_times from the zip (GTFSImporter)", nanoseconds: ours, samples: oursSeconds,
            items: stopTimesRows, anchor: ("psql \\copy", anchor), goal: ">= 0.9x psql \\copy",
            met: ours <= anchor / 0.9)
    }

    /// The VBB-sized sample feed (at full scale) into PostgreSQL in a child process: its time and peak memory.
    /// `url` without its `schema=` parameter, which libpq does not know (its TLS parameters kept).
    static func withoutSchema(_ url: String) -> String {
        guard let mark = url.firstIndex(of: "?") else { return url }
        let kept = url[url.index(after: mark)...].split(separator: "&").filter { !$0.hasPrefix("schema=") }
        return String(url[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    func postgresEndToEnd(feed: String, profile: SampleFeedProfile, _ report: Report) {
        guard Self.postgresURL != nil, let base = ProcessInfo.processInfo.environment["SWITCHYARD_POSTGRES_URL"] else {
            return
        }
        let connection = Self.withoutSchema(base)
        let text = connection + (connection.contains("?") ? "&" : "?") + "schema=bench_vbb"
        let output =
            ChildProcess.output(environment: ["SWITCHYARD_BENCH_PROBE": "import-postgres:\(text)|\(feed)"]) ?? ""
        let numbers = output.split(separator: " ").compactMap { Double($0) }
        guard numbers.count == 3 else {
            report.note("the PostgreSQL end-to-end probe failed: \(output)")
            return
        }
        let (seconds, peak, complete) = (numbers[0], numbers[1], numbers[2] == 1)
        var time = Measurement(
            suite: name, name: "postgres/\(profile.name) sample feed end to end (s)",
            nanosecondsPerOperation: seconds * 1e9)
        time.extra = [("seconds", seconds)]
        var memory = Measurement(
            suite: name, name: "postgres/\(profile.name) end to end, peak resident (bytes)",
            nanosecondsPerOperation: peak)
        if profile == .vbb {
            time.goal = ("< 30 s", seconds < 30 && complete)
            memory.goal = ("<= 64 MB", peak <= 64 * 1_048_576)
        }
        report.record(time)
        report.record(memory)
    }

    /// Runs in the child process: imports the feed of `specification` (`URL|FEED`) into PostgreSQL and prints
    /// `SECONDS PEAK_BYTES COMPLETE`.
    static func postgresProbe(_ specification: String) {
        let parts = specification.split(separator: "|", maxSplits: 1).map(String.init)
        guard parts.count == 2, let url = try? PostgresURL(parts[0]) else { return print("bad probe") }
        do {
            var url = url
            url.password = url.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
            let (summary, _, seconds) = try importFeed(parts[1], postgres: url)
            print("\(seconds) \(PeakMemory.peakBytes() ?? -1) \(summary.isComplete ? 1 : 0)")
        } catch {
            print("failed: \(error)")
        }
    }

    private func psql(_ url: String, _ command: String) -> String? {
        ChildProcess.output(
            "/usr/bin/psql", arguments: ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", url, "-c", command])
    }
}
