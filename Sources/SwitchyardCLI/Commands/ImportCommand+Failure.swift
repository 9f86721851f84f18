#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardPostgres
    import SwitchyardTransit

    /// The import command's defaults and the ways it ends early: the database a feed gets by default, a failure
    /// reported in the chosen style, a malformed database URL, the password kept out of what is printed.
    extension ImportCommand {
        func defaultDatabase(for feed: String) -> String {
            // Standardized first, so `.` or `gtfs/` name the folder itself, not "." or "".
            var name = URL(fileURLWithPath: feed).standardizedFileURL.lastPathComponent
            if name.hasSuffix(".zip") { name.removeLast(4) }
            return (name.isEmpty ? "feed" : name) + ".sqlite"
        }

        /// Reports `error` and exits with status 1: on standard error, and with `--progress json` also as the last
        /// line of standard output (a summary whose state is `failed`, with the import record's counts when
        /// `status` is set and the database holds one).
        func fail(_ error: ImportError, database: String, style: ProgressStyle, status: Bool) async -> Never {
            // `FILE:LINE: error: reason`, as compilers write it (editors jump to it), or `error: reason`.
            let text =
                error.file.map { "\($0)\(error.line.map { ":\($0)" } ?? ""): error: \(error.reason)" }
                ?? "error: \(error.reason)"
            FileHandle.standardError.write(Data("\(TerminalText.visible(text))\n".utf8))
            if style == .json {
                var record: ImportStatus?
                if status, let postgres = postgresURL {
                    record = try? await ImportStatus.read(postgres)
                } else if status {
                    record = try? await BlockingExecutor.shared.run { try ImportStatus.read(database) }
                }
                FileHandle.standardOutput.write(
                    Data((error.summaryJSON(database: database, status: record) + "\n").utf8))
            }
            Foundation.exit(1)
        }

        /// Whether `--database` is meant as a PostgreSQL URL (``PostgresURL/isPostgresURL(_:)``: it starts with
        /// `postgres:` or `postgresql:`, so a mistyped `postgres:/…` is never taken for a file), whether or not it
        /// parses.
        var isPostgres: Bool { database.map(PostgresURL.isPostgresURL) ?? false }

        /// Reports a `--database` meant as a PostgreSQL URL that does not parse as `error: --database: REASON` and
        /// exits with status 1, like any other error of the import (usage errors, status 64, are `validate`'s):
        /// before anything is generated, downloaded, opened or written. With `--progress json` the last line of
        /// standard output is the failed summary; neither names the URL's password.
        func refuseMalformedDatabaseURL(style: ProgressStyle) async {
            guard let database, isPostgres else { return }
            do {
                _ = try PostgresURL(database)
            } catch {
                await fail(
                    ImportError(.database, "--database: \(error)"), database: Self.withoutPassword(database),
                    style: style, status: false)
            }
        }

        /// `text`, a URL that may not parse, with the password of its user information (between the first `:` after
        /// `//` and the last `@` before the path) written `***`.
        static func withoutPassword(_ text: String) -> String {
            guard let slashes = text.range(of: "//") else { return text }
            let authorityEnd = text[slashes.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
            let authority = text[slashes.upperBound..<authorityEnd]
            guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
                return text
            }
            return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
        }

        /// `--database` as a PostgreSQL URL, with `--schema` applied and `PGPASSWORD` as its password when it names
        /// none; nil for an SQLite database (or a malformed URL, which `run` refuses first).
        var postgresURL: PostgresURL? {
            guard let database, PostgresURL.isPostgresURL(database), var url = try? PostgresURL(database) else {
                return nil
            }
            if let schema { url.schema = schema }
            if url.password == nil { url.password = ProcessInfo.processInfo.environment["PGPASSWORD"] }
            return url
        }

        /// `--max-skipped`: `10` (a count) or `0.5%` (a percentage of all records).
        static func skippedLimit(_ text: String) -> ImportOptions.SkippedLimit? {
            if text.hasSuffix("%") {
                guard let percent = Double(text.dropLast()), percent >= 0, percent <= 100 else { return nil }
                return .fraction(percent / 100)
            }
            return Int(text).flatMap { $0 >= 0 ? .count($0) : nil }
        }

        /// Exits with status 130 when the import was interrupted, after telling on standard error how to continue it.
        func exitIfInterrupted(_ summary: ImportSummary, feedPath: String, databasePath: String) throws {
            if summary.state == .interrupted {
                let feedArgument = sample.map { "--sample \($0)" } ?? shellQuoted(feedPath)
                FileHandle.standardError.write(
                    Data(
                        """
                        stopped; the database holds every batch committed so far. Continue with:
                          switchyard import \(feedArgument) --database \(shellQuoted(databasePath)) --resume

                        """.utf8))
                throw ExitCode(130)
            }
        }
    }
#endif
