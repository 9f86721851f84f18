#if Postgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PostgresNIO
    import Switchyard

    extension DurableQueue {
        /// Enqueues one job of `kind` with `input`, in a transaction of its own.
        ///
        /// With dependencies, the job waits until they finish; one that has already failed or been cancelled decides
        /// at once by its edge's policy (the job is then enqueued already cancelled or failed). Its priority lifts
        /// every unfinished job it waits on, transitively. With a uniqueness key held by an unfinished job, that job
        /// is returned (``DurableJob/isNew`` false) and nothing is enqueued.
        ///
        /// - Throws: ``DurableError/Kind/noSuchJob`` for a dependency that does not exist; the encoder's error for an
        ///   input that does not encode, ``DurableError/Kind/unstorable`` for one holding a NUL character; postgres-nio's errors when the server cannot be reached.
        public func enqueue<Input, Output>(
            _ kind: DurableJobKind<Input, Output>, _ input: Input, options: DurableJobOptions = DurableJobOptions()
        ) async throws -> DurableJob<Output> {
            let request = try EnqueueRequest(kind: kind.name, inputs: [input], options: options)
            let jobs: [DurableJob<Output>] = try await retryingDeadlocks {
                try await guarded { [request] connection in try await self.run(request, on: connection) }
            }
            return jobs[0]
        }

        /// Enqueues one job on `connection`, inside the transaction the caller has open there: the job exists if and
        /// only if that transaction commits. Workers are woken at commit. With dependencies, the jobs it waits on
        /// stay locked until the transaction ends: keep it short.
        ///
        /// ```swift
        /// try await client.withTransaction(logger: logger) { connection in
        ///     try await connection.query("INSERT INTO orders … ", logger: logger)
        ///     _ = try await queue.enqueue(.sendReceipt, Receipt(order: id), on: connection)
        /// }
        /// ```
        public func enqueue<Input, Output>(
            _ kind: DurableJobKind<Input, Output>, _ input: Input, options: DurableJobOptions = DurableJobOptions(),
            on connection: PostgresConnection
        ) async throws -> DurableJob<Output> {
            let request = try EnqueueRequest(kind: kind.name, inputs: [input], options: options)
            return try await run(request, on: connection)[0]
        }

        /// Enqueues one job per input, all with the same options, in one round trip per 10,000 inputs (each chunk its
        /// own transaction). The handles come back in the inputs' order. With a uniqueness key in `options`, only the
        /// first input can create a job: give keys per input with ``enqueue(_:many:options:keys:)``.
        public func enqueue<Input, Output>(
            _ kind: DurableJobKind<Input, Output>, many inputs: [Input],
            options: DurableJobOptions = DurableJobOptions()
        ) async throws -> [DurableJob<Output>] {
            try await enqueue(kind, many: inputs, options: options, keys: nil)
        }

        /// Enqueues one job per input with a uniqueness key each (`keys[i]` for `inputs[i]`; nil for none).
        public func enqueue<Input, Output>(
            _ kind: DurableJobKind<Input, Output>, many inputs: [Input], options: DurableJobOptions, keys: [String?]?
        ) async throws -> [DurableJob<Output>] {
            precondition(keys == nil || keys!.count == inputs.count, "DurableQueue.enqueue: one key per input")
            var result: [DurableJob<Output>] = []
            result.reserveCapacity(inputs.count)
            var start = 0
            while start < inputs.count {
                let end = min(start + 10_000, inputs.count)
                var request = try EnqueueRequest(kind: kind.name, inputs: inputs[start..<end], options: options)
                if let keys { request.keys = keys[start..<end].map { $0 ?? "" } }
                let jobs: [DurableJob<Output>] = try await retryingDeadlocks {
                    try await guarded { [request] connection in try await self.run(request, on: connection) }
                }
                result += jobs
                start = end
            }
            return result
        }

        /// Enqueues a job of `kind` whose input is `parent`'s output, read when the job starts: it waits for
        /// `parent`, and is cancelled (or failed, with `policy` `.propagateFailure`) if `parent` does not succeed.
        public func enqueue<Input, Output>(
            _ kind: DurableJobKind<Input, Output>, inputFrom parent: DurableJob<Input>,
            policy: ResultDependencyPolicy = .cancelDependent, options: DurableJobOptions = DurableJobOptions()
        ) async throws -> DurableJob<Output> {
            var options = options
            options.dependencies.append(
                DurableDependency(parent.id, policy: policy == .cancelDependent ? .cancelDependent : .propagateFailure))
            var request = try EnqueueRequest(kind: kind.name, inputs: [Optional<Input>.none], options: options)
            request.inputFrom = parent.id
            let jobs: [DurableJob<Output>] = try await retryingDeadlocks {
                try await guarded { [request] connection in try await self.run(request, on: connection) }
            }
            return jobs[0]
        }

        /// Runs `request` as one call of the schema's `enqueue` function.
        func run<Output>(_ request: EnqueueRequest, on connection: PostgresConnection) async throws
            -> [DurableJob<Output>]
        {
            let options = request.options
            let query: PostgresQuery = """
                SELECT job_id, created FROM \(unescaped: s).enqueue(
                    \(request.kind), \(options.queue), \(Int16(options.priority.level)), \(request.inputs),
                    \(request.inputFrom), \(Int32(options.maximumAttempts)), \(options.backoff.durableMilliseconds),
                    \(options.maximumBackoff.durableMilliseconds), \(options.timeout?.durableMilliseconds),
                    now() + \(options.delay?.durableMilliseconds ?? 0) * interval '1 millisecond', \(request.keys), \(options.dependencies.map(\.jobID)),
                    \(options.dependencies.map(\.storedPolicy)))
                """
            var jobs: [DurableJob<Output>] = []
            jobs.reserveCapacity(request.inputs.count)
            do {
                let rows = try await connection.query(query, logger: logger)
                for try await (id, created) in rows.decode((Int64?, Bool).self) {
                    guard let id else {
                        throw DurableError(
                            .noSuchJob, "the unfinished job holding a uniqueness key finished meanwhile: enqueue again")
                    }
                    jobs.append(DurableJob(id: id, isNew: created, queue: self))
                }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23503" {
                throw DurableError(.noSuchJob, error.serverInfo?[.message] ?? "a dependency does not exist")
            }
            return jobs
        }
    }

    /// The arguments of one call of the schema's `enqueue` function.
    struct EnqueueRequest: Sendable {
        var kind: String
        var inputs: [String]
        var keys: [String]
        var inputFrom: Int64?
        var options: DurableJobOptions

        init<Inputs: Collection>(kind: String, inputs: Inputs, options: DurableJobOptions) throws
        where Inputs.Element: Encodable {
            let encoder = DurableJobs.encoder
            self.kind = kind
            self.inputs = try inputs.map { input in
                if let optional = input as? any OptionalProtocol, optional.isNone { return "" }
                let text = String(decoding: try encoder.encode(input), as: UTF8.self)
                guard !text.contains("\\u0000") else {
                    throw DurableError(
                        .unstorable,
                        "the input of kind \(kind) holds a NUL character, which PostgreSQL's jsonb cannot store")
                }
                return text
            }
            keys = Array(repeating: "", count: self.inputs.count)
            if !keys.isEmpty { keys[0] = options.uniqueKey ?? "" }
            self.options = options
        }

        /// A request for inputs already encoded as JSON text ("" for none).
        init(kind: String, encodedInputs: [String], options: DurableJobOptions) {
            self.kind = kind
            inputs = encodedInputs
            keys = Array(repeating: "", count: encodedInputs.count)
            if !keys.isEmpty { keys[0] = options.uniqueKey ?? "" }
            self.options = options
        }
    }

    /// Lets an enqueue tell a missing input (a job whose input is another's output) from an encoded one.
    protocol OptionalProtocol {
        var isNone: Bool { get }
    }

    extension Optional: OptionalProtocol {
        var isNone: Bool { self == nil }
    }
#endif
