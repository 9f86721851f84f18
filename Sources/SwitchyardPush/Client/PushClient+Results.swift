#if Push
    extension PushClient {
        /// Sends `notifications` as ``send(_:total:onResult:)`` does and returns their results as an asynchronous
        /// sequence, in completion order, one per notification; it ends after the last one, or throws what the batch
        /// threw (`SubmissionError` if the queue refused it).
        ///
        /// ```swift
        /// for try await result in client.results(of: notifications) {
        ///     if case .failed(let failure) = result.outcome, failure.disposition == .unregistered { forget(result.deviceToken) }
        /// }
        /// ```
        ///
        /// The batch starts at once, whether or not the sequence is iterated yet. Results wait in the sequence until read
        /// (about a hundred bytes each). Ending the iteration early (a `break`, or cancelling the iterating task) cancels
        /// the batch: notifications not yet answered end as not sent, and are no longer delivered to the sequence.
        public func results<Notifications: Sequence & Sendable>(
            of notifications: Notifications, total: Int? = nil
        ) -> AsyncThrowingStream<PushResult, any Error> where Notifications.Element == PushNotification {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: PushResult.self)
            let batch = Task {
                do {
                    _ = try await send(notifications, total: total) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in batch.cancel() }
            return stream
        }
    }
#endif
