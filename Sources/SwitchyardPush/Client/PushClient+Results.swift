#if Push
    import Switchyard

    extension PushClient {
        /// How many results ``results(of:total:buffering:)`` keeps for a reader that has not taken them yet.
        public enum ResultBuffering: Sendable, Hashable {
            /// At most `limit` results wait to be read (at least 1; a trap otherwise). While that many wait, the batch
            /// pauses: it starts no new request (those in flight go on) until the reader takes one. Memory stays
            /// bounded whatever the reader's pace: about a hundred bytes a result, plus the requests in flight.
            case bounded(Int)
            /// Every result waits until read, however many: the batch never pauses for the reader, and memory grows
            /// with its lag (about a hundred bytes a result).
            case unbounded

            /// 1,000 results, about 100 KB.
            public static let standard = ResultBuffering.bounded(1_000)
        }

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
        /// The batch starts at once, as a job of ``resultsQueue``, whether or not the sequence is iterated yet.
        /// Results wait in the sequence until read, as `buffering` allows: with ``ResultBuffering/bounded(_:)`` (the
        /// default: 1,000) the batch pauses while the buffer is full, so a reader that lags, or never reads, holds the
        /// batch back instead of letting results pile up; its job stays running meanwhile. ``resultsQueue`` has no
        /// width to run out, so any number of paused batches hold back nothing but themselves: the batches of
        /// ``send(_:total:onResult:)`` (on ``queue``), single sends and other sequences go on (a paused batch
        /// starts no new notification; those under way end and give their streams back).
        ///
        /// Ending the iteration early (a `break`, or dropping the sequence and its iterator) cancels the batch: its
        /// remaining notifications end as not sent (or unconfirmed, see ``PushResult/Outcome``) and are no longer
        /// delivered. Cancelling the iterating task ends the iteration at its next `next()` (or the one waiting) with
        /// `CancellationError`, and the batch with it; the sequence then ends (later calls throw `CancellationError`
        /// too).
        public func results<Notifications: Sequence & Sendable>(
            of notifications: Notifications, total: Int? = nil, buffering: ResultBuffering = .standard
        ) -> PushResults where Notifications.Element == PushNotification {
            let capacity: Int
            switch buffering {
            case .bounded(let limit):
                precondition(limit >= 1, "PushClient.results: a bounded buffer holds at least one result")
                capacity = limit
            case .unbounded:
                capacity = .max
            }
            let channel = BoundedChannel<PushResult>(capacity: capacity, name: "results of a push batch to \(bundleID)")
            let batch = Task {
                do {
                    // A result that cannot be delivered (the reader is gone, which cancels the batch) is dropped.
                    let deliver: @Sendable (PushResult) async -> Void = { result in
                        _ = try? await channel.send(result)
                    }
                    _ = try await send(notifications, total: total, on: resultsQueue, deliver: deliver)
                    channel.finish()
                } catch {
                    channel.fail(error)
                }
            }
            return PushResults(storage: PushResults.Storage(channel: channel, batch: batch))
        }
    }

    /// A batch's results, in completion order, one per notification (``PushClient/results(of:total:buffering:)``).
    ///
    /// Iterate it once: several iterators share the results between them. Dropping the sequence and every iterator
    /// of it before the end cancels the batch.
    public struct PushResults: AsyncSequence, Sendable {
        public typealias Element = PushResult
        public typealias Failure = any Error

        /// The buffer and the batch, which end together when the last sequence or iterator is dropped.
        final class Storage: Sendable {
            let channel: BoundedChannel<PushResult>
            let batch: Task<Void, Never>

            init(channel: BoundedChannel<PushResult>, batch: Task<Void, Never>) {
                self.channel = channel
                self.batch = batch
            }

            /// The reader is gone: cancel the batch, and release it if it waits for room.
            deinit {
                end()
            }

            /// Cancels the batch, releases it if it waits for room, and ends the results: every later receive throws
            /// `CancellationError`. Idempotent.
            func end() {
                batch.cancel()
                channel.fail(CancellationError())
            }
        }

        let storage: Storage

        /// Receives the results.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let storage: Storage

            /// The next result, or `nil` after the last one.
            /// - Throws: the batch's error; `CancellationError` if the task is cancelled (before the call, or while
            ///   it waits), which cancels the batch and ends the sequence.
            public mutating func next() async throws -> PushResult? {
                do {
                    return try await storage.channel.receive()
                } catch is CancellationError {
                    storage.end()
                    throw CancellationError()
                }
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(storage: storage) }
    }
#endif
