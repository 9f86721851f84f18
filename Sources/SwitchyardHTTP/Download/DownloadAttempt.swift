#if HTTP
    import AsyncHTTPClient
    import CoreMetrics
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    import Switchyard

    /// One attempt of a download, carried out on AsyncHTTPClient's callback API: the response's head is decided on
    /// the event loop (``DownloadHeadDecision``), the body is gathered there and written to the partial file on
    /// ``PartialFile/executor`` (256 KiB at a time: the next part is read only once a write is done, which is the
    /// back-pressure to the socket), and a complete body is put in place there too. No task runs between the first
    /// byte and the file in place: a small file costs one hop to the event loop and one to a blocking thread.
    ///
    /// The attempt ends exactly once, with ``End``, through the closure given to ``start(_:on:onEnd:)``: on its event
    /// loop, on a file thread (after the last write, or the rename), or at once on the starting thread when it was
    /// cancelled before its request; never while a write of its file runs. What arrived before an attempt broke off
    /// (a dropped connection, cancellation, even after the whole body arrived) is written first, for a resume.
    ///
    /// `@unchecked Sendable` (AsyncHTTPClient requires a `Sendable` delegate): the attempt picks one event loop and
    /// pins its request there (`.delegate(on:)`; a redirect ends the attempt at its head), so AsyncHTTPClient calls the delegate and
    /// completes its task on that loop; every mutable property but `handle` is touched only there, or after the last
    /// callback by the one thread that ends the attempt. The partial file is handed to a file thread and back through
    /// the executor's queue and the event loop's. `handle` is behind its lock.
    final class DownloadAttempt: HTTPClientResponseDelegate, @unchecked Sendable {
        typealias Response = Void

        /// How an attempt ended.
        enum End: Sendable {
            /// At its head, without writing a byte: ``DownloadHeadDecision/unchanged``, `startOver` or `verdict`.
            case head(DownloadHeadDecision)
            /// The whole body is in place under the final name (with its SHA-256 when asked for).
            case complete(sha256: String?)
            /// The body ended before its announced size; what arrived is kept for a resume.
            case short
            /// A transport error, cancellation or a file that cannot be written; what arrived is kept for a resume.
            case failed(any Error)
        }

        /// Ends a request at its head, so that its body is never read (the connection is closed).
        private struct Stop: Error {}

        private let file: PartialFile
        private let decide: @Sendable (NIOHTTP1.HTTPResponseHead) -> DownloadHeadDecision
        private let limit: Int64
        private let sync: Bool
        private let checksum: DownloadChecksum?
        private let progress: (TransferProgress, Int)?
        private let priority: TaskPriority
        /// The session's `switchyard_http_bytes_received_total`: each body part written counts as it arrives.
        private let bytesReceived: Counter
        /// The session's idle timeout, and this attempt's waits for the server: a write of the partial file does not
        /// count (the socket is not read meanwhile).
        private let sweeper: IdleSweeper
        private let idle: IdleWatch

        /// The head's decision, once received; read by the download after the end.
        private(set) var decision: DownloadHeadDecision?
        /// The head's status, once received; read by the download after the end.
        private(set) var status: Int?
        private var onEnd: (@Sendable (End) -> Void)?
        /// A write of the partial file runs on a blocking thread.
        private var writing = false
        /// Why the attempt failed, when it was the attempt's own doing (a body over the limit, a file error).
        private var failure: (any Error)?
        /// AsyncHTTPClient's end of the request, once known.
        private var requestEnd: Result<Void, any Error>?
        private var ended = false
        /// The client's task once started, and whether the attempt was cancelled (before or after that).
        private let handle = NIOLockedValueBox<(task: HTTPClient.Task<Void>?, cancelled: Bool)>((nil, false))

        init(
            file: PartialFile, limit: Int, sync: Bool, checksum: DownloadChecksum?, progress: (TransferProgress, Int)?,
            priority: TaskPriority, bytesReceived: Counter, idle sweeper: IdleSweeper,
            decide: @escaping @Sendable (NIOHTTP1.HTTPResponseHead) -> DownloadHeadDecision
        ) {
            self.sweeper = sweeper
            idle = IdleWatch(sweeper)
            self.file = file
            self.limit = Int64(limit)
            self.sync = sync
            self.checksum = checksum
            self.progress = progress
            self.priority = priority
            self.bytesReceived = bytesReceived
            self.decide = decide
        }

        /// Sends `request` with `client`; `onEnd` is called once, when the attempt ends. Does not block.
        func start(
            _ request: HTTPClient.Request, on client: HTTPClient, onEnd: @escaping @Sendable (End) -> Void
        ) {
            if isCancelled { return onEnd(.failed(HTTPClientError.cancelled)) }
            let loop = client.eventLoopGroup.any()  // this thread's loop, if it is one
            self.onEnd = onEnd  // before the request exists: its callbacks read it
            idle.waiting()  // from the attempt's start
            let task = client.execute(request: request, delegate: self, eventLoop: .delegate(on: loop))
            let cancelled = handle.withLockedValue { state in
                state.task = task
                return state.cancelled
            }
            if cancelled { task.cancel() }
            // An expiry fails the request as its own read timeout would: not a cancellation, so what arrived is kept
            // and the download goes on with a retry.
            let watched = sweeper.watch(idle) { task.fail(reason: HTTPClientError.readTimeout) }
            task.futureResult.hop(to: loop).whenComplete { result in
                self.sweeper.unwatch(watched)
                self.requestEnd = result
                self.endIfSettled()
            }
        }

        /// Whether ``cancel()`` was called.
        private var isCancelled: Bool { handle.withLockedValue { $0.cancelled } }

        /// Cancels the attempt: its request is cancelled (its connection or stream closed) and it ends with
        /// ``End/failed(_:)``, after writing what arrived (a body that arrived whole is not put in place once this is
        /// called). Any thread; at most once useful.
        func cancel() {
            let task = handle.withLockedValue { state in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: NIOHTTP1.HTTPResponseHead) -> EventLoopFuture<Void> {
            idle.waiting()
            let decision = decide(head)
            self.decision = decision
            status = Int(head.status.code)
            switch decision {
            case .unchanged:
                return task.eventLoop.makeSucceededVoidFuture()  // a 304 has no body
            case .startOver, .verdict:
                return task.eventLoop.makeFailedFuture(Stop())
            case .write(let resumedFrom, let validators, let expected):
                file.begin(resumingAfter: resumedFrom, validators: validators)
                if let (progress, transfer) = progress {
                    progress.restart(transfer, onDisk: file.size, expected: expected)
                }
                return task.eventLoop.makeSucceededVoidFuture()
            case .complete(let size, let validators):
                file.begin(resumingAfter: size, validators: validators)
                if let (progress, transfer) = progress { progress.restart(transfer, onDisk: size, expected: size) }
                return task.eventLoop.makeSucceededVoidFuture()  // its short body is read and dropped
            }
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            guard case .write = decision else {
                idle.waiting()  // a body dropped as it comes is still bytes moving
                return task.eventLoop.makeSucceededVoidFuture()
            }
            guard file.size + Int64(buffer.readableBytes) <= limit else {
                let error = HTTPError(request: file.destination, reason: .responseTooLarge(limit: Int(limit)))
                failure = error
                return task.eventLoop.makeFailedFuture(error)
            }
            let due = file.gather(buffer)
            bytesReceived.increment(by: buffer.readableBytes)
            if let (progress, transfer) = progress { progress.add(transfer, bytes: Int64(buffer.readableBytes)) }
            guard due else {
                idle.waiting()
                return task.eventLoop.makeSucceededVoidFuture()
            }
            writing = true
            idle.holding()
            let promise = task.eventLoop.makePromise(of: Void.self)
            let file = file
            PartialFile.executor.execute(priority: priority) {
                let written = Result { () throws(HTTPError) in try file.writeGathered() }
                task.eventLoop.execute {
                    self.writing = false
                    self.idle.waiting()
                    switch written {
                    case .success:
                        promise.succeed()
                    case .failure(let error):
                        self.failure = error
                        promise.fail(error)
                    }
                    self.endIfSettled()
                }
            }
            return promise.futureResult
        }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {}

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {}

        /// Ends the attempt once the request has ended and no write runs. On the event loop.
        private func endIfSettled() {
            guard let requestEnd, !writing, !ended else { return }
            ended = true
            let onEnd = self.onEnd!
            self.onEnd = nil
            var written = decision
            if case .complete(let size, let validators)? = decision {
                written = .write(resumedFrom: size, validators: validators, expected: size)  // nothing to add
            }
            switch (written, requestEnd) {
            case (.write(_, _, let expected)?, .success):
                let (file, sync, checksum) = (file, sync, checksum)
                PartialFile.executor.execute(priority: priority) {
                    if let expected, file.size != expected {
                        file.keepForResume()
                        return onEnd(.short)
                    }
                    if self.isCancelled {  // the caller left: its file is not put in place behind its back
                        file.keepForResume()
                        return onEnd(.failed(HTTPClientError.cancelled))
                    }
                    do throws(HTTPError) {
                        onEnd(.complete(sha256: try file.complete(sync: sync, checksum: checksum)))
                    } catch {
                        onEnd(.failed(error))
                    }
                }
            case (.write?, .failure(let error)):
                let cause = failure ?? error
                guard file.hasGatheredBytes else { return onEnd(.failed(cause)) }
                let file = file
                PartialFile.executor.execute(priority: priority) {
                    file.keepForResume()
                    onEnd(.failed(cause))
                }
            case (.unchanged?, .failure(let error)), (nil, .failure(let error)):
                onEnd(.failed(error))
            case (let decision?, _):
                onEnd(.head(decision))
            case (nil, .success):
                onEnd(.failed(HTTPClientError.remoteConnectionClosed))
            }
        }
    }

    /// What a download attempt's response head decides, before any byte of its body is read.
    enum DownloadHeadDecision: Sendable {
        /// A `304` to a conditional request: the file the caller has is current.
        case unchanged
        /// A `416`, or a `206` that does not continue the partial file (another range, another version): the partial
        /// file is discarded and the download starts over at once.
        case startOver
        /// A redirect, a retry, or a failure, without reading the body.
        case verdict(AttemptOutcome<Never>)
        /// The body is written: after the partial file's first `resumedFrom` bytes (a `206`), or from zero;
        /// `expected` is the file's size once complete, when the response says it.
        case write(resumedFrom: Int64?, validators: HTTPValidators, expected: Int64?)
        /// The partial file already holds the whole resource (a `416` to its range naming its size as the length):
        /// it is put in place as it is; the response's body is dropped.
        case complete(size: Int64, validators: HTTPValidators)

        /// Decides on a response head: `redirect` is the request a redirect leads to (nil when the head does not
        /// redirect, or the session follows no redirects), `retry` the session's retry verdict on it (nil when none),
        /// `resume` what the request asked to continue (a partial file's size and validators), `isConditional` whether
        /// it carried the caller's validators, `limit` the largest file accepted.
        static func decide(
            status: Int, _ headers: HTTPHeaders, redirect: HTTPRequest? = nil, retry: AttemptOutcome<Never>?,
            resume: ResumePoint?, isConditional: Bool, limit: Int
        ) -> DownloadHeadDecision {
            if let redirect { return .verdict(.redirect(redirect)) }
            if let retry { return .verdict(retry) }
            if status == 304, isConditional { return .unchanged }
            if status == 416 {
                // The range began at the resource's end: the partial file is whole (a crash or a cancellation between
                // its last byte and its rename), unless the length differs or the version does.
                let etag = headers.first(name: "etag")
                guard let resume, Download.unsatisfiedLength(headers) == resume.size,
                    etag == nil || resume.validators.etag == nil || etag == resume.validators.etag
                else { return .startOver }  // the partial file no longer fits the resource
                return .complete(size: resume.size, validators: resume.validators)
            }
            guard (200..<300).contains(status) else { return .verdict(.fail(.status(status))) }
            var resumedFrom: Int64?
            var total: Int64?
            if status == 206 {
                // Only the rest of the file, as asked, of the version the partial file holds, is appended.
                let range = Download.contentRange(headers)
                let etag = headers.first(name: "etag")
                guard let resume, let range, range.start == resume.size,
                    range.total.map({ range.end + 1 == $0 }) ?? true,
                    etag == nil || resume.validators.etag == nil || etag == resume.validators.etag
                else { return .startOver }
                resumedFrom = resume.size
                total = range.end + 1
            }
            let validators = resumedFrom != nil ? resume?.validators ?? HTTPValidators() : HTTPValidators(headers)
            let length = headers.first(name: "content-length").flatMap(Int64.init)
            let expected = total ?? length.map { (resumedFrom ?? 0) + $0 }
            if let expected, expected > Int64(limit) { return .verdict(.fail(.responseTooLarge(limit: limit))) }
            return .write(resumedFrom: resumedFrom, validators: validators, expected: expected)
        }
    }
#endif
