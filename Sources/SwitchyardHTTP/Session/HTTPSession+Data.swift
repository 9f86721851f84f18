#if HTTP
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    @_spi(Testing) import Switchyard

    extension HTTPSession {
        /// Fetches `request` and reads its body into memory (up to the size limit), as a job of its host's queue.
        ///
        /// Identical `GET` / `HEAD` requests in flight share one exchange (see "Coalescing"). Retries per the session's
        /// policy; a status outside 200–299 throws unless ``HTTPRequest/requiresSuccessStatus`` is false.
        /// - Throws: ``HTTPError``: a bad URL, a status, a body over the limit, a transport failure after the
        ///   retries, a timeout, or cancellation (the caller's task, or the session's shutdown).
        public func data(for request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            let prepared = try PreparedRequest(request)
            return try await call(prepared) { (hop, lane) async throws(HTTPError) -> HopEnd<HTTPResponse> in
                if hop.request.isCoalescable { return try await self.sharedExchange(hop, on: lane) }
                return try await self.runJob(hop, on: lane) { () async throws(HTTPError) -> HopEnd<HTTPResponse> in
                    try await self.exchange(hop)
                }
            }
        }

        /// How many callers of ``data(for:)`` wait for the exchange `request` would join: 0 when none is in flight.
        /// For diagnostics and tests. - Complexity: O(1) (plus checking the URL).
        public func callersWaiting(for request: HTTPRequest) -> Int {
            guard request.isCoalescable, let prepared = try? PreparedRequest(request) else { return 0 }
            return existingLane(prepared.host)?.coalescer.waiterCount(for: prepared.key) ?? 0
        }

        #if SWITCHYARD_TEST_HOOKS
            /// Returns once at least `count` callers of ``data(for:)`` wait for the exchange `request` would join (as
            /// ``callersWaiting(for:)`` counts them), or once the calling task is cancelled; at once for a request that
            /// is never coalesced or once the session is shut down. For tests: an event to wait for instead of polling
            /// the count. Holds the host's lane while it waits, so that the callers it waits for join that lane.
            @_spi(Testing)
            public func waitForCallers(_ count: Int, for request: HTTPRequest) async {
                guard request.isCoalescable, let prepared = try? PreparedRequest(request) else { return }
                _ = await withLane(prepared.host) { lane in
                    await lane.coalescer.waitForWaiters(count, for: prepared.key)
                }
            }
        #endif

        /// Fetches `request` and hands its head and body to `consume` as they arrive, as a job of its host's queue:
        /// the body is read with back-pressure (in fixed memory) while `consume` runs, inside the job, holding the
        /// host's slot. The exchange ends when `consume` returns or throws.
        ///
        /// Attempts that fail before `consume` is called (a transport error, a retryable status) are retried; once it
        /// is called, its result or error is final. A status outside 200–299 throws before `consume` is called unless
        /// ``HTTPRequest/requiresSuccessStatus`` is false. Never coalesced.
        /// - Throws: ``HTTPError`` for the exchange's failures (including a body over the limit while `consume`
        ///   reads it); `consume`'s own errors are rethrown wrapped as ``HTTPError/Reason/transport(_:)`` unless they
        ///   are ``HTTPError``s.
        public func stream<Value: Sendable>(
            _ request: HTTPRequest, _ consume: @escaping @Sendable (HTTPResponseHead, HTTPBody) async throws -> Value
        ) async throws(HTTPError) -> Value {
            let prepared = try PreparedRequest(request)
            return try await call(prepared) { (hop, lane) async throws(HTTPError) -> HopEnd<Value> in
                try await self.runJob(hop, on: lane) { () async throws(HTTPError) -> HopEnd<Value> in
                    try await self.streamedExchange(hop, consume)
                }
            }
        }

        /// One hop of a streamed request: attempts until `consume` is called with a final response's head and body,
        /// or the response redirects.
        private func streamedExchange<Value: Sendable>(
            _ hop: PreparedRequest, _ consume: @escaping @Sendable (HTTPResponseHead, HTTPBody) async throws -> Value
        ) async throws(HTTPError) -> HopEnd<Value> {
            let request = hop.request
            let limit = request.maximumResponseSize ?? configuration.maximumResponseSize
            return try await attempts(hop, makeRequest: { clientRequest(hop) }) { response, idle, isLast in
                if let verdict = self.headVerdict(response, request, limit: limit, isLastAttempt: isLast) {
                    return verdict.widened()
                }
                let status = Int(response.status.code)
                let head = HTTPResponseHead(url: hop.requestedURL, status: status, headers: response.headers)
                let body = HTTPBody(
                    base: response.body, limit: limit, request: hop.label, host: hop.host,
                    bytesReceived: self.metrics.bytesReceived, idle: idle)
                do {
                    return .done(try await consume(head, body))
                } catch let error as HTTPError {
                    return .fail(error.reason)
                } catch is CancellationError {
                    // The idle timeout cancelled the attempt's task (this task) while `consume` ran: final, as any
                    // error of `consume`, never a retry. A cancellation of the caller is told by the loop of attempts.
                    if idle.hasExpired {
                        return .fail(TransportErrors.reason(for: HTTPClientError.readTimeout, at: hop.host))
                    }
                    throw CancellationError()
                } catch {
                    return .fail(.transport(String(describing: error)))
                }
            }
        }

        /// One hop of a buffered request: attempts until a final response, read whole within the limit, or a
        /// redirect (`firstFailure`: see ``attempts(_:after:makeRequest:handle:)``).
        ///
        /// The body is read through ``HTTPBody``: a body over the limit fails for good, a connection that breaks or
        /// falls silent mid-body is a failed attempt; the body's bytes are counted once it is whole.
        func exchange(
            _ prepared: PreparedRequest, after firstFailure: (reason: HTTPError.Reason, retryAfter: Duration?)? = nil
        ) async throws(HTTPError) -> HopEnd<HTTPResponse> {
            let request = prepared.request
            let limit = request.maximumResponseSize ?? configuration.maximumResponseSize
            return try await attempts(prepared, after: firstFailure, makeRequest: { clientRequest(prepared) }) {
                response, idle, isLast in
                if let verdict = self.headVerdict(response, request, limit: limit, isLastAttempt: isLast) {
                    return verdict.widened()
                }
                let status = Int(response.status.code)
                var body: [UInt8] = []
                for try await buffer in HTTPBody(
                    base: response.body, limit: limit, request: prepared.label, host: prepared.host,
                    bytesReceived: nil, idle: idle)
                {
                    body += buffer.readableBytesView
                }
                self.metrics.recordBytes(body.count)  // a buffered body counts once read whole
                return .done(
                    HTTPResponse(url: prepared.requestedURL, status: status, headers: response.headers, body: body))
            }
        }

        /// What a response's head decides before its body is read, if anything: a redirect (see ``Redirect``), a retry
        /// (a retryable status before the last attempt), a status the request does not accept, or a body announced
        /// larger than `limit` (a `HEAD` response announces the `GET`'s length and has no body).
        func headVerdict(
            _ response: HTTPClientResponse, _ request: HTTPRequest, limit: Int, isLastAttempt: Bool
        ) -> AttemptOutcome<Never>? {
            headVerdict(
                status: Int(response.status.code), response.headers, request, limit: limit, isLastAttempt: isLastAttempt
            )
        }

        /// ``headVerdict(_:_:limit:isLastAttempt:)`` from a head's status and header fields.
        func headVerdict(
            status: Int, _ headers: HTTPHeaders, _ request: HTTPRequest, limit: Int, isLastAttempt: Bool
        ) -> AttemptOutcome<Never>? {
            if let next = redirect(after: status, headers, to: request) { return .redirect(next) }
            if let retry = retryVerdict(status: status, headers, isLastAttempt: isLastAttempt) { return retry }
            if request.requiresSuccessStatus, !(200..<300).contains(status) { return .fail(.status(status)) }
            if request.method != .HEAD, let length = headers.first(name: "content-length").flatMap(Int.init),
                length > limit
            {
                return .fail(.responseTooLarge(limit: limit))
            }
            return nil
        }

        /// Runs `body` as a job of `lane`'s queue and waits for it; the caller's cancellation cancels the job, and so
        /// does the session's shutdown (see ``cancelIfShutDown(_:)``).
        func runJob<Value: Sendable>(
            _ prepared: PreparedRequest, on lane: HostLane,
            _ body: @escaping @Sendable () async throws(HTTPError) -> Value
        ) async throws(HTTPError) -> Value {
            let job: Job<Value, HTTPError>
            do {
                job = try lane.queue.trySubmit(prepared.name, priority: prepared.request.priority, body)
            } catch {
                throw HTTPError(request: prepared.label, reason: .transport(error.description))
            }
            cancelIfShutDown(job)
            return try await wait(for: job, prepared)
        }

        /// Cancels `job`, just submitted, if the session is shut down by now. ``shutdown()`` cancels the jobs of the
        /// lanes it takes, held ones included; a call that held its lane before that may submit its job after the
        /// cancellation pass, and this cancels it (the flag is set before that pass). - Complexity: O(1).
        func cancelIfShutDown<Value: Sendable, Failure: Error>(_ job: Job<Value, Failure>) {
            if isShutDown { job.cancel() }
        }

        /// Waits for `job`'s value; the caller's cancellation cancels the job.
        func wait<Value: Sendable>(
            for job: Job<Value, HTTPError>, _ prepared: PreparedRequest
        ) async throws(HTTPError) -> Value {
            let result = await withTaskCancellationHandler {
                await job.result
            } onCancel: {
                job.cancel()
            }
            switch result {
            case .success(let value):
                // A job that finished with a value as its caller was cancelled: the caller moved on, so it gets the
                // cancellation it asked for, never the late value.
                if Task.isCancelled { throw HTTPError(request: prepared.label, reason: .cancelled) }
                return value
            case .failure(let error): throw Self.unwrap(error, prepared)
            }
        }

        /// The ``HTTPError`` inside a job's error; cancellation and timeouts of the job itself become ones too.
        static func unwrap<Failure: Error>(_ error: JobError<Failure>, _ prepared: PreparedRequest) -> HTTPError {
            switch error {
            case .failed(let inner as HTTPError): return inner
            case .failed(let inner):
                return HTTPError(request: prepared.label, reason: TransportErrors.reason(for: inner, at: prepared.host))
            case .cancelled: return HTTPError(request: prepared.label, reason: .cancelled)
            case .timedOut:
                return HTTPError(request: prepared.label, reason: .timedOut("timed out as a job of its host's queue"))
            default: return HTTPError(request: prepared.label, reason: .transport(error.description))
            }
        }
    }

    extension AttemptOutcome where Value == Never {
        /// The same verdict for an attempt of any value type.
        func widened<Other>() -> AttemptOutcome<Other> {
            switch self {
            case .retry(let reason, let after): return AttemptOutcome<Other>.retry(reason, retryAfter: after)
            case .fail(let reason): return AttemptOutcome<Other>.fail(reason)
            case .restart: return AttemptOutcome<Other>.restart
            case .redirect(let next): return AttemptOutcome<Other>.redirect(next)
            case .done(let never): switch never {}
            }
        }
    }
#endif
