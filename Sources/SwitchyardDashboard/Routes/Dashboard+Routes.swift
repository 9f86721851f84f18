#if Dashboard
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import HTTPTypes
    import Hummingbird
    import NIOCore

    extension Dashboard {
        /// The most bytes an action request's body may have.
        static let actionBodyLimit = 4_096

        /// Adds the dashboard's routes to `router` (a router or a group of one): `GET` on the group's path itself
        /// (the page), `snapshot.json`, `events`, `jobs.json`, `graph.json`, and `POST` `actions`. `basePath` is
        /// the URL path the group answers at, ending in `/` (`"/"` for a router's root, `"/dashboard/"` for
        /// `router.group("dashboard")`): the page fetches everything relative to it.
        ///
        /// Every response carries `Cache-Control: no-store`, `X-Content-Type-Options: nosniff` and
        /// `Referrer-Policy: no-referrer`; the page also a Content Security Policy with a fresh nonce, which allows
        /// its own inline script and style only. See ``DashboardConfiguration/actions`` for what actions need.
        public func addRoutes<Router: RouterMethods>(to router: Router, basePath: String = "/") {
            let base = basePath.hasSuffix("/") ? basePath : basePath + "/"
            router.get { _, _ in self.page(base: base) }
            router.get("snapshot.json") { _, _ in
                Self.json(await self.currentUpdate().json)
            }
            router.get("events") { _, _ in self.events() }
            router.get("jobs.json") { request, _ in try await self.jobsPage(request.uri.queryParameters) }
            router.get("graph.json") { request, _ in await self.graph(request.uri.queryParameters) }
            router.post("actions") { request, _ in
                var request = request
                return try await self.action(&request)
            }
        }

        private func page(base: String) -> Response {
            let nonce = DashboardActions.randomToken().prefix(32)
            var headers = Self.commonHeaders
            headers[.contentType] = "text/html; charset=utf-8"
            headers[.contentSecurityPolicy] =
                "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; connect-src 'self'; "
                + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
            let html = DashboardPage.html(nonce: String(nonce), basePath: base)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
        }

        /// `GET events`: a viewer for as long as the client reads. Ends when a write fails (the client left) or the
        /// handler's task is cancelled.
        private func events() -> Response {
            var headers = Self.commonHeaders
            headers[.contentType] = "text/event-stream"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    let viewer = DashboardViewer(self)
                    try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                    while let update = await viewer.next() {
                        try await writer.write(update.event)
                    }
                    try await writer.finish(nil)
                })
        }

        private func jobsPage(_ query: Parameters) async throws -> Response {
            guard let sourceID = query.get("source") else { return Self.error(.badRequest, "jobs.json needs source") }
            guard let source = sources.first(where: { $0.id == sourceID }) else {
                return Self.error(.notFound, "no source \"\(sourceID)\"")
            }
            guard let list = query.get("list", as: DashboardJobList.self) else {
                return Self.error(.badRequest, "list must be running or waiting")
            }
            let offset = max(query.get("offset", as: Int.self) ?? 0, 0)
            let limit = min(
                max(query.get("limit", as: Int.self) ?? configuration.listLimit, 1),
                DashboardConfiguration.listLimitCeiling)
            do {
                let (jobs, total) = try await source.jobs(list, queue: query.get("queue"), offset: offset, limit: limit)
                return Self.json(
                    JobsPage(source: sourceID, list: list, offset: offset, limit: limit, total: total, jobs: jobs))
            } catch let error as DashboardActionError {
                return Self.error(.notFound, error.description)
            } catch {
                return Self.error(.serviceUnavailable, "could not read \"\(sourceID)\": \(error)")
            }
        }

        private func graph(_ query: Parameters) async -> Response {
            guard let sourceID = query.get("source"), let job = query.get("job") else {
                return Self.error(.badRequest, "graph.json needs source and job")
            }
            let cap = min(
                max(query.get("cap", as: Int.self) ?? configuration.graphNodeLimit, 1),
                configuration.graphNodeLimit)
            let snapshot = await currentUpdate().snapshot
            guard let source = snapshot.sources.first(where: { $0.id == sourceID }) else {
                return Self.error(.notFound, "no source \"\(sourceID)\"")
            }
            guard let graph = DependencyGraph(around: job, in: source, cap: cap) else {
                return Self.error(.notFound, "job \(job) is not among the listed jobs of \"\(sourceID)\"")
            }
            return Self.json(graph)
        }

        private func action(_ request: inout Request) async throws -> Response {
            let headers = request.headers
            if let refusal = ActionGuard.refusal(
                actions: configuration.actions, authorization: headers[.authorization],
                secFetchSite: headers[Self.secFetchSite], origin: headers[.origin],
                host: request.head.authority)
            {
                return Self.error(.forbidden, refusal)
            }
            let body = try await request.collectBody(upTo: Self.actionBodyLimit)
            guard let action = try? DashboardJSON.decoder.decode(DashboardAction.self, from: Data(buffer: body)) else {
                return Self.error(.badRequest, "the body must be JSON: {\"action\", \"source\", \"job\" or \"queue\"}")
            }
            guard let source = sources.first(where: { $0.id == action.source }) else {
                return Self.error(.notFound, "no source \"\(action.source)\"")
            }
            do {
                return Self.json(ActionResult(message: try await source.perform(action)))
            } catch let error as DashboardActionError {
                switch error {
                case .unsupported: return Self.error(.conflict, error.description)
                case .invalid: return Self.error(.badRequest, error.description)
                case .notFound: return Self.error(.notFound, error.description)
                }
            } catch {
                return Self.error(.serviceUnavailable, "\(error)")
            }
        }

        // MARK: Responses

        static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

        static let commonHeaders: HTTPFields = [
            .cacheControl: "no-store", HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]

        static func json(_ buffer: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
            var headers = commonHeaders
            headers[.contentType] = "application/json"
            return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
        }

        static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
            let data = (try? DashboardJSON.encoder.encode(value)) ?? Data("{}".utf8)
            return json(ByteBuffer(bytes: data), status: status)
        }

        static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
            json(ErrorBody(error: message), status: status)
        }

        private struct ErrorBody: Encodable { let error: String }
        private struct ActionResult: Encodable { let message: String }
    }

    /// A page of `GET jobs.json`.
    public struct JobsPage: Sendable, Codable, Hashable {
        public var source: String
        public var list: DashboardJobList
        public var offset: Int
        public var limit: Int
        public var total: Int
        public var jobs: [DashboardJob]
    }
#endif
