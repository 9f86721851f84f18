#if HTTP
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import Switchyard

    extension HTTPSession {
        /// The response of a coalesced request's hop, or its redirect (see "Coalescing"): joins the exchange in flight
        /// for the same request on `lane`, or starts one there (``startExchange(_:on:_:)``).
        /// - Throws: ``HTTPError``, and cancelled once the calling task is, even when the exchange goes on for others.
        func sharedExchange(
            _ prepared: PreparedRequest, on lane: HostLane
        ) async throws(HTTPError) -> HopEnd<HTTPResponse> {
            let response: HopEnd<HTTPResponse>
            do throws(JobError<any Error>) {
                response = try await lane.coalescer.value(
                    for: prepared.key, describedAs: prepared.key.description, priority: prepared.request.priority
                ) {
                    _, completion in self.startExchange(prepared, on: lane, completion)
                }
            } catch {
                throw Self.unwrap(error, prepared)
            }
            if Task.isCancelled { throw HTTPError(request: prepared.label, reason: .cancelled) }
            return response
        }

        /// Starts the buffered exchange of a coalesced request as a self-completing job (see `JobCompletion`): the
        /// first attempt runs on AsyncHTTPClient's callback API and completes the job from the event loop, so no task
        /// runs the exchange and no caller's task carries it (a caller that leaves only stops waiting; the job's
        /// cancellation, when the last one leaves, cancels the request).
        ///
        /// Its outcome is decided as in ``exchange(_:after:)``: the head first (``headVerdict(status:_:_:limit:isLastAttempt:)``),
        /// then the body within the limit. A retryable failure before the last attempt continues there, in a task at
        /// the request's priority, waiting as after any failed attempt. Called once the job holds its host slot;
        /// returns at once.
        ///
        /// The exchange holds `lane` until it completes the job (it lets go just before), so that a host whose callers
        /// all left keeps its lane, and its queue's slots, until the cancelled exchange is done. A job that starts once
        /// the session is shut down fails at once with ``HTTPError/Reason/sessionShutDown``, sending nothing.
        func startExchange(
            _ prepared: PreparedRequest, on lane: HostLane, _ completion: JobCompletion<HopEnd<HTTPResponse>, any Error>
        ) {
            if completion.isCancelled {  // the last caller left before the job started
                return completion.fail(HTTPError(request: prepared.label, reason: .cancelled))
            }
            if isShutDown {  // submitted after shutdown() cancelled its lane's jobs (its callers held the lane before)
                return completion.fail(HTTPError(request: prepared.label, reason: .sessionShutDown))
            }
            let holds = holdAgain(lane)
            let end = ExchangeEnd(completion) { if holds { self.release(lane) } }
            let request = prepared.request
            let limit = request.maximumResponseSize ?? configuration.maximumResponseSize
            // A `ByteBuffer` holds at most 4 GiB: a larger limit (or a request with a body) takes the task's path.
            guard (0...Int(UInt32.max)).contains(limit), request.body == nil,
                let clientRequest = try? HTTPClient.Request(
                    url: request.url, method: request.method, headers: request.headers)
            else { return continueExchange(prepared, after: nil, end) }
            let isLast = !prepared.isRetryable || configuration.retry.maximumAttempts <= 1
            let delegate = BufferedResponseDelegate(limit: limit, idle: IdleWatch(idleSweeper)) { head in
                self.headVerdict(
                    status: Int(head.status.code), head.headers, request, limit: limit, isLastAttempt: isLast)
            }
            let start = ContinuousClock.now
            delegate.idle.waiting()  // from the attempt's start: a request without a body, sent at once
            let task = client.execute(request: clientRequest, delegate: delegate)
            let watched = idleSweeper.watch(delegate.idle) { task.fail(reason: HTTPClientError.readTimeout) }
            completion.onCancel { task.cancel() }
            task.futureResult.whenComplete { result in
                self.idleSweeper.unwatch(watched)
                switch self.firstOutcome(result, of: delegate, prepared, isLastAttempt: isLast, since: start) {
                case .done(let response): end.succeed(.done(response))
                case .redirect(let next): end.succeed(.redirect(next))
                case .fail(let reason):
                    let attempts = reason == .cancelled || reason == .sessionShutDown ? [] : [reason]
                    end.fail(HTTPError(request: prepared.label, reason: reason, attempts: attempts))
                case .retry(let reason, let retryAfter):
                    if completion.isCancelled {
                        end.fail(HTTPError(request: prepared.label, reason: .cancelled, attempts: [reason]))
                    } else {
                        self.continueExchange(prepared, after: (reason, retryAfter), end)
                    }
                case .restart:
                    self.continueExchange(prepared, after: nil, end)
                }
            }
        }

        /// What the first attempt's result, read by `delegate`, decides, as ``attempts(_:after:makeRequest:handle:)``
        /// decides it for an attempt of its own; the attempt, begun at `start`, is recorded (see "Metrics" and "Logs").
        private func firstOutcome(
            _ result: Result<BufferedResponse, any Error>, of delegate: BufferedResponseDelegate,
            _ prepared: PreparedRequest, isLastAttempt: Bool, since start: ContinuousClock.Instant
        ) -> AttemptOutcome<HTTPResponse> {
            switch result {
            case .success(let response):
                let status = Int(response.head.status.code)
                recordResponse(prepared, attempt: 1, status: status, since: start)
                metrics.recordBytes(response.body.readableBytes)
                return .done(
                    HTTPResponse(
                        url: prepared.requestedURL, status: status, headers: response.head.headers,
                        body: Array(response.body.readableBytesView)))
            case .failure(let verdict as BufferedResponseDelegate.Verdict):
                recordResponse(prepared, attempt: 1, status: verdict.status, since: start)
                return verdict.outcome.widened()
            case .failure(let error):
                let reason = TransportErrors.reason(for: error, at: prepared.host)
                if reason == .cancelled || reason == .sessionShutDown { return .fail(reason) }
                if let status = delegate.status {  // the body broke off after the head
                    recordResponse(prepared, attempt: 1, status: status, since: start)
                } else {
                    recordNoResponse(prepared, reason, since: start)
                }
                let outcome = Self.outcome(afterFailure: reason)
                if isLastAttempt, case .retry = outcome { return .fail(reason) }
                return outcome.widened()
            }
        }

        /// Carries the exchange on in a task (the retries after `firstFailure`, or every attempt when nil), and
        /// completes the job with its end; the job's cancellation cancels the task. Detached, at the request's
        /// priority: whatever thread starts it, the task carries none of that thread's task-locals.
        private func continueExchange(
            _ prepared: PreparedRequest, after firstFailure: (reason: HTTPError.Reason, retryAfter: Duration?)?,
            _ end: ExchangeEnd
        ) {
            let task = Task.detached(priority: prepared.request.priority.taskPriority) {
                do throws(HTTPError) {
                    end.succeed(try await self.exchange(prepared, after: firstFailure))
                } catch {
                    end.fail(error)
                }
            }
            end.completion.onCancel { task.cancel() }
        }
    }

    /// How a shared exchange completes its job: `beforeCompleting` (letting go of its lane) runs first, then the job
    /// completes. Each exchange calls ``succeed(_:)`` or ``fail(_:)`` once.
    struct ExchangeEnd: Sendable {
        let completion: JobCompletion<HopEnd<HTTPResponse>, any Error>
        let beforeCompleting: @Sendable () -> Void

        init(
            _ completion: JobCompletion<HopEnd<HTTPResponse>, any Error>,
            beforeCompleting: @escaping @Sendable () -> Void
        ) {
            self.completion = completion
            self.beforeCompleting = beforeCompleting
        }

        func succeed(_ end: HopEnd<HTTPResponse>) {
            beforeCompleting()
            completion.succeed(end)
        }

        func fail(_ error: any Error) {
            beforeCompleting()
            completion.fail(error)
        }
    }
#endif
