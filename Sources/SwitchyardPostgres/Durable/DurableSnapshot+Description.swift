#if Postgres
    extension DurableSnapshot {
        /// The snapshot as text: one table each for queues, workers, running jobs, waiting jobs and failures (empty
        /// sections left out).
        public var description: String {
            var sections = ["durable queue \(schema)"]
            let queueRows = queues.map { queue in
                [
                    queue.name, queue.width.map(String.init) ?? "-", "\(queue.waiting)", "\(queue.available)",
                    "\(queue.running)",
                ]
            }
            sections.append(
                Self.table("queues", ["queue", "width", "waiting", "available", "running"], queueRows))
            let workerRows = workers.map { worker in
                [
                    worker.name, "\(worker.host) pid \(worker.pid)", "\(worker.running)/\(worker.concurrency)",
                    worker.isAlive ? "alive" : "gone (last seen \(Self.seconds(worker.secondsSinceSeen)) ago)",
                    worker.kinds.joined(separator: ","),
                ]
            }
            sections.append(Self.table("workers", ["worker", "process", "running", "state", "kinds"], workerRows))
            let runningRows = running.map { job in
                [
                    "\(job.id)", job.kind, job.queue, job.worker ?? "?", "\(job.attempt)",
                    Self.progress(job) + (job.isCancelRequested ? ", cancelling" : ""), Self.seconds(job.age),
                    job.lastError ?? "",
                ]
            }
            sections.append(
                Self.table(
                    "running", ["job", "kind", "queue", "worker", "attempt", "progress", "for", "previous attempt"],
                    runningRows))
            let waitingRows = waiting.map { job in
                [
                    "\(job.id)", job.kind, job.queue, job.state, Self.priority(job), Self.seconds(job.age),
                    job.reason ?? "",
                ]
            }
            sections.append(
                Self.table("waiting", ["job", "kind", "queue", "state", "priority", "age", "why"], waitingRows))
            let finishedRows = finished.map { job in
                ["\(job.id)", job.kind, job.queue, job.state, "\(job.attempts)", job.error ?? ""]
            }
            sections.append(
                Self.table("finished", ["job", "kind", "queue", "state", "attempts", "error"], finishedRows))
            return sections.filter { !$0.isEmpty }.joined(separator: "\n\n")
        }

        private static func table(_ title: String, _ header: [String], _ rows: [[String]]) -> String {
            guard !rows.isEmpty else { return "" }
            let widths = header.indices.map { column in
                ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
            }
            func line(_ cells: [String]) -> String {
                cells.enumerated().map { index, cell in
                    index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
                }.joined(separator: "  ")
            }
            return ([title + ":", "  " + line(header)] + rows.map { "  " + line($0) }).joined(separator: "\n")
        }

        private static func progress(_ job: Job) -> String {
            guard job.totalUnits > 0 else { return job.completedUnits > 0 ? "\(job.completedUnits)" : "-" }
            let percent = Double(job.completedUnits) / Double(job.totalUnits) * 100
            return "\(job.completedUnits)/\(job.totalUnits) (\(Int(percent))%)"
        }

        private static func priority(_ job: Job) -> String {
            job.priority == job.effectivePriority ? "\(job.priority)" : "\(job.priority)→\(job.effectivePriority)"
        }

        private static func seconds(_ value: Double) -> String {
            if value < 60 { return "\(Int(value.rounded()))s" }
            if value < 3600 { return "\(Int(value / 60))m\(Int(value.truncatingRemainder(dividingBy: 60)))s" }
            return "\(Int(value / 3600))h\(Int(value.truncatingRemainder(dividingBy: 3600) / 60))m"
        }
    }
#endif
