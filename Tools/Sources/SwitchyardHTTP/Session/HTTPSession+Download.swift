import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Switchyard

extension HTTPSession {
    /// Downloads `request`'s body to the file at `path`, as a job of its host's queue, in fixed memory.
    ///
    /// - The body is written to `<path>.partial` and renamed to `path` only once complete: no reader ever sees a
    ///   half file under the final name. A download that is interrupted (a dropped connection, cancellation) leaves
    ///   the partial file with what arrived; from 1 MiB on, also its validators and URL
    ///   (`<path>.partial.validators`), which make it resumable (a crash loses the last 256 KiB at most).
    /// - **Resume**: a resumable partial file of the same URL is continued with `Range` and `If-Range` (one left by
    ///   an earlier call only when `resumesPartialFile`); only a `206` for exactly the rest of the file, of the same
    ///   version, is appended, anything else restarts the file at once (without counting as a failed attempt); a server that
    ///   ignores the range (or whose resource changed) sends it whole, and the file restarts from zero. A dropped
    ///   connection is a failed attempt: retried per the session's policy, each retry resuming.
    /// - **Conditional**: with `ifChanged` (the validators of the version the caller has, from an earlier result),
    ///   the request carries `If-None-Match` / `If-Modified-Since`; a `304` leaves whatever is at `path` as it is
    ///   and reports ``DownloadResult/Outcome/unchanged`` (with the size of the file there, 0 if none).
    /// - **Progress**: bytes on disk and announced sizes go to `progress`, which may be shared by a batch.
    /// - **Checksum**: with `checksum`, the complete file's SHA-256 is computed before the rename, reported in
    ///   ``DownloadResult/sha256`` and checked against the expected digest if one is given (see
    ///   ``DownloadChecksum``: a resumed file that does not match is downloaded once more in full).
    /// - The size limit is the request's ``HTTPRequest/maximumResponseSize`` only (none by default).
    /// - **Durability**: the rename is atomic (a crash of the process leaves the old file or the new one, never a
    ///   mix). With `syncsToDisk`, the data is also flushed (`fsync`) before the rename and the folder after it,
    ///   so the complete file survives a power loss; that costs a disk flush per file, which `curl` and browsers
    ///   do not pay, so it is off by default.
    /// - Throws: ``HTTPError``: a bad URL or expected checksum, a status outside 200–299 (other than a `304` to a
    ///   conditional request), a transport failure after the retries, a file that cannot be written, a SHA-256
    ///   that is not the expected one, a timeout, or cancellation.
    public func download(
        _ request: HTTPRequest, to path: String, ifChanged: HTTPValidators? = nil, checksum: DownloadChecksum? = nil,
        progress: TransferProgress? = nil, resumesPartialFile: Bool = true, syncsToDisk: Bool = false
    ) async throws(HTTPError) -> DownloadResult {
        let prepared = try PreparedRequest(request)
        if let problem = checksum?.problem {
            throw HTTPError(request: prepared.label, reason: .invalidChecksum(problem))
        }
        let lane = lane(for: prepared.host)
        return try await withinTotalTimeout(prepared) { () async throws(HTTPError) -> DownloadResult in
            try await self.runJob(prepared, on: lane) { () async throws(HTTPError) -> DownloadResult in
                let transfer = progress?.begin(Self.fileName(path))
                defer { if let transfer { progress?.end(transfer) } }
                let download = Download(
                    session: self, prepared: prepared, file: PartialFile(destination: path, url: request.url),
                    ifChanged: ifChanged, checksum: checksum,
                    progress: progress.flatMap { progress in transfer.map { (progress, $0) } }, syncs: syncsToDisk,
                    lookForPartialFile: resumesPartialFile)
                return try await download.run()
            }
        }
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// One download's attempts: what each asks for (a range, a condition) and how each response is written.
/// Owned by the download's job; never shared.
final class Download {
    let session: HTTPSession
    let prepared: PreparedRequest
    let file: PartialFile
    let ifChanged: HTTPValidators?
    let checksum: DownloadChecksum?
    let progress: (TransferProgress, Int)?
    let syncs: Bool
    /// Whether the next attempt looks for a partial file: once this call has written one (an attempt that broke
    /// off leaves it), and from the start only when the caller resumes partial files of earlier calls.
    private var lookForPartialFile: Bool
    /// The partial file's size and validators when the current attempt asked for a range.
    private var resume: (size: Int64, validators: HTTPValidators)?

    init(
        session: HTTPSession, prepared: PreparedRequest, file: PartialFile, ifChanged: HTTPValidators?,
        checksum: DownloadChecksum?, progress: (TransferProgress, Int)?, syncs: Bool, lookForPartialFile: Bool
    ) {
        self.session = session
        self.prepared = prepared
        self.file = file
        self.ifChanged = ifChanged
        self.checksum = checksum
        self.progress = progress
        self.syncs = syncs
        self.lookForPartialFile = lookForPartialFile
    }

    func run() async throws(HTTPError) -> DownloadResult {
        try await session.attempts(
            prepared,
            makeRequest: { (_: Int) async throws(HTTPError) -> HTTPClientRequest in try await self.request() }
        ) { response, isLast in try await self.handle(response, isLastAttempt: isLast) }
    }

    private func request() async throws(HTTPError) -> HTTPClientRequest {
        var extra: [(String, String)] = []
        resume = lookForPartialFile ? try await file.existing() : nil
        if let resume, let ifRange = resume.validators.ifRange {
            extra += [("range", "bytes=\(resume.size)-"), ("if-range", ifRange)]
        }
        if let ifChanged {
            if let etag = ifChanged.etag { extra.append(("if-none-match", etag)) }
            if let date = ifChanged.lastModified { extra.append(("if-modified-since", date)) }
        }
        return session.clientRequest(prepared, extra: extra)
    }

    private func handle(
        _ response: HTTPClientResponse, isLastAttempt: Bool
    ) async throws -> AttemptOutcome<DownloadResult> {
        if let retry = session.retryVerdict(response, isLastAttempt: isLastAttempt) { return retry.widened() }
        let status = Int(response.status.code)
        let path = file.destination
        if status == 304, let ifChanged {
            let size = await file.destinationSize()
            return .done(DownloadResult(path: path, outcome: .unchanged, size: size, validators: ifChanged))
        }
        if status == 416 {  // the partial file no longer fits the resource: start over, at once
            await file.discard()
            lookForPartialFile = false
            return .restart
        }
        guard (200..<300).contains(status) else { return .fail(.status(status)) }
        var resumedFrom: Int64?
        var total: Int64?
        if status == 206 {
            // Only the rest of the file, as asked, of the version the partial file holds, is appended.
            let range = Self.contentRange(response.headers)
            let etag = response.headers.first(name: "etag")
            guard let resume, let range, range.start == resume.size, range.total.map({ range.end + 1 == $0 }) ?? true,
                etag == nil || resume.validators.etag == nil || etag == resume.validators.etag
            else {
                await file.discard()
                lookForPartialFile = false
                return .restart
            }
            resumedFrom = resume.size
            total = range.end + 1
        }
        let validators = resumedFrom != nil ? resume?.validators ?? HTTPValidators() : HTTPValidators(response.headers)
        file.begin(resumingAfter: resumedFrom, validators: validators)
        lookForPartialFile = true
        let length = response.headers.first(name: "content-length").flatMap(Int64.init)
        let expected = total ?? length.map { file.size + $0 }
        let limit = prepared.request.maximumResponseSize ?? Int.max
        if let expected, expected > Int64(limit) { return .fail(.responseTooLarge(limit: limit)) }
        if let (progress, transfer) = progress { progress.restart(transfer, onDisk: file.size, expected: expected) }
        let body = HTTPBody(base: response.body, limit: limit - Int(file.size), request: prepared.label)
        try await write(body)
        if let expected, file.size != expected {
            await file.keepForResume()
            return .retry(.transport("the body ended after \(file.size) of \(expected) bytes"), retryAfter: nil)
        }
        let sha256: String?
        do {
            sha256 = try await file.complete(sync: syncs, checksum: checksum)
        } catch {
            // A resumed file that does not match may be two versions spliced: downloaded once more, in full.
            guard case .checksumMismatch = error.reason, resumedFrom != nil else { throw error }
            lookForPartialFile = false
            return .restart
        }
        let outcome: DownloadResult.Outcome = resumedFrom.map { .resumed(fromByte: $0) } ?? .downloaded
        return .done(
            DownloadResult(path: path, outcome: outcome, size: file.size, validators: validators, sha256: sha256))
    }

    /// Writes `body` to the partial file; if reading or writing fails (cancellation included), what arrived before
    /// is written first, for a later resume.
    private func write(_ body: HTTPBody) async throws {
        var failure: (any Error)?
        do {
            for try await buffer in body {
                try await file.append(buffer)
                if let (progress, transfer) = progress { progress.add(transfer, bytes: Int64(buffer.readableBytes)) }
            }
        } catch {
            failure = error
        }
        if let failure {
            await file.keepForResume()
            throw failure
        }
    }

    /// A `content-range: bytes N-M/L` (`L` may be `*`, unknown).
    static func contentRange(_ headers: HTTPHeaders) -> (start: Int64, end: Int64, total: Int64?)? {
        guard let value = headers.first(name: "content-range"), value.hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), end >= start else {
            return nil
        }
        let total = parts.count == 2 ? Int64(parts[1]) : nil
        return (start, end, total)
    }
}
