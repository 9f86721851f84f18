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
    /// Its outcome is decided as in ``exchange(_:after:)``: a retryable failure before the last attempt continues
    /// there, in a task, waiting as after any failed attempt. Called once the job holds its host slot; returns at
    /// once.
    func startExchange(_ prepared: PreparedRequest, _ completion: JobCompletion<HTTPResponse, any Error>) {
        let request = prepared.request
        let limit = request.maximumResponseSize ?? configuration.maximumResponseSize
        // The accumulator holds at most 4 GiB (a `ByteBuffer`); a larger limit takes the task's path.
        guard limit <= Int(UInt32.max), request.body == nil,
            let clientRequest = try? HTTPClient.Request(
                url: request.url, method: request.method, headers: request.headers)
        else { return continueExchange(prepared, after: nil, completion) }
        let task = client.execute(
            request: clientRequest, delegate: ResponseAccumulator(request: clientRequest, maxBodySize: limit))
        completion.onCancel { task.cancel() }
        task.futureResult.whenComplete { result in
            let isLast = !prepared.isRetryable || self.configuration.retry.maximumAttempts <= 1
            switch self.firstOutcome(result, prepared, limit: limit, isLastAttempt: isLast) {
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

    /// What the first attempt's result decides, as ``exchange(_:after:)``'s handler and ``attempts(_:after:makeRequest:handle:)``
    /// decide it for an attempt of theirs.
    private func firstOutcome(
        _ result: Result<HTTPClient.Response, any Error>, _ prepared: PreparedRequest, limit: Int,
        isLastAttempt: Bool
    ) -> AttemptOutcome<HTTPResponse> {
        switch result {
        case .success(let response):
            let status = Int(response.status.code)
            if !isLastAttempt, configuration.retry.retryableStatuses.contains(status) {
                return .retry(.status(status), retryAfter: RetryAfter.parse(response.headers))
            }
            if prepared.request.requiresSuccessStatus, !(200..<300).contains(status) { return .fail(.status(status)) }
            let body = response.body.map { Array($0.readableBytesView) } ?? []
            return .done(
                HTTPResponse(url: prepared.request.url, status: status, headers: response.headers, body: body))
        case .failure(let error):
            if error is ResponseAccumulator.ResponseTooBigError { return .fail(.responseTooLarge(limit: limit)) }
            let reason = TransportErrors.reason(for: error)
            switch reason {
            case .cancelled: return .fail(.cancelled)
            case .transport, .timedOut: return isLastAttempt ? .fail(reason) : .retry(reason, retryAfter: nil)
            default: return .fail(reason)
            }
        }
    }

    /// Carries the exchange on in a task (the retries after `firstFailure`, or every attempt when nil), and
    /// completes the job with its end; the job's cancellation cancels the task.
    private func continueExchange(
        _ prepared: PreparedRequest, after firstFailure: (reason: HTTPError.Reason, retryAfter: Duration?)?,
        _ completion: JobCompletion<HTTPResponse, any Error>
    ) {
        let task = Task {
            do throws(HTTPError) {
                completion.succeed(try await self.exchange(prepared, after: firstFailure))
            } catch {
                completion.fail(error)
            }
        }
        completion.onCancel { task.cancel() }
    }
}
