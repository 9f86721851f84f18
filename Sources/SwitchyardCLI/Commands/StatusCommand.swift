#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardPostgres
    import SwitchyardTransit

    /// `switchyard status DATABASE`: what an import has committed so far — safe to run from another terminal while
    /// the import runs (the table fills in batch by batch).
    struct StatusCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show an import's state and committed rows per table (also while it runs).")

        @Argument(
            help:
                "The SQLite database an import writes or wrote, or a PostgreSQL URL postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=NAME] (PGPASSWORD when the URL has no password)."
        )
        var database: String

        @Option(help: "With a PostgreSQL URL: the schema whose import to show (default: the URL's, else public).")
        var schema: String?

        @Flag(help: "Print one JSON object instead of a table.")
        var json = false

        func run() async throws {
            let status: ImportStatus
            do {
                let database = database
                if PostgresURL.isPostgresURL(database) {
                    var url = try PostgresURL(database)
                    if let schema { url.schema = schema }
                    if url.password == nil { url.password = ProcessInfo.processInfo.environment["PGPASSWORD"] }
                    status = try await ImportStatus.read(url)
                } else {
                    status = try await BlockingExecutor.shared.run { try ImportStatus.read(database) }  // SQLite blocks
                }
            } catch let error as PostgresURLError {
                FileHandle.standardError.write(Data("error: \(TerminalText.visible(error.description))\n".utf8))
                throw ExitCode(1)
            } catch let error as ImportError {
                FileHandle.standardError.write(Data("error: \(TerminalText.visible(error.message))\n".utf8))
                throw ExitCode(1)
            }
            if json {
                print(status.json)
                return
            }
            print(TerminalText.visible("import of \(status.feed): \(status.state)"))
            for file in status.files {
                let name = TerminalText.visible(file.name).padding(toLength: 24, withPad: " ", startingAt: 0)
                let rows = String(file.rows)
                print(
                    "\(name) \(String(repeating: " ", count: max(0, 11 - rows.count)))\(rows) rows  \(file.state)\(file.skipped > 0 ? ", \(file.skipped) skipped" : "")\(file.warnings > 0 ? ", \(file.warnings) warnings" : "")"
                )
            }
            if !status.ignoredFiles.isEmpty {
                print(TerminalText.visible("not imported: \(status.ignoredFiles.joined(separator: ", "))"))
            }
        }
    }
#endif
