#if CLI
    @testable import SwitchyardCLI
    import SwitchyardTesting
    import Testing

    @Suite("FetchWindows: each host's items in list order, at most a window of them in flight, none started twice")
    struct FetchWindowsTests {
        @Test("the first items are each host's first window; a finished item starts its own host's next")
        func windows() {
            let urls = [
                "https://a.example/1", "https://b.example:8443/1", "https://a.example/2", "https://a.example/3",
                "http://a.example/4", "https://b.example:8443/2?x=1", "https://a.example/5",
            ]
            var windows = FetchWindows(urls, window: 2)
            // a: 0, 2, 3, 6; b:8443: 1, 5; http://a: 4 (another origin).
            #expect(windows.start() == [0, 2, 1, 5, 4])
            #expect(windows.finished(1) == nil)  // b has no more
            #expect(windows.finished(2) == 3)
            #expect(windows.neverStarted == [6])
            #expect(windows.finished(0) == 6)
            #expect(windows.neverStarted.isEmpty)
            for item in [3, 5, 4, 6] { #expect(windows.finished(item) == nil) }
        }

        @Test("origins: scheme and authority as written, up to the path, query or fragment")
        func origins() {
            #expect(FetchWindows.origin(of: "https://a.example/x/y") == "https://a.example")
            #expect(FetchWindows.origin(of: "http://user@a.example:80?q") == "http://user@a.example:80")
            #expect(FetchWindows.origin(of: "https://a.example#f") == "https://a.example")
            #expect(FetchWindows.origin(of: "https://a.example") == "https://a.example")
        }

        @Test("random lists and finishing orders: every item starts once, a host never exceeds its window")
        func randomized() {
            var random = SeededRandomNumberGenerator.forTest("FetchWindowsTests.randomized")
            for _ in 0..<200 {
                let hosts = Int.random(in: 1...6, using: &random)
                let urls = (0..<Int.random(in: 0...60, using: &random)).map { index in
                    "https://h\(Int.random(in: 0..<hosts, using: &random)).example/\(index)"
                }
                let window = Int.random(in: 1...4, using: &random)
                var windows = FetchWindows(urls, window: window)
                var running = windows.start()
                var started = running
                while !running.isEmpty {
                    let perHost = Dictionary(grouping: running) { FetchWindows.origin(of: urls[$0]) }
                    #expect(perHost.values.allSatisfy { $0.count <= window })
                    let done = running.remove(at: Int.random(in: 0..<running.count, using: &random))
                    if let next = windows.finished(done) {
                        #expect(FetchWindows.origin(of: urls[next]) == FetchWindows.origin(of: urls[done]))
                        running.append(next)
                        started.append(next)
                    }
                }
                #expect(started.sorted() == Array(urls.indices))
                #expect(windows.neverStarted.isEmpty)
                // Each host's items started in list order.
                for (_, items) in Dictionary(grouping: started, by: { FetchWindows.origin(of: urls[$0]) }) {
                    #expect(items == items.sorted())
                }
            }
        }
    }
#endif
