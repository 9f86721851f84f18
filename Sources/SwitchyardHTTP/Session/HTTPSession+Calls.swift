#if HTTP
    import CoreMetrics
    import NIOHTTP1
    import Switchyard

    extension HTTPSession {
        /// One public call on `prepared`, hop by hop: refused once the session is shut down, bounded by the total
        /// timeout over all its hops, and each hop run by `hop` holding the lane of its own host (see
        /// ``withLane(_:_:)``). A hop that ends with a redirect lets go of its lane (its job, and so its slot, ended
        /// with it) and the call goes on with the request it names, on the lane of that request's host: each host
        /// counts the hops it serves against its own limit. A hop refused its lane because the session shut down
        /// throws ``HTTPError/Reason/sessionShutDown``, and so does a cancellation the shutdown caused (see
        /// ``unlessShutDown(_:_:)``).
        ///
        /// The call counts in `switchyard_http_requests_in_flight` from its start to its end (not when the session
        /// refused it), and its failure is logged (see "Logs").
        /// - Throws: ``HTTPError``: a hop's, or ``HTTPError/Reason/failed(_:)`` for a redirect past
        ///   ``Configuration/maximumRedirects`` or back to a URL the call visited (named as a log line shows it: see
        ///   ``loggableURL(_:)``).
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
                            let hopEnd = try await self.withLane(current.host) {
                                (lane) async throws(HTTPError) -> HopEnd<Value> in try await hop(current, lane)
                            }
                            guard let end = hopEnd else {
                                throw HTTPError(request: prepared.label, reason: .sessionShutDown)
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
        /// call's later hops so far (the first is added here, at the first redirect). Whether the session is shut
        /// down is for the hop's ``withLane(_:_:)`` to say. - Complexity: O(1) besides checking the URL.
        private func nextHop(
            to request: HTTPRequest, of first: PreparedRequest, visited: inout Set<String>
        ) throws(HTTPError) -> PreparedRequest {
            if visited.isEmpty { visited.insert(first.request.url) }
            let limit = configuration.maximumRedirects
            guard visited.count <= limit else {
                throw HTTPError(request: first.label, reason: .failed("more than \(limit) redirects"))
            }
            guard visited.insert(request.url).inserted else {
                let url = Self.loggableURL(request.url)  // the location may hold credentials or a token
                throw HTTPError(request: first.label, reason: .failed("a redirect cycle: back to \(url)"))
            }
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
