#if HTTP
    import CoreMetrics
    import NIOHTTP1
    import Switchyard

    extension HTTPSession {
        /// One public call on `prepared`, hop by hop: refused once the session is shut down, bounded by the total
        /// timeout over all its hops, and each hop run by `hop` holding the lane of its own host (see
        /// ``withLane(_:_:)``). A hop that ends with a redirect lets go of its lane (its job, and so its slot, ended
        /// with it) and the call goes on with the request it names, on the lane of that request's host: each host
        /// counts the hops it serves against its own limit. A cancellation the shutdown caused is thrown as
        /// ``HTTPError/Reason/sessionShutDown`` (see ``unlessShutDown(_:_:)``).
        ///
        /// The call counts in `switchyard_http_requests_in_flight` from its start to its end (not when the session
        /// refused it), and its failure is logged (see "Logs").
        /// - Throws: ``HTTPError``: a hop's, or ``HTTPError/Reason/failed(_:)`` for a redirect past
        ///   ``Configuration/maximumRedirects`` or back to a URL the call visited.
        func call<Value: Sendable>(
            _ prepared: PreparedRequest,
            _ hop: @escaping @Sendable (PreparedRequest, HostLane) async throws(HTTPError) -> HopEnd<Value>
        ) async throws(HTTPError) -> Value {
            let start = ContinuousClock.now
            do throws(HTTPError) {
                return try await unlessShutDown(prepared) { () async throws(HTTPError) -> Value in
                    metrics.inFlight.increment()
                    defer { metrics.inFlight.decrement() }
                    return try await withinTotalTimeout(prepared) { () async throws(HTTPError) -> Value in
                        var current = prepared
                        var visited: Set<String> = []  // made at the first redirect: most calls have none
                        while true {
                            let end = try await self.withLane(current.host) {
                                (lane) async throws(HTTPError) -> HopEnd<Value> in try await hop(current, lane)
                            }
                            switch end {
                            case .done(let value):
                                return value
                            case .redirect(let next):
                                current = try self.nextHop(to: next, of: prepared, visited: &visited)
                            }
                        }
                    }
                }
            } catch {
                recordFailure(error, prepared, since: start)
                throw error
            }
        }

        /// The hop to `request`, which a redirect of the call on `first` leads to; `visited` holds the URLs of the
        /// call's later hops so far (the first is added here, at the first redirect). - Complexity: O(1) besides
        /// checking the URL.
        private func nextHop(
            to request: HTTPRequest, of first: PreparedRequest, visited: inout Set<String>
        ) throws(HTTPError) -> PreparedRequest {
            if visited.isEmpty { visited.insert(first.request.url) }
            let limit = configuration.maximumRedirects
            guard visited.count <= limit else {
                throw HTTPError(request: first.label, reason: .failed("more than \(limit) redirects"))
            }
            guard visited.insert(request.url).inserted else {
                throw HTTPError(request: first.label, reason: .failed("a redirect cycle: back to \(request.url)"))
            }
            if isShutDown { throw HTTPError(request: first.label, reason: .sessionShutDown) }
            return try PreparedRequest(redirectedTo: request, from: first)
        }

        /// The request that follows a response of `status` with `headers` to `request`, if it redirects and the
        /// session follows redirects (see ``Redirect/request(after:_:to:)``).
        func redirect(after status: Int, _ headers: HTTPHeaders, to request: HTTPRequest) -> HTTPRequest? {
            guard configuration.maximumRedirects > 0 else { return nil }
            return Redirect.request(after: status, headers, to: request)
        }
    }
#endif
