#if CLI
    /// Which of a fetch's items are started when: each host's items in list order, at most ``window`` of a host's
    /// in flight at once (twice its request limit, so that a slot it frees is taken at once). The session enforces
    /// the limits; the windows keep the number of waiting calls small: a list of a million URLs of one host holds a
    /// few dozen calls, not a million, and a slow host holds back only its own items.
    ///
    /// A value: ``start()`` and ``finished(_:)`` say which items to start, and hold no lock. - Complexity: O(n) to
    /// build for n items; O(1) per item started.
    struct FetchWindows {
        /// How many of a host's items may be in flight at once.
        let window: Int
        /// The items of each host not started yet, in list order, by host (its index in `hosts`).
        private var pending: [ArraySlice<Int>]
        private var inFlight: [Int]
        /// Each item's host.
        private let hostOfItem: [Int]

        /// Windows over items whose URLs are `urls` (`scheme://authority/...`), `window` per host.
        init(_ urls: [String], window: Int) {
            precondition(window >= 1, "FetchWindows: a window holds at least one item")
            self.window = window
            var hosts: [Substring: Int] = [:]
            var items: [[Int]] = []
            var hostOfItem: [Int] = []
            hostOfItem.reserveCapacity(urls.count)
            for (index, url) in urls.enumerated() {
                let origin = Self.origin(of: url)
                let host: Int
                if let known = hosts[origin] {
                    host = known
                } else {
                    host = items.count
                    hosts[origin] = host
                    items.append([])
                }
                items[host].append(index)
                hostOfItem.append(host)
            }
            pending = items.map { $0[...] }
            inFlight = Array(repeating: 0, count: items.count)
            self.hostOfItem = hostOfItem
        }

        /// The items to start first: up to a window of each host's, hosts in the order they are first listed.
        mutating func start() -> [Int] {
            var started: [Int] = []
            for host in pending.indices {
                while inFlight[host] < window, let item = pending[host].popFirst() {
                    inFlight[host] += 1
                    started.append(item)
                }
            }
            return started
        }

        /// The item to start now that `item` has finished: its host's next, if any.
        mutating func finished(_ item: Int) -> Int? {
            let host = hostOfItem[item]
            inFlight[host] -= 1
            guard let next = pending[host].popFirst() else { return nil }
            inFlight[host] += 1
            return next
        }

        /// The items never started, in list order (after a stop).
        var neverStarted: [Int] { pending.flatMap { $0 }.sorted() }

        /// `scheme://authority` of a URL the list accepted (its scheme is followed by `://`), as written: hosts that
        /// differ only in case get windows of their own, which the session's per-host limit still counts as one.
        static func origin(of url: String) -> Substring {
            guard let separator = url.range(of: "://") else { return url[...] }
            let rest = url[separator.upperBound...]
            let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            return url[..<end]
        }
    }
#endif
