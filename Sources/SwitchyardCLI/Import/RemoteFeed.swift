#if CLI
    import Foundation
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardTransit

    /// `switchyard import https://…/feed.zip`: the feed is downloaded next to the database first (resumed after an
    /// interruption), then imported as a local one, with its URL, validators and SHA-256 recorded (``FeedSource``).
    ///
    /// Without `--replace` or `--resume`, a database that already holds an import is checked before anything is
    /// downloaded: a complete import of the same URL is asked about with a conditional request (`304`: unchanged,
    /// nothing to do; another version: refused, it needs `--replace`; an error status: that error), any other import
    /// is refused at once.
    enum RemoteFeed {
        /// What the download found.
        enum Outcome {
            /// The server answered `304`: the feed is what the database's complete import holds.
            case unchanged(FeedSource)
            /// The database holds an import that this one may not replace without `--replace` (nothing downloaded).
            case refused(ImportError)
            /// The feed is at `path` (downloaded now, whole or resumed).
            case downloaded(path: String, source: FeedSource)
        }

        /// Whether `feed` names a remote feed (an `http://` or `https://` URL).
        static func isRemote(_ feed: String) -> Bool {
            let lower = feed.lowercased()
            return lower.hasPrefix("http://") || lower.hasPrefix("https://")
        }

        /// Where the feed of `database` is downloaded to: `<database>.feed.zip` (and `….partial` while incomplete).
        static func downloadPath(for database: String) -> String { database + ".feed.zip" }

        /// The database's name for a feed URL: the last path segment without `.zip`, with `.sqlite`.
        static func defaultDatabase(for url: String) -> String {
            let path = url.split(separator: "?").first.map(String.init) ?? url
            var name = path.split(separator: "/").last.map(String.init) ?? "feed"
            if name.hasSuffix(".zip") { name.removeLast(4) }
            if name.isEmpty || name.contains(":") { name = "feed" }
            return name + ".sqlite"
        }

        /// Downloads `url` for `database`, resumed from a partial file, with progress on standard error unless `quiet`;
        /// when `checksExisting` (a new import: neither `--replace` nor `--resume`), first checks the import the
        /// database may hold (see the type's description).
        /// - Throws: ``HTTPError`` when the check or the download fails, and with reason `.cancelled` when the task is
        ///   cancelled.
        static func fetch(_ url: String, database: String, checksExisting: Bool, quiet: Bool) async throws -> Outcome {
            let session = HTTPSession(
                configuration: HTTPSession.Configuration(
                    name: "import", retry: HTTPRetryPolicy(maximumAttempts: 5, initialDelay: .milliseconds(250))))
            if checksExisting, let existing = await existingImport(of: database) {
                let outcome: Outcome
                do {
                    outcome = try await check(existing, url: url, database: database, session: session)
                } catch {
                    try? await session.shutdown()
                    throw error
                }
                try? await session.shutdown()
                return outcome
            }
            let progress = TransferProgress()
            let display = quiet ? nil : Task { await show(progress, url: url) }
            defer { display?.cancel() }
            let result: DownloadResult
            do {
                result = try await session.download(
                    HTTPRequest(url: url, priority: .userInitiated), to: downloadPath(for: database),
                    checksum: .sha256(), progress: progress, syncsToDisk: true)
            } catch {
                try? await session.shutdown()
                throw error
            }
            try? await session.shutdown()
            display?.cancel()
            _ = await display?.value
            let source = FeedSource(
                url: url, etag: result.validators.etag, lastModified: result.validators.lastModified, size: result.size,
                checksum: result.sha256)
            return .downloaded(path: result.path, source: source)
        }

        /// The import `database` holds, if any.
        private static func existingImport(of database: String) async -> ImportStatus? {
            guard FileManager.default.fileExists(atPath: database) else { return nil }
            return try? await BlockingExecutor.shared.run { try ImportStatus.read(database) }
        }

        /// Whether the database's import may stand: unchanged when it is a complete import of `url` and the server
        /// answers a conditional request with `304` (or with a `2xx` carrying the recorded validators: a server that
        /// ignores conditions); refused when it answers with another version (its body is not read).
        /// - Throws: ``HTTPError`` when the request fails or the server answers with an error status.
        private static func check(
            _ existing: ImportStatus, url: String, database: String, session: HTTPSession
        ) async throws -> Outcome {
            guard existing.isComplete, let source = existing.source, source.url == url,
                source.etag != nil || source.lastModified != nil
            else {
                let advice =
                    existing.isComplete
                    ? "use --replace to start over" : "use --resume to continue it or --replace to start over"
                return .refused(
                    ImportError(
                        .databaseNotEmpty,
                        "\(database) already holds an import of \(existing.feed) (state \(existing.state)): \(advice)"))
            }
            var request = HTTPRequest(url: url, priority: .userInitiated)
            request.requiresSuccessStatus = false
            request.maximumResponseSize = .max  // the body is never read: its announced size does not matter
            if let etag = source.etag { request.headers.add(name: "If-None-Match", value: etag) }
            if let date = source.lastModified { request.headers.add(name: "If-Modified-Since", value: date) }
            let label = "GET \(HTTPSession.loggableURL(url))"  // no user info, query or fragment
            let current = try await session.stream(request) { head, _ -> Bool in
                if head.status == 304 { return true }
                guard (200..<300).contains(head.status) else {
                    throw HTTPError(request: label, reason: .status(head.status))
                }
                let validators = HTTPValidators(head.headers)
                return (validators.etag != nil && validators.etag == source.etag)
                    || (validators.etag == nil && validators.lastModified != nil
                        && validators.lastModified == source.lastModified)
            }
            if current { return .unchanged(source) }
            return .refused(
                ImportError(
                    .databaseNotEmpty,
                    "\(url) changed since the complete import in \(database) (another ETag or Last-Modified): use "
                        + "--replace to import the new version"))
        }

        /// Writes a progress line to standard error twice a second until cancelled.
        private static func show(_ progress: TransferProgress, url: String) async {
            let clock = ContinuousClock()
            let start = clock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                let snapshot = progress.snapshot()
                let elapsed = (clock.now - start) / .seconds(1)
                let rate = elapsed > 0 ? Double(snapshot.bytesTransferred) / elapsed : 0
                var line = "downloading \(TerminalText.visible(url)): \(ByteCount.text(snapshot.bytesReceived))"
                if snapshot.bytesExpected > 0 { line += " of \(ByteCount.text(snapshot.bytesExpected))" }
                line += " (\(ByteCount.text(Int64(rate)))/s)"
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        }
    }

    /// Byte counts for people: `512 B`, `12.3 KB`, `4.5 MB`, `1.2 GB` (powers of 1000).
    enum ByteCount {
        static func text(_ bytes: Int64) -> String {
            let units = ["B", "KB", "MB", "GB", "TB"]
            var value = Double(bytes)
            var unit = 0
            while value >= 1000, unit < units.count - 1 {
                value /= 1000
                unit += 1
            }
            return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
        }
    }

    /// The one line of JSON `switchyard import URL --progress json` prints when the feed is unchanged:
    /// `{"database":…,"feed":…,"state":"unchanged"}`.
    struct UnchangedLine: Encodable {
        var database: String
        var feed: String
        var state = "unchanged"

        var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
    }
#endif
