#if HTTP
    import NIOConcurrencyHelpers
    import Switchyard
    import Synchronization

    /// A request started with a completion handler: cancel it, or let it deliver.
    ///
    /// The handler runs exactly once, through the `Delivery` the caller named. If ``cancel()`` is called on the
    /// delivery's own serial context (the main queue for `Delivery.main`: the usual case of a view that is reused),
    /// the handler receives ``HTTPError/Reason/cancelled``, never a value, even one that arrived just before: the
    /// check is made where the handler runs, so no late result reaches a caller that moved on. From another thread,
    /// a cancel that races with a delivery already under way may come too late for it.
    public final class HTTPTask: Sendable {
        private let cancelled = Atomic<Bool>(false)
        private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

        init() {}

        /// Cancels the request (see ``HTTPSession`` "Cancellation").
        public func cancel() {
            cancelled.store(true, ordering: .sequentiallyConsistent)
            task.withLockedValue { $0 }?.cancel()
        }

        /// Whether ``cancel()`` was called.
        public var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

        func start(_ work: @escaping @Sendable () async -> Void) {
            let running = Task { await work() }
            task.withLockedValue { $0 = running }
            if isCancelled { running.cancel() }
        }
    }

    extension HTTPSession {
        /// Fetches `request` like ``data(for:)``, and hands the result to `completion` through `delivery`.
        @discardableResult
        public func data(
            for request: HTTPRequest, delivery: Delivery,
            completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void
        ) -> HTTPTask {
            deliver(request, delivery, completion) { () async throws(HTTPError) -> HTTPResponse in
                try await self.data(for: request)
            }
        }

        /// Downloads `request` to `path` like ``download(_:to:ifChanged:checksum:progress:resumesPartialFile:syncsToDisk:)``,
        /// and hands the result to `completion` through `delivery`. Cancelling the task leaves what arrived in the
        /// partial file, for a resume.
        @discardableResult
        public func download(
            _ request: HTTPRequest, to path: String, ifChanged: HTTPValidators? = nil,
            checksum: DownloadChecksum? = nil,
            progress: TransferProgress? = nil, resumesPartialFile: Bool = true, syncsToDisk: Bool = false,
            delivery: Delivery, completion: @escaping @Sendable (Result<DownloadResult, HTTPError>) -> Void
        ) -> HTTPTask {
            deliver(request, delivery, completion) { () async throws(HTTPError) -> DownloadResult in
                try await self.download(
                    request, to: path, ifChanged: ifChanged, checksum: checksum, progress: progress,
                    resumesPartialFile: resumesPartialFile, syncsToDisk: syncsToDisk)
            }
        }

        /// Runs `work` in a task of its own and hands its result to `completion` through `delivery`: cancelled, never
        /// a value, when the returned task was cancelled before the delivery runs.
        private func deliver<Value: Sendable>(
            _ request: HTTPRequest, _ delivery: Delivery,
            _ completion: @escaping @Sendable (Result<Value, HTTPError>) -> Void,
            _ work: @escaping @Sendable () async throws(HTTPError) -> Value
        ) -> HTTPTask {
            let handle = HTTPTask()
            let label = PreparedRequest.label(request)
            handle.start {
                let result: Result<Value, HTTPError>
                do throws(HTTPError) { result = .success(try await work()) } catch {
                    result = .failure(error)
                }
                delivery.deliver {
                    completion(handle.isCancelled ? .failure(HTTPError(request: label, reason: .cancelled)) : result)
                }
            }
            return handle
        }
    }
#endif
