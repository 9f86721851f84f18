#if HTTP
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import Switchyard

    extension HTTPSession {
        /// Downloads `request`'s body to the file at `path`, as a job of its host's queue, in fixed memory.
        ///
        /// - The body is written to `<path>.partial` and renamed to `path` only once complete: no reader ever sees a
        ///   half file under the final name. A download that is interrupted (a dropped connection, cancellation) leaves
        ///   the partial file with what arrived; from 1 MiB on, also its validators and URL
        ///   (`<path>.partial.validators`), which make it resumable (a crash loses the last 256 KiB at most).
        /// - **Resume**: a resumable partial file of the same URL is continued with `Range` and `If-Range` (one left by
        ///   an earlier call only when `resumesPartialFile`); only a `206` for exactly the rest of the file, of the same
        ///   version, is appended, anything else restarts the file at once (without counting as a failed attempt); a server that
        ///   ignores the range (or whose resource changed) sends it whole, and the file restarts from zero. A dropped
        ///   connection is a failed attempt: retried per the session's policy, each retry resuming.
        /// - **Conditional**: with `ifChanged` (the validators of the version the caller has, from an earlier result),
        ///   the request carries `If-None-Match` / `If-Modified-Since`; a `304` leaves whatever is at `path` as it is
        ///   and reports ``DownloadResult/Outcome/unchanged`` (with the size of the file there, 0 if none).
        /// - **Progress**: bytes on disk and announced sizes go to `progress`, which may be shared by a batch.
        /// - **Checksum**: with `checksum`, the complete file's SHA-256 is computed before the rename, reported in
        ///   ``DownloadResult/sha256`` and checked against the expected digest if one is given (see
        ///   ``DownloadChecksum``: a resumed file that does not match is downloaded once more in full).
        /// - The size limit is the request's ``HTTPRequest/maximumResponseSize`` only (none by default).
        /// - **Threads**: the response is read on the client's event loops and the file is written on threads of
        ///   their own, `sy-files-<n>` (at most 4; writes into one folder serialize in the kernel anyway), 256 KiB at
        ///   a time, the next bytes read only once a write is done. A download whose first attempt puts its file in
        ///   place (or fails at the response's head) runs no task: the job completes itself from those threads.
        /// - **Redirects** are followed hop by hop (see "Redirects"), each hop a job of its own host's queue; the file,
        ///   its resume and its progress entry belong to the call, named by the URL the caller asked for.
        /// - **Durability**: the rename is atomic (a crash of the process leaves the old file or the new one, never a
        ///   mix). With `syncsToDisk`, the data is also flushed (`fsync`) before the rename and the folder after it,
        ///   so the complete file survives a power loss; that costs a disk flush per file, which `curl` and browsers
        ///   do not pay, so it is off by default.
        /// - Throws: ``HTTPError``: a bad URL or expected checksum, a status outside 200–299 (other than a `304` to a
        ///   conditional request), a transport failure after the retries, a file that cannot be written, a SHA-256
        ///   that is not the expected one, a timeout, or cancellation.
        public func download(
            _ request: HTTPRequest, to path: String, ifChanged: HTTPValidators? = nil,
            checksum: DownloadChecksum? = nil,
            progress: TransferProgress? = nil, resumesPartialFile: Bool = true, syncsToDisk: Bool = false
        ) async throws(HTTPError) -> DownloadResult {
            let prepared = try PreparedRequest(request)
            if let problem = checksum?.problem {
                throw HTTPError(request: prepared.label, reason: .invalidChecksum(problem))
            }
            // The file and the progress entry are the call's (a redirect's hops share them); the file is named by
            // the URL the caller asked for, so that a later call resumes it whatever the redirects.
            let file = PartialFile(destination: path, url: request.url)
            let entry = progress.map { TransferEntry($0, name: Self.fileName(path)) }
            defer { entry?.end() }
            let start = ContinuousClock.now
            let result = try await call(prepared) { (hop, lane) async throws(HTTPError) -> HopEnd<DownloadResult> in
                let download = Download(
                    session: self, prepared: hop, file: file, ifChanged: ifChanged, checksum: checksum, entry: entry,
                    syncs: syncsToDisk, lookForPartialFile: resumesPartialFile)
                let job: Job<HopEnd<DownloadResult>, HTTPError>
                do throws(SubmissionError) {
                    job = try lane.queue.trySubmitSelfCompleting(hop.name, priority: hop.request.priority) {
                        completion in download.start(completion)
                    }
                } catch {
                    throw HTTPError(request: hop.label, reason: .transport(error.description))
                }
                self.cancelIfShutDown(job)
                return try await self.wait(for: job, hop)
            }
            recordDownload(result, prepared, since: start)
            return result
        }

        static func fileName(_ path: String) -> String {
            path.split(separator: "/").last.map(String.init) ?? path
        }
    }

    /// One hop of a download: its attempts, what each asks for (a range, a condition), and what each one's end
    /// decides (the file in place, a failure, or a redirect to the next hop).
    ///
    /// The download is a self-completing job of its host's queue (``WorkQueue/trySubmitSelfCompleting(_:priority:start:)``):
    /// ``start(_:)`` makes the first attempt from the thread that starts the job, and an attempt that puts the file in
    /// place (or fails for good) completes the job from its callbacks, so no task runs a download that succeeds at once.
    /// Anything more (a retry and its wait, a restart, a `304`'s file size) goes on in a task, as ``run(after:)``.
    ///
    /// `@unchecked Sendable`: its mutable state (``lookForPartialFile``, ``transfer``) is used by one thread at a time —
    /// the job's start, then the first attempt's end (an event loop or a file thread), then the task that goes on, each
    /// handing over to the next through the attempt's callback or a task's creation; its file is lent to each attempt
    /// (see ``DownloadAttempt``).
    final class Download: @unchecked Sendable {
        let session: HTTPSession
        let prepared: PreparedRequest
        let file: PartialFile
        let ifChanged: HTTPValidators?
        let checksum: DownloadChecksum?
        /// The call's entry in its progress, if it has one.
        let entry: TransferEntry?
        let syncs: Bool
        /// Whether the next attempt looks for a partial file: once this call has written one (an attempt that broke
        /// off leaves it), and from the start only when the caller resumes partial files of earlier calls.
        private var lookForPartialFile: Bool
        /// The identifier of ``entry`` in its progress, once this hop started.
        private var transfer: Int?

        init(
            session: HTTPSession, prepared: PreparedRequest, file: PartialFile, ifChanged: HTTPValidators?,
            checksum: DownloadChecksum?, entry: TransferEntry?, syncs: Bool, lookForPartialFile: Bool
        ) {
            self.session = session
            self.prepared = prepared
            self.file = file
            self.ifChanged = ifChanged
            self.checksum = checksum
            self.entry = entry
            self.syncs = syncs
            self.lookForPartialFile = lookForPartialFile
        }

        /// Starts the download as its job's `start`: the first attempt, after looking for a partial file on a file
        /// thread if it resumes one. Does not block.
        func start(_ completion: JobCompletion<HopEnd<DownloadResult>, HTTPError>) {
            if completion.isCancelled { return completion.fail(HTTPError(request: prepared.label, reason: .cancelled)) }
            transfer = entry?.begin()
            guard lookForPartialFile else { return firstAttempt(resume: nil, completion) }
            PartialFile.executor.execute(priority: prepared.request.priority.taskPriority) {
                self.firstAttempt(resume: self.file.existingNow(), completion)
            }
        }

        private func firstAttempt(
            resume: ResumePoint?, _ completion: JobCompletion<HopEnd<DownloadResult>, HTTPError>
        ) {
            let isLast = !prepared.isRetryable || session.configuration.retry.maximumAttempts <= 1
            let attempt = makeAttempt(resume: resume, isLastAttempt: isLast)
            let request: HTTPClient.Request
            do {
                request = try clientRequest(resume: resume)
            } catch {
                let reason = TransportErrors.reason(for: error, at: prepared.host)
                return finish(
                    .failure(HTTPError(request: prepared.label, reason: reason, attempts: [reason])), completion)
            }
            completion.onCancel { attempt.cancel() }
            let start = ContinuousClock.now
            attempt.start(request, on: session.client) { end in
                self.record(end, of: attempt, number: 1, since: start)
                switch end {
                case .complete(let sha256):
                    self.finish(.success(.done(self.result(sha256: sha256, of: attempt))), completion)
                case .head(.verdict(.redirect(let next))):
                    self.finish(.success(.redirect(next)), completion)
                case .head(.verdict(.fail(let reason))):
                    self.finish(
                        .failure(HTTPError(request: self.prepared.label, reason: reason, attempts: [reason])),
                        completion)
                case .failed where completion.isCancelled:  // what arrived is written: nothing more to do
                    self.finish(.failure(HTTPError(request: self.prepared.label, reason: .cancelled)), completion)
                default:
                    let task = Task.detached(priority: self.prepared.request.priority.taskPriority) {
                        do throws(HTTPError) {
                            self.finish(.success(try await self.run(after: (end, attempt))), completion)
                        } catch {
                            self.finish(.failure(error), completion)
                        }
                    }
                    completion.onCancel { task.cancel() }
                }
            }
        }

        /// Ends the call's progress entry, unless the hop redirects (the next hop goes on with it), and completes the
        /// hop's job.
        private func finish(
            _ result: Result<HopEnd<DownloadResult>, HTTPError>,
            _ completion: JobCompletion<HopEnd<DownloadResult>, HTTPError>
        ) {
            if case .success(.redirect) = result {} else { entry?.end() }
            switch result {
            case .success(let value): completion.succeed(value)
            case .failure(let error): completion.fail(error)
            }
        }

        /// Carries the hop on in a task: decides on the first attempt's end (`first`), then makes attempts until one
        /// succeeds or redirects, fails for good, or the retry policy gives up.
        func run(
            after first: (end: DownloadAttempt.End, attempt: DownloadAttempt)
        ) async throws(HTTPError) -> HopEnd<DownloadResult> {
            var first = Optional(first)
            return try await session.attempts(prepared) {
                (isLast, number) async throws -> AttemptOutcome<DownloadResult> in
                if let (end, attempt) = first {
                    first = nil
                    return try await self.outcome(end, of: attempt)
                }
                return try await self.attempt(number, isLastAttempt: isLast)
            }
        }

        /// One attempt, number `number` of the hop: asks for the rest of a resumable partial file if there is one,
        /// and decides on its end.
        private func attempt(_ number: Int, isLastAttempt: Bool) async throws -> AttemptOutcome<DownloadResult> {
            let resume = lookForPartialFile ? try await file.existing() : nil
            let attempt = makeAttempt(resume: resume, isLastAttempt: isLastAttempt)
            let request = try clientRequest(resume: resume)
            let client = session.client
            let start = ContinuousClock.now
            let end = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<DownloadAttempt.End, Never>) in
                    attempt.start(request, on: client) { continuation.resume(returning: $0) }
                }
            } onCancel: {
                attempt.cancel()
            }
            record(end, of: attempt, number: number, since: start)
            return try await outcome(end, of: attempt)
        }

        /// Records the attempt `number` of the hop, begun at `start`, which ended with `end` (see "Metrics"): by its
        /// response's status once its head arrived, else as one without a response; not at all when it was
        /// cancelled.
        private func record(
            _ end: DownloadAttempt.End, of attempt: DownloadAttempt, number: Int, since start: ContinuousClock.Instant
        ) {
            let status = attempt.status
            if case .failed(let error) = end {
                let reason = TransportErrors.reason(for: error, at: prepared.host)
                if status == nil {
                    session.recordNoResponse(prepared, reason, since: start)
                    return
                }
                if reason == .cancelled || reason == .sessionShutDown || Task.isCancelled { return }
            }
            if let status { session.recordResponse(prepared, attempt: number, status: status, since: start) }
        }

        private func makeAttempt(
            resume: ResumePoint?, isLastAttempt: Bool
        ) -> DownloadAttempt {
            let session = session
            let request = prepared.request
            let isConditional = ifChanged != nil
            let limit = request.maximumResponseSize ?? Int.max
            return DownloadAttempt(
                file: file, limit: limit, sync: syncs, checksum: checksum,
                progress: entry.flatMap { entry in transfer.map { (entry.progress, $0) } },
                priority: prepared.request.priority.taskPriority, bytesReceived: session.metrics.bytesReceived,
                idle: session.idleSweeper
            ) { head in
                let status = Int(head.status.code)
                return DownloadHeadDecision.decide(
                    status: status, head.headers,
                    redirect: session.redirect(after: status, head.headers, to: request),
                    retry: session.retryVerdict(status: status, head.headers, isLastAttempt: isLastAttempt),
                    resume: resume, isConditional: isConditional, limit: limit)
            }
        }

        /// The attempt's request: the caller's, with `Range` and `If-Range` to continue `resume`, and the caller's
        /// validators as conditions.
        private func clientRequest(resume: ResumePoint?) throws -> HTTPClient.Request {
            let request = prepared.request
            var headers = request.headers
            if let resume, let ifRange = resume.validators.ifRange {
                headers.replaceOrAdd(name: "range", value: "bytes=\(resume.size)-")
                headers.replaceOrAdd(name: "if-range", value: ifRange)
            }
            if let ifChanged {
                if let etag = ifChanged.etag { headers.replaceOrAdd(name: "if-none-match", value: etag) }
                if let date = ifChanged.lastModified { headers.replaceOrAdd(name: "if-modified-since", value: date) }
            }
            return try HTTPClient.Request(
                url: request.url, method: request.method, headers: headers, body: request.body.map { .bytes($0) })
        }

        /// What an attempt's end decides.
        private func outcome(
            _ end: DownloadAttempt.End, of attempt: DownloadAttempt
        ) async throws -> AttemptOutcome<DownloadResult> {
            var resumedFrom: Int64?
            switch attempt.decision {
            case .write(let from, _, _)?:
                lookForPartialFile = true  // this attempt wrote the partial file, if anything arrived
                resumedFrom = from
            case .complete(let size, _)?:
                lookForPartialFile = true
                resumedFrom = size
            default:
                break
            }
            switch end {
            case .head(.unchanged):
                let size = await file.destinationSize()
                return .done(
                    DownloadResult(
                        path: file.destination, outcome: .unchanged, size: size,
                        validators: ifChanged ?? HTTPValidators()))
            case .head(.startOver):
                await file.discard()
                lookForPartialFile = false
                return .restart
            case .head(.verdict(let verdict)):
                return verdict.widened()
            case .head(.write), .head(.complete):
                return .fail(.transport("the download ended at its head"))  // never: a written head ends otherwise
            case .short:
                let expected: Int64? = if case .write(_, _, let expected)? = attempt.decision { expected } else { nil }
                return .retry(
                    .transport("the body ended after \(file.size) of \(expected ?? file.size) bytes"), retryAfter: nil)
            case .failed(let error):
                // A resumed file that does not match may be two versions spliced: downloaded once more, in full.
                if let error = error as? HTTPError, case .checksumMismatch = error.reason, let resumedFrom {
                    session.recordChecksumRestart(prepared, resumedFrom: resumedFrom, error.reason)
                    lookForPartialFile = false
                    return .restart
                }
                throw error
            case .complete(let sha256):
                return .done(result(sha256: sha256, of: attempt))
            }
        }

        /// The result of an attempt that put the whole file in place.
        private func result(sha256: String?, of attempt: DownloadAttempt) -> DownloadResult {
            let resumedFrom: Int64?
            let validators: HTTPValidators
            switch attempt.decision {
            case .write(let from, let written, _)?: (resumedFrom, validators) = (from, written)
            case .complete(let size, let written)?: (resumedFrom, validators) = (size, written)
            default: preconditionFailure("Download: a complete attempt without a body")
            }
            let outcome: DownloadResult.Outcome = resumedFrom.map { .resumed(fromByte: $0) } ?? .downloaded
            return DownloadResult(
                path: file.destination, outcome: outcome, size: file.size, validators: validators, sha256: sha256)
        }

        /// The length in a `416`'s `content-range: bytes */L`.
        static func unsatisfiedLength(_ headers: HTTPHeaders) -> Int64? {
            guard let value = headers.first(name: "content-range"), value.hasPrefix("bytes */") else { return nil }
            return Int64(value.dropFirst("bytes */".count))
        }

        /// A `content-range: bytes N-M/L` (`L` may be `*`, unknown).
        static func contentRange(_ headers: HTTPHeaders) -> (start: Int64, end: Int64, total: Int64?)? {
            guard let value = headers.first(name: "content-range"), value.hasPrefix("bytes ") else { return nil }
            let spec = value.dropFirst("bytes ".count)
            let parts = spec.split(separator: "/", maxSplits: 1)
            let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
            guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), end >= start else {
                return nil
            }
            let total = parts.count == 2 ? Int64(parts[1]) : nil
            return (start, end, total)
        }
    }
#endif
