#if Push
    import CoreMetrics
    import NIOCore
    import NIOHPACK
    import Switchyard

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    extension PushClient {
        /// Sends `notifications` as one job of ``queue`` (named after the batch), with at most as many requests in
        /// flight as the connections' streams allow, and returns the summary once every notification has ended.
        ///
        /// `notifications` is read lazily, so a batch may be larger than memory. `total`, if known, gives the job's
        /// progress a total (else it counts notifications ended). Cancelling the awaiting task cancels the job: the
        /// notifications none of whose requests was written end as ``PushResult/Outcome/notSent`` (those not begun,
        /// and those whose request had not left), and those in flight whose request was written but not answered end
        /// as ``PushResult/Outcome/unconfirmed`` (APNs may have delivered them: sending them again may deliver them
        /// twice). Each is counted so in the summary.
        /// - Throws: `SubmissionError` if the queue refuses the job; `JobError.wouldDeadlock` when awaited from a job
        ///   that holds what the batch's job would need to start (the batch is then cancelled, and nothing is sent).
        public func send<Notifications: Sequence & Sendable>(
            _ notifications: Notifications, total: Int? = nil,
            onResult: @escaping @Sendable (PushResult) -> Void = { _ in }
        ) async throws -> PushSummary where Notifications.Element == PushNotification {
            try await send(notifications, total: total, on: queue, deliver: { onResult($0) })
        }

        /// ``send(_:total:onResult:)`` as a job of `jobs`, with an asynchronous `deliver`, called as `onResult` is:
        /// while a call is suspended the batch starts no new request (its requests in flight go on), which is the
        /// back-pressure of ``results(of:total:buffering:)``. A `deliver` that may stay suspended for long belongs on
        /// ``resultsQueue``, whose width cannot run out.
        func send<Notifications: Sequence & Sendable>(
            _ notifications: Notifications, total: Int?, on jobs: WorkQueue,
            deliver: @escaping @Sendable (PushResult) async -> Void
        ) async throws -> PushSummary where Notifications.Element == PushNotification {
            let name = "push \(total.map { "\($0) notifications" } ?? "notifications") to \(bundleID)"
            let job = try await jobs.submit(name) { () async -> PushSummary in
                await self.run(notifications, total: total, name: name, deliver: deliver)
            }
            return try await withTaskCancellationHandler {
                do throws(JobError<Never>) {
                    return try await job.value
                } catch .cancelled {
                    // Cancelled before its job began (a job that began returns its summary): nothing was sent.
                    var summary = PushSummary()
                    for notification in notifications {
                        let result = PushResult(notSent: notification)
                        observe(result)
                        summary.add(result)
                        await deliver(result)
                    }
                    logBatch(summary, name: name)
                    return summary
                } catch {
                    job.cancel()  // it must not run later, unawaited
                    throw error
                }
            } onCancel: {
                job.cancel()
            }
        }

        /// The batch job's body: a sliding window of sends, as wide as the pool can take at most. A result is
        /// delivered before the next notification is sent. The batch named `name` is logged once, at its end.
        private func run<Notifications: Sequence & Sendable>(
            _ notifications: Notifications, total: Int?, name: String,
            deliver: @escaping @Sendable (PushResult) async -> Void
        ) async -> PushSummary where Notifications.Element == PushNotification {
            let context = JobContext.current
            let window = configuration.connections * configuration.streamsPerConnection
            var summary = PushSummary()
            var ended = 0
            await withTaskGroup(of: PushResult.self) { group in
                var running = 0
                func record(_ result: PushResult) async {
                    summary.add(result)
                    await deliver(result)
                    ended += 1
                    context?.reportProgress(completed: Int64(ended), total: Int64(max(total ?? ended, ended)))
                }
                // The payload last found to be a JSON object: a batch usually sends one payload to many devices, so
                // its JSON is checked once, not per notification (`==` on the same array storage is O(1)).
                var checkedPayload: [UInt8]?
                for notification in notifications {
                    if Task.isCancelled {
                        let result = PushResult(notSent: notification)
                        observe(result)
                        await record(result)
                        continue
                    }
                    if notification.payload != checkedPayload, PushNotification.isJSONObject(notification.payload) {
                        checkedPayload = notification.payload
                    }
                    let jsonChecked = notification.payload == checkedPayload
                    if running == window, let result = await group.next() {
                        running -= 1
                        await record(result)
                    }
                    group.addTask { await self.send(notification, jsonChecked: jsonChecked) }
                    running += 1
                }
                for await result in group { await record(result) }
            }
            logBatch(summary, name: name)
            return summary
        }

        /// Sends one notification and returns how it ended: delivered, failed (APNs's answer after the last attempt,
        /// or the client's reason), not sent (cancelled before any of its requests was written), or unconfirmed
        /// (cancelled after a request of it was written, with no answer to it). Retries what may succeed later (see
        /// the type).
        public func send(_ notification: PushNotification) async -> PushResult {
            await send(notification, jsonChecked: false)
        }

        /// ``send(_:)``; `jsonChecked`: the payload is known to be a JSON object. The result is counted and logged
        /// (``observe(_:)``).
        func send(_ notification: PushNotification, jsonChecked: Bool) async -> PushResult {
            let result = await attempt(notification, jsonChecked: jsonChecked)
            observe(result)
            return result
        }

        /// ``send(_:jsonChecked:)``'s requests, until one is answered for good, the attempts run out, or the task is
        /// cancelled.
        private func attempt(_ notification: PushNotification, jsonChecked: Bool) async -> PushResult {
            // Whether a request of it was written and never answered: APNs may have delivered it.
            var mayHaveArrived = false
            func ended(_ outcome: PushResult.Outcome, _ attempts: Int) -> PushResult {
                PushResult(
                    id: notification.id, deviceToken: notification.deviceToken, outcome: outcome, attempts: attempts)
            }
            func cancelled(_ attempts: Int) -> PushResult {
                ended(mayHaveArrived ? .unconfirmed : .notSent, attempts)
            }
            if let problem = notification.problem(checkingJSON: !jsonChecked) {
                return ended(.failed(PushFailure(reason: problem, status: 0)), 0)
            }
            let body = ByteBuffer(bytes: notification.payload)
            var attempts = 0
            var last = PushFailure(reason: .noAnswer, status: 0)
            while attempts < configuration.attempts {
                if Task.isCancelled { return cancelled(attempts) }
                let connection: PushConnection
                do {
                    connection = try await acquireStream()
                } catch let failure as PushFailure {
                    return ended(.failed(failure), attempts)
                } catch is CancellationError {
                    return cancelled(attempts)
                } catch {
                    continue  // granted a connection that closed meanwhile: ask again
                }
                attempts += 1
                let token: ProviderToken
                do {
                    token = try await providerToken()
                } catch {
                    release(connection)
                    return ended(
                        .failed(PushFailure(reason: .invalidProviderToken, status: 0, detail: "\(error)")), attempts)
                }
                let head = Self.head(
                    for: notification, topic: bundleID + notification.type.topicSuffix, token: token,
                    host: connection.host)
                metrics.requests.increment()
                do throws(PushConnection.StreamError) {
                    let answer = try await connection.send(head, body: body, timeout: configuration.requestTimeout)
                    release(connection)
                    metrics.recordDuration(answer.latency)
                    if answer.status == 200 { return ended(.delivered, attempts) }
                    let failure = Self.failure(from: answer)
                    guard failure.disposition == .retry else { return ended(.failed(failure), attempts) }
                    last = failure
                    if failure.reason == .expiredProviderToken {
                        // Too young to replace: wait until it may be, then replace it.
                        while case .wait(let after) = tokenExpired(token) {
                            do { try await configuration.clock.sleep(for: after) } catch {
                                return cancelled(attempts)
                            }
                        }
                        continue  // with a new token, at once
                    }
                } catch {
                    release(connection)
                    if case .unanswered(sent: true) = error { mayHaveArrived = true }
                    if Task.isCancelled { return cancelled(attempts) }
                    last = PushFailure(reason: .noAnswer, status: 0, detail: error.description)
                }
                guard attempts < configuration.attempts else { break }
                logRetry(notification, after: last, attempts: attempts)
                do {
                    try await configuration.clock.sleep(for: backoff(after: attempts))
                } catch {
                    return cancelled(attempts)
                }
            }
            return ended(.failed(last), attempts)
        }

        /// The delay before attempt `attempts + 1`: ``Configuration/backoff`` doubled per attempt, capped, ±50%.
        func backoff(after attempts: Int) -> Duration {
            let base = configuration.backoff * (1 << min(attempts - 1, 20))
            let capped = min(base, configuration.maximumBackoff)
            return capped * Double.random(in: 0.5...1.5)
        }

        /// The request for `notification`: HTTP/2 pseudo-headers, then APNs's headers (the body's length is its DATA
        /// frame's).
        static func head(for notification: PushNotification, topic: String, token: ProviderToken, host: String)
            -> HPACKHeaders
        {
            var headers = HPACKHeaders()
            headers.reserveCapacity(13)
            headers.add(name: ":method", value: "POST")
            headers.add(name: ":scheme", value: "https")
            // Values new with every request are not indexed: HPACK's dynamic table keeps the ones repeated (the token,
            // the topic), found at once, instead of filling with paths and IDs that never come again.
            headers.add(name: ":path", value: "/3/device/\(notification.deviceToken)", indexing: .nonIndexable)
            headers.add(name: ":authority", value: host)
            headers.add(name: "authorization", value: token.authorization)
            headers.add(name: "apns-id", value: notification.id.uuidString, indexing: .nonIndexable)
            headers.add(name: "apns-topic", value: topic)
            headers.add(name: "apns-push-type", value: notification.type.rawValue)
            if let priority = notification.priority {
                headers.add(name: "apns-priority", value: "\(priority.rawValue)")
            }
            if let expiration = notification.expiration {
                headers.add(name: "apns-expiration", value: "\(max(0, Int(expiration.timeIntervalSince1970)))")
            }
            if let collapse = notification.collapseID { headers.add(name: "apns-collapse-id", value: collapse) }
            return headers
        }

        /// APNs's error answer: its `reason` (and `timestamp`), or the status alone (`HTTP<status>`) when the body
        /// says nothing readable. A body cut at ``PushConnection/Answer/bodyLimit`` bytes is read as far as it goes
        /// (a JSON object cut short is not read), and the failure's detail says it was cut.
        static func failure(from answer: PushConnection.Answer) -> PushFailure {
            struct Body: Decodable {
                var reason: String?
                var timestamp: Int?
            }
            let body = try? JSONDecoder().decode(Body.self, from: Data(answer.body))
            let reason = body?.reason.map(PushReason.init(rawValue:)) ?? PushReason(rawValue: "HTTP\(answer.status)")
            let limit = PushConnection.Answer.bodyLimit
            let detail =
                answer.isCut
                ? "the answer's body was longer than \(limit) bytes, which no APNs answer is; its first \(limit) bytes "
                    + "were read" : nil
            return PushFailure(reason: reason, status: answer.status, timestamp: body?.timestamp, detail: detail)
        }
    }
#endif
