#if HTTP
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import Switchyard

    extension HTTPSession {
        /// Starts the buffered exchange of a coalesced request as a self-completing job (see `JobCompletion`): the
        /// first attempt runs on AsyncHTTPClient's callback API and completes the job from the event loop, so no task
        /// runs the exchange and no caller's task carries it (a caller that leaves only stops waiting; the job's
        /// cancellation, when the last one leaves, cancels the request).
        ///
        /// Its outcome is decided as in ``exchange(_:after:)``: the head first (``headVerdict(status:_:_:limit:isLastAttempt:)``),
        /// then the body within the limit. A retryable failure before the last attempt continues there, in a task at
        /// the request's priority, waiting as after any failed attempt. Called once the job holds its host slot;
        /// returns at once.
        func startExchange(_ prepared: PreparedRequest, _ completion: JobCompletion<HTTPResponse, any Error>) {
            if completion.isCancelled {  // the last caller left before the job started
                return completion.fail(HTTPError(request: prepared.label, reason: .cancelled))
            }
            let request = prepared.request
            let limit = request.maximumResponseSize ?? configuration.maximumResponseSize
            // A `ByteBuffer` holds at most 4 GiB: a larger limit (or a request with a body) takes the task's path.
            guard (0...Int(UInt32.max)).contains(limit), request.body == nil,
                let clientRequest = try? HTTPClient.Request(
                    url: request.url, method: request.method, headers: request.headers)
            else { return continueExchange(prepared, after: nil, completion) }
            let isLast = !prepared.isRetryable || configuration.retry.maximumAttempts <= 1
            let delegate = BufferedResponseDelegate(limit: limit) { head in
                self.headVerdict(
                    status: Int(head.status.code), head.headers, request, limit: limit, isLastAttempt: isLast)
            }
            let task = client.execute(request: clientRequest, delegate: delegate)
            completion.onCancel { task.cancel() }
            task.futureResult.whenComplete { result in
                switch self.firstOutcome(result, prepared, isLastAttempt: isLast) {
                case .done(let response): completion.succeed(response)
                case .fail(let reason):
                    let attempts = reason == .cancelled ? [] : [reason]
                    completion.fail(HTTPError(request: prepared.label, reason: reason, attempts: attempts))
                case .retry(let reason, let retryAfter):
                    if completion.isCancelled {
                        completion.fail(HTTPError(request: prepared.label, reason: .cancelled, attempts: [reason]))
                    } else {
                        self.continueExchange(prepared, after: (reason, retryAfter), completion)
                    }
                case .restart:
                    self.continueExchange(prepared, after: nil, completion)
                }
            }
        }

        /// What the first attempt's result decides, as ``attempts(_:after:makeRequest:handle:)`` decides it for an
        /// attempt of its own.
        private func firstOutcome(
            _ result: Result<BufferedResponse, any Error>, _ prepared: PreparedRequest, isLastAttempt: Bool
        ) -> AttemptOutcome<HTTPResponse> {
            switch result {
            case .success(let response):
                return .done(
                    HTTPResponse(
                        url: prepared.request.url, status: Int(response.head.status.code),
                        headers: response.head.headers,
                        body: Array(response.body.readableBytesView)))
            case .failure(let verdict as BufferedResponseDelegate.Verdict):
                return verdict.outcome.widened()
            case .failure(let error):
                let reason = TransportErrors.reason(for: error)
                if reason == .cancelled { return .fail(.cancelled) }
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
            _ completion: JobCompletion<HTTPResponse, any Error>
        ) {
            let task = Task.detached(priority: prepared.request.priority.taskPriority) {
                do throws(HTTPError) {
                    completion.succeed(try await self.exchange(prepared, after: firstFailure))
                } catch {
                    completion.fail(error)
                }
            }
            completion.onCancel { task.cancel() }
        }
    }
#endif
