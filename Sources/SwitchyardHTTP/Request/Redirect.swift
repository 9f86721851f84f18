#if HTTP
    import NIOHTTP1

    /// Following a redirect (RFC 9110 §15.4): which responses redirect, where to, and the request that follows.
    enum Redirect {
        /// The statuses whose `location` a client follows: 301, 302, 303, 307 and 308.
        static let statuses: Set<Int> = [301, 302, 303, 307, 308]

        /// The request that follows a response of `status` with `headers` to `request`, or nil when the response does
        /// not redirect: another status, no `location`, or one that does not resolve to an `http` or `https` URL with a
        /// host (the response is then final, as AsyncHTTPClient treats it).
        ///
        /// The request keeps the caller's settings (priority, name, status requirement, size limit, retries). As
        /// browsers and AsyncHTTPClient do, a `303` turns any method but `HEAD` into a `GET` without a body, and so do
        /// a `301` and a `302` a `POST`; the body's `content-length` and `content-type` go with it. A request to
        /// another origin (scheme, host or port) leaves out `authorization`, `proxy-authorization`, `cookie` and
        /// `origin`. - Complexity: O(length of the URLs).
        static func request(after status: Int, _ headers: HTTPHeaders, to request: HTTPRequest) -> HTTPRequest? {
            guard statuses.contains(status), let location = headers.first(name: "location"),
                let target = resolve(location.trimmingSpaces, against: request.url),
                case .success(let destination) = URLAuthority.parse(target)
            else { return nil }
            var next = request
            next.url = target
            let becomesGET =
                (status == 303 && request.method != .HEAD)
                || ((status == 301 || status == 302) && request.method == .POST)
            if becomesGET {
                next.method = .GET
                next.body = nil
                next.headers.remove(name: "content-length")
                next.headers.remove(name: "content-type")
            }
            if case .success(let origin) = URLAuthority.parse(request.url), origin != destination {
                for name in ["authorization", "proxy-authorization", "cookie", "origin"] {
                    next.headers.remove(name: name)
                }
            }
            return next
        }

        /// `reference` resolved against the absolute URL `base` (RFC 3986 §5.2, strict): an absolute URL stays one
        /// (its dot segments removed), and a network-path, absolute-path or relative-path reference, or a query or
        /// fragment alone, takes what it lacks from `base`. The scheme comes out lower-cased. nil when `base` has no
        /// scheme. - Complexity: O(length of both).
        static func resolve(_ reference: String, against base: String) -> String? {
            let relative = URIReference(reference)
            let base = URIReference(base)
            guard let scheme = base.scheme else { return nil }
            var target = URIReference()
            if relative.scheme != nil {
                target = relative
                target.path = removeDotSegments(relative.path)
            } else {
                target.scheme = scheme
                if relative.authority != nil {
                    target.authority = relative.authority
                    target.path = removeDotSegments(relative.path)
                    target.query = relative.query
                } else {
                    target.authority = base.authority
                    if relative.path.isEmpty {
                        target.path = base.path
                        target.query = relative.query ?? base.query
                    } else {
                        let path = relative.path.hasPrefix("/") ? relative.path : merge(base, relative.path)
                        target.path = removeDotSegments(path)
                        target.query = relative.query
                    }
                }
            }
            target.fragment = relative.fragment
            return target.text
        }

        /// A relative path appended to the base's path up to its last `/` (RFC 3986 §5.2.3).
        private static func merge(_ base: URIReference, _ path: String) -> String {
            if base.authority != nil, base.path.isEmpty { return "/" + path }
            guard let slash = base.path.lastIndex(of: "/") else { return path }
            return String(base.path[...slash]) + path
        }

        /// `path` without its `.` and `..` segments (RFC 3986 §5.2.4).
        static func removeDotSegments(_ path: String) -> String {
            var input = Substring(path)
            var output: [Substring] = []  // segments, each with the `/` before it
            while !input.isEmpty {
                if input.hasPrefix("../") {
                    input = input.dropFirst(3)
                } else if input.hasPrefix("./") {
                    input = input.dropFirst(2)
                } else if input.hasPrefix("/./") {
                    input = input.dropFirst(2)
                } else if input == "/." {
                    input = "/"
                } else if input.hasPrefix("/../") {
                    input = input.dropFirst(3)
                    if !output.isEmpty { output.removeLast() }
                } else if input == "/.." {
                    input = "/"
                    if !output.isEmpty { output.removeLast() }
                } else if input == "." || input == ".." {
                    input = ""
                } else {
                    let from = input.first == "/" ? input.index(after: input.startIndex) : input.startIndex
                    let end = input[from...].firstIndex(of: "/") ?? input.endIndex
                    output.append(input[..<end])
                    input = input[end...]
                }
            }
            return output.joined()
        }
    }

    /// A URI reference in its five parts (RFC 3986 Appendix B): `scheme:` `//authority` `path` `?query` `#fragment`.
    struct URIReference {
        var scheme: String?
        var authority: String?
        var path = ""
        var query: String?
        var fragment: String?

        init() {}

        init(_ text: String) {
            var rest = Substring(text)
            if let colon = rest.firstIndex(where: { $0 == ":" || $0 == "/" || $0 == "?" || $0 == "#" }),
                rest[colon] == ":", colon != rest.startIndex
            {
                scheme = String(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: question)...])
                rest = rest[..<question]
            }
            path = String(rest)
        }

        /// The parts recomposed (RFC 3986 §5.3), the scheme lower-cased.
        var text: String {
            var text = scheme.map { $0.lowercased() + ":" } ?? ""
            if let authority { text += "//" + authority }
            text += path
            if let query { text += "?" + query }
            if let fragment { text += "#" + fragment }
            return text
        }
    }
#endif
