#if HTTP
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import Switchyard

    /// What one attempt's handler decided.
    enum AttemptOutcome<Value: Sendable>: Sendable {
        /// Done: return this.
        case done(Value)
        /// Failed in a way worth another attempt; `retryAfter` is the server's `Retry-After`, if it sent one.
        case retry(HTTPError.Reason, retryAfter: Duration?)
        /// Failed for good.
        case fail(HTTPError.Reason)
        /// The response showed the partial file cannot be continued (a `416`, a range not asked for): the file was
        /// discarded and the request starts over at once, without counting as a failed attempt (twice at most).
        case restart
        /// The response redirects (see ``Redirect``): this hop ends, and the call goes on with this request, on the
        /// lane of its host.
        case redirect(HTTPRequest)
    }

    /// How one hop of a call ended: with the call's value, or with a redirect to the request that follows.
    enum HopEnd<Value: Sendable>: Sendable {
        case done(Value)
        case redirect(HTTPRequest)
    }

    extension HTTPSession {
        /// Runs attempts of `prepared` until one succeeds or redirects, fails for good, or the retry policy gives up.
        ///
        /// `makeRequest` builds each attempt's request; `handle` reads the response and decides (`isLastAttempt` tells
        /// it whether a retryable status can still be retried), told by the attempt's ``IdleWatch`` when it waits for
        /// the server (``HTTPBody`` does that). Each attempt runs in a task of its own, which the idle timeout cancels
        /// (see ``watchingIdle(_:)``). See ``attempts(_:after:perform:)``.
        func attempts<Value: Sendable>(
            _ prepared: PreparedRequest,
            after firstFailure: (reason: HTTPError.Reason, retryAfter: Duration?)? = nil,
            makeRequest: () async throws(HTTPError) -> HTTPClientRequest,
            handle:
                @escaping @Sendable (HTTPClientResponse, IdleWatch, _ isLastAttempt: Bool) async throws ->
                AttemptOutcome<Value>
        ) async throws(HTTPError) -> HopEnd<Value> {
            try await attempts(prepared, after: firstFailure) { isLast, attempt in
                let request = try await makeRequest()
                return try await self.watchingIdle { idle in
                    try await self.attempt(prepared, request, number: attempt, isLast: isLast, idle: idle, handle)
                }
            }
        }

        /// One attempt of ``attempts(_:after:makeRequest:handle:)``: sends `request`, hands the response to `handle`,
        /// and records the attempt (see "Metrics").
        private func attempt<Value: Sendable>(
            _ prepared: PreparedRequest, _ request: HTTPClientRequest, number: Int, isLast: Bool, idle: IdleWatch,
            _ handle: (HTTPClientResponse, IdleWatch, _ isLastAttempt: Bool) async throws -> AttemptOutcome<Value>
        ) async throws -> AttemptOutcome<Value> {
            let start = ContinuousClock.now
            let response: HTTPClientResponse
            var request = request
            if let body = prepared.request.body, body.count > UploadParts.size {
                request.body = .stream(UploadParts(bytes: body, idle: idle), length: .known(Int64(body.count)))
            }
            idle.waiting()
            do {
                response = try await client.execute(request, deadline: .distantFuture)
            } catch {
                let expired = idle.hasExpired
                let error = expired ? HTTPClientError.readTimeout : error
                recordNoResponse(
                    prepared, TransportErrors.reason(for: error, at: prepared.host), since: start, timedOutIdle: expired
                )
                throw error
            }
            idle.holding()  // until the body is read
            // Recorded once `handle` is done with the response (its body read, or its stream consumed), unless the
            // attempt was cancelled meanwhile.
            let status = Int(response.status.code)
            do {
                let outcome = try await handle(response, idle, isLast)
                recordResponse(prepared, attempt: number, status: status, since: start)
                return outcome
            } catch {
                let reason = TransportErrors.reason(for: error, at: prepared.host)
                if reason != .cancelled, reason != .sessionShutDown, idle.hasExpired || !Task.isCancelled {
                    recordResponse(prepared, attempt: number, status: status, since: start)
                }
                throw error
            }
        }

        /// Runs `body`, one attempt on the client's async API (which gives no handle to fail a request by), in a task of
        /// its own with an ``IdleWatch`` registered: once the watch expires, the sweep cancels that task, and a
        /// cancellation it ends with is thrown as the client's read timeout (a failed attempt, worth a retry). The
        /// caller's cancellation cancels the task too, and is thrown as it is. The task inherits the caller's priority
        /// and task-locals.
        func watchingIdle<Value: Sendable>(
            _ body: @escaping @Sendable (IdleWatch) async throws -> Value
        ) async throws -> Value {
            let idle = IdleWatch(idleSweeper)
            let task = Task { try await body(idle) }
            let watched = idleSweeper.watch(idle) { task.cancel() }
            defer { idleSweeper.unwatch(watched) }
            do {
                return try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
            } catch {
                if idle.hasExpired, !Task.isCancelled, TransportErrors.reason(for: error) == .cancelled {
                    throw HTTPClientError.readTimeout
                }
                throw error
            }
        }

        /// Runs attempts of `prepared` until one succeeds or redirects, fails for good, or the retry policy gives up.
        ///
        /// `perform` makes one attempt and decides on it (`isLastAttempt` tells it whether a retryable status can still
        /// be retried; `attempt` is the attempt's number in the hop, from 1); an error it throws is a failed attempt: a
        /// transport error (connection refused or broken, a connect or idle timeout) is worth a retry; cancellation
        /// never is. Between attempts the session waits on its clock (see ``HTTPRetryPolicy``), each wait counted and
        /// logged as a retry. `perform` records its attempt in the metrics (see "Metrics").
        ///
        /// `firstFailure`, when given, is the retryable failure of a first attempt made elsewhere (see
        /// ``startExchange(_:on:_:)``): the loop then waits as after it and goes on with the second.
        func attempts<Value: Sendable>(
            _ prepared: PreparedRequest,
            after firstFailure: (reason: HTTPError.Reason, retryAfter: Duration?)? = nil,
            perform: (_ isLastAttempt: Bool, _ attempt: Int) async throws -> AttemptOutcome<Value>
        ) async throws(HTTPError) -> HopEnd<Value> {
            let policy = configuration.retry
            var failures: [HTTPError.Reason] = []
            var attempt = 0
            var restarts = 0
            if let firstFailure {
                attempt = 1
                failures.append(firstFailure.reason)
                try await waitBeforeRetry(
                    prepared, afterAttempt: 1, firstFailure.reason, retryAfter: firstFailure.retryAfter, failures)
            }
            while true {
                attempt += 1
                if Task.isCancelled { throw HTTPError(request: prepared.label, reason: .cancelled, attempts: failures) }
                let isLast = !prepared.isRetryable || attempt >= policy.maximumAttempts
                let outcome: AttemptOutcome<Value>
                do {
                    outcome = try await perform(isLast, attempt)
                } catch {
                    let reason = TransportErrors.reason(for: error, at: prepared.host)
                    if Task.isCancelled || reason == .cancelled || reason == .sessionShutDown {
                        let end: HTTPError.Reason = reason == .sessionShutDown ? reason : .cancelled
                        throw HTTPError(request: prepared.label, reason: end, attempts: failures)
                    }
                    outcome = Self.outcome(afterFailure: reason).widened()
                }
                switch outcome {
                case .done(let value):
                    return .done(value)
                case .redirect(let next):
                    return .redirect(next)
                case .restart:
                    restarts += 1
                    if restarts > 2 {
                        let reason = HTTPError.Reason.transport(
                            "the download started over three times (ranges that do not fit the partial file, or a resumed file whose checksum did not match)"
                        )
                        throw HTTPError(request: prepared.label, reason: reason, attempts: failures + [reason])
                    }
                    attempt -= 1
                case .fail(let reason):
                    failures.append(reason)
                    throw HTTPError(request: prepared.label, reason: reason, attempts: failures)
                case .retry(let reason, let retryAfter):
                    failures.append(reason)
                    guard !isLast else { throw HTTPError(request: prepared.label, reason: reason, attempts: failures) }
                    try await waitBeforeRetry(prepared, afterAttempt: attempt, reason, retryAfter: retryAfter, failures)
                }
            }
        }

        /// What an attempt that failed with `reason` (not a cancellation) decides: only a broken connection or a timeout
        /// is worth another attempt; a TLS failure, a redirect loop, a body over its limit or a file that cannot be
        /// written would fail the same way again.
        static func outcome(afterFailure reason: HTTPError.Reason) -> AttemptOutcome<Never> {
            switch reason {
            case .transport, .timedOut: .retry(reason, retryAfter: nil)
            default: .fail(reason)
            }
        }

        /// Waits on the session's clock before the attempt after `attempt`, which failed with `reason`; the retry is
        /// counted and logged first (``recordRetry(_:after:_:delay:)``). - Throws: ``HTTPError`` with `reason` when
        /// the policy gives up (a `Retry-After` too long), or cancelled.
        private func waitBeforeRetry(
            _ prepared: PreparedRequest, afterAttempt attempt: Int, _ reason: HTTPError.Reason, retryAfter: Duration?,
            _ failures: [HTTPError.Reason]
        ) async throws(HTTPError) {
            guard
                let wait = configuration.retry.wait(
                    afterAttempt: attempt, retryAfter: retryAfter, randomFraction: configuration.randomFraction())
            else { throw HTTPError(request: prepared.label, reason: reason, attempts: failures) }
            recordRetry(prepared, after: attempt, reason, delay: wait)
            do {
                try await configuration.clock.sleep(for: wait)
            } catch {
                throw HTTPError(request: prepared.label, reason: .cancelled, attempts: failures)
            }
        }

        /// The client request for `prepared`, with `extra` header fields. A body larger than ``UploadParts/size`` is
        /// left out: each attempt sends it in parts (see ``attempt(_:_:number:isLast:idle:_:)``).
        func clientRequest(_ prepared: PreparedRequest, extra: [(String, String)] = []) -> HTTPClientRequest {
            var request = HTTPClientRequest(url: prepared.request.url)
            request.method = prepared.request.method
            request.headers = prepared.request.headers
            for (name, value) in extra { request.headers.replaceOrAdd(name: name, value: value) }
            if let body = prepared.request.body, body.count <= UploadParts.size {
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            return request
        }

        /// Whether `response`'s status is worth another attempt, and the wait the server asked for; nil on the last
        /// attempt, whose response is handled like any other (an error, or returned when the request allows any status).
        func retryVerdict(_ response: HTTPClientResponse, isLastAttempt: Bool) -> AttemptOutcome<Never>? {
            retryVerdict(status: Int(response.status.code), response.headers, isLastAttempt: isLastAttempt)
        }

        /// ``retryVerdict(_:isLastAttempt:)`` from a head's status and header fields.
        func retryVerdict(status: Int, _ headers: HTTPHeaders, isLastAttempt: Bool) -> AttemptOutcome<Never>? {
            guard !isLastAttempt, configuration.retry.retryableStatuses.contains(status) else { return nil }
            return .retry(.status(status), retryAfter: RetryAfter.parse(headers))
        }

        /// Runs `body` within the request's total timeout, if the session has one: past it, `body`'s task is
        /// cancelled and the call throws ``HTTPError/Reason/timedOut(_:)``.
        func withinTotalTimeout<Value: Sendable>(
            _ prepared: PreparedRequest, _ body: @escaping @Sendable () async throws(HTTPError) -> Value
        ) async throws(HTTPError) -> Value {
            guard let total = configuration.timeouts.total else { return try await body() }
            let clock = configuration.clock
            let ending = await withTaskGroup(of: TimedEnd<Value>.self) { group in
                group.addTask {
                    do throws(HTTPError) { return .finished(.success(try await body())) } catch {
                        return .finished(.failure(error))
                    }
                }
                group.addTask {
                    do { try await clock.sleep(for: total) } catch { return .timerCancelled }
                    return .timedOut
                }
                var first = TimedEnd<Value>.timerCancelled
                while let next = await group.next() {
                    if case .timerCancelled = next { continue }
                    first = next
                    break
                }
                group.cancelAll()
                return first
            }
            switch ending {
            case .finished(let result): return try result.get()
            case .timedOut, .timerCancelled:
                throw HTTPError(
                    request: prepared.label, reason: .timedOut("timed out after \(total), the request's total timeout"))
            }
        }
    }

    /// How a call bounded by a total timeout ended.
    enum TimedEnd<Value: Sendable>: Sendable {
        case finished(Result<Value, HTTPError>)
        case timedOut
        case timerCancelled
    }
#endif
