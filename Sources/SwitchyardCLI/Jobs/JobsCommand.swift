#if CLI
    import ArgumentParser
    import Foundation
    import SwitchyardPostgres

    /// `switchyard jobs --database postgres://…`: what the durable queue holds now (queues, workers, running and
    /// waiting jobs with the reason each waits, the latest finished jobs), or with `--cancel ID` cancels a job.
    ///
    /// Exit status: 0 when shown (or the job was cancelled, asked to stop, or had finished already); 1 when
    /// `--database` is malformed, the server cannot be reached, the schema holds no queue, or no job has the id
    /// (`error: …` on standard error); 64 for wrong arguments.
    struct JobsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "jobs",
            abstract: "Show the durable queue's workers and jobs, or cancel a job.",
            discussion: """
                Reads one consistent snapshot: per queue its waiting, available and running jobs, the workers \
                (alive, or gone: stopped renewing without unregistering), up to --limit running jobs with their \
                progress, up to --limit waiting jobs in claim order with why each is not running, and the latest \
                --limit finished jobs. --json prints the snapshot as one JSON object (dates in ISO 8601).

                --cancel ID cancels job ID: one not yet running is cancelled at once (and the jobs waiting on it by \
                their dependencies' policies); a running one is asked to stop, and its worker cancels it within about \
                a second (an import stops at its next batch boundary and can be enqueued again to resume); a \
                finished one is left as it is. Prints the job's state after the call.

                --database postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=NAME]: the URL's schema holds the \
                queue's tables (default switchyard). Without a password in the URL, PGPASSWORD is used.
                """)

        @Option(
            help:
                "The queue's database: postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=QUEUE_SCHEMA] (default schema switchyard)."
        )
        var database: String

        @Flag(help: "Print one JSON object instead of tables.")
        var json = false

        @Option(help: "The most running, waiting and finished jobs shown (each).")
        var limit = 50

        @Option(help: "Cancel the job with this id, and print its state.")
        var cancel: Int64?

        func validate() throws {
            guard limit >= 1 else { throw ValidationError("--limit must be at least 1, got \(limit)") }
        }

        func run() async throws {
            let database = try DurableDatabase(parsing: self.database)
            try await database.probe()
            try await DurableDatabase.reporting {
                try await database.withQueue(maximumConnections: 2) { (queue: DurableQueue) async throws -> Void in
                    guard try await database.queueExists(queue) else {
                        throw DurableDatabase.failure(
                            """
                            \(database.url) holds no durable queue in schema \(queue.schema) (`switchyard enqueue` or \
                            `switchyard worker` creates it)
                            """)
                    }
                    if let cancel {
                        let state = try await queue.cancel(cancel)
                        Self.printCancelled(cancel, state: state, json: json)
                    } else {
                        Self.show(try await queue.snapshot(limit: limit), json: json)
                    }
                }
            }
        }

        /// Prints `snapshot` as text, or as one JSON object.
        private static func show(_ snapshot: DurableSnapshot, json: Bool) {
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                let text = (try? encoder.encode(snapshot)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                print(text)
            } else {
                // Line by line: the tables' line breaks stay, any other control character in a job's text is escaped.
                let lines = snapshot.description.split(separator: "\n", omittingEmptySubsequences: false)
                print(lines.map { TerminalText.visible(String($0)) }.joined(separator: "\n"))
            }
        }

        /// Prints what `--cancel` did to job `id`, whose state is now `state`.
        private static func printCancelled(_ id: Int64, state: DurableJobState, json: Bool) {
            if json {
                print("{\"job\":\(id),\"state\":\"\(state.rawValue)\"}")
                return
            }
            switch state {
            case .cancelled:
                print("job \(id): cancelled")
            case .running:
                print("job \(id): running; asked to stop (its worker cancels it within about a second)")
            default:
                print("job \(id): \(state) already; left as it is")
            }
        }
    }
#endif
