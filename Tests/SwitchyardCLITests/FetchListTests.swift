#if CLI
    @testable import SwitchyardCLI
    import SwitchyardTesting
    import Testing

    @Suite("FetchList: URLs of the plain shape are read from their bytes exactly as URLComponents reads them")
    struct FetchListTests {
        @Test(
            "plain URLs give URLComponents' path and identity; anything else is left to it",
            arguments: [
                "http://127.0.0.1:18080/many/f0.bin", "https://example.org", "https://example.org/", "http://h?x",
                "http://h/x?", "http://h:80/a", "https://h:443/a", "https://h:0443/a", "http://h:8080/a:b@c/d",
                "http://a-b.c.example/p?q=1&r=2;s=(t)*+,!$'", "http://h/a?b?c/d", "http://h:65535/", "http://h:0/",
                "http://h:65536/", "http://h:/x", "http://user@h/x", "http://h/x#top", "http://H/x", "HTTP://h/x",
                "http://h/%7Euser", "http://h/a b", "http://-h/", "http://h../", "http://.h/", "http://h.-x/",
                "ftp://h/x", "http://", "http://h:123456/", "http://h/é", "http://[::1]/x", "http://h\\x",
            ])
        func plainShape(_ url: String) {
            if let plain = FetchList.plainParse(url) {
                guard case .success(let parsed) = FetchList.componentsParse(url) else {
                    Issue.record("\(url): read plainly, but URLComponents refuses it")
                    return
                }
                #expect(plain == parsed, "\(url)")
            }
        }

        @Test("randomized: every string the plain reader accepts reads the same through URLComponents")
        func randomized() {
            var random = SeededRandomNumberGenerator.forTest("FetchListTests.randomized")
            let seed = random.seed
            let pieces = [
                "http://", "https://", "h", "example", ".", "-", ":", "8080", "80", "443", "0", "/", "a", "Z", "9", "?",
                "=", "&", "@", "%41", "%7e", "#", "~", "_", "!", "(", ")", "'", "*", "+", ",", ";", "$", " ", "é", "[",
            ]
            var accepted = 0
            for _ in 0..<20_000 {
                var url = Bool.random(using: &random) ? "http://" : "https://"
                url += ["h", "example.org", "a-b.c", "127.0.0.1", ""].randomElement(using: &random)!
                for _ in 0..<Int.random(in: 1...12, using: &random) { url += pieces.randomElement(using: &random)! }
                guard let plain = FetchList.plainParse(url) else { continue }
                accepted += 1
                guard case .success(let parsed) = FetchList.componentsParse(url) else {
                    Issue.record("\(url): read plainly, but URLComponents refuses it (seed \(seed))")
                    continue
                }
                #expect(plain == parsed, "\(url) (seed \(seed))")
            }
            #expect(accepted > 1_000)
        }
    }
#endif
