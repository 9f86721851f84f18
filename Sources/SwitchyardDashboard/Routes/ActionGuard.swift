#if Dashboard
    /// The checks an action request passes before a dashboard performs it, as a pure function of the request's
    /// headers (tested without a server).
    ///
    /// In order: actions must be enabled; a browser's `Sec-Fetch-Site`, when sent, must be `same-origin` or `none`
    /// (a page on another site cannot act through a viewer's browser); an `Origin`, when sent, must name this server
    /// (`Host`); the `Authorization` header must carry the token (compared in constant time).
    enum ActionGuard {
        /// Why a request is refused, or nil if it may act.
        static func refusal(
            actions: DashboardActions, authorization: String?, secFetchSite: String?, origin: String?, host: String?
        ) -> String? {
            guard let token = actions.token else {
                return "the dashboard is read-only: actions are disabled"
            }
            if let site = secFetchSite?.lowercased(), site != "same-origin", site != "none" {
                return "refused a cross-site request (Sec-Fetch-Site: \(site))"
            }
            if let origin {
                guard let host, Self.host(ofOrigin: origin) == host.lowercased() else {
                    return "refused a request from another origin (\(origin))"
                }
            }
            guard let authorization, authorization.prefix(7).lowercased() == "bearer " else {
                return "an action needs the dashboard's token (Authorization: Bearer …)"
            }
            let presented = authorization.dropFirst(7).trimmingWhitespace()
            guard constantTimeEqual(Array(presented.utf8), Array(token.utf8)) else {
                return "wrong token"
            }
            return nil
        }

        /// `host[:port]` of an origin such as `http://127.0.0.1:8600`, lowercased; nil for `null` or a malformed one.
        static func host(ofOrigin origin: String) -> String? {
            let lowered = origin.lowercased()
            for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
                let rest = lowered.dropFirst(scheme.count)
                guard !rest.isEmpty, !rest.contains("/") else { return nil }
                return String(rest)
            }
            return nil
        }

        /// `host` is allowed to name this dashboard's server: DNS-rebinding protection for a server bound to a
        /// loopback address, whose pages a foreign site could otherwise read through a name it points at 127.0.0.1.
        /// Allowed: `localhost`, loopback addresses, and the bound host. `authority` is the request's `Host`.
        static func isAllowedHost(_ authority: String?, boundHost: String) -> Bool {
            guard let authority else { return false }
            var host = authority.lowercased()
            if host.hasPrefix("[") {
                host = String(host.dropFirst().prefix { $0 != "]" })
            } else if let colon = host.lastIndex(of: ":") {
                host = String(host[..<colon])
            }
            return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("127.")
                || host == boundHost.lowercased()
        }

        /// Whether two byte strings are equal, in time that depends on their lengths only.
        static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
            guard lhs.count == rhs.count else { return false }
            var difference: UInt8 = 0
            for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
            return difference == 0
        }
    }
#endif

#if Dashboard
    extension Substring {
        func trimmingWhitespace() -> Substring {
            var result = self
            while result.first?.isWhitespace == true { result.removeFirst() }
            while result.last?.isWhitespace == true { result.removeLast() }
            return result
        }
    }
#endif
