#if HTTP
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing

    @Suite(
        "HTTPResponse prints a summary (status, URL without credentials or query, counts), and a debug form adds the start of a text body"
    )
    struct ResponseDescriptionTests {
        static let url = "http://127.0.0.1:8080/hello"

        @Test("the summary shows no byte of the body; the debug form adds its start (escaped) and the header names")
        func textBody() {
            let response = HTTPResponse(
                url: Self.url, status: 200, headers: ["content-type": "text/plain", "set-cookie": "session=secret"],
                body: Array("hello\n\"world\"".utf8))
            #expect("\(response)" == "200 OK from http://127.0.0.1:8080/hello: 2 header fields, 13 bytes")
            let debug = #"200 OK from http://127.0.0.1:8080/hello: 2 header fields, 13 bytes "hello\n\"world\"""#
            #expect(String(reflecting: response) == debug + "; content-type, set-cookie")
            #expect(!String(reflecting: response).contains("secret"))
        }

        @Test("a token endpoint's response: no form shows the URL's credentials or query, the summary no token")
        func tokenResponse() {
            let response = HTTPResponse(
                url: "https://client:s3cret@auth.example/token?code=one-time#frag", status: 200,
                headers: ["content-type": "application/json"], body: Array(#"{"access_token":"tok-123"}"#.utf8))
            let summary = "200 OK from https://auth.example/token: 1 header field, 26 bytes"
            #expect("\(response)" == summary)
            let debug = String(reflecting: response)
            #expect(debug == summary + #" "{\"access_token\":\"tok-123\"}"; content-type"#)
            for secret in ["s3cret", "client", "one-time", "frag"] {
                #expect(!"\(response)".contains(secret) && !debug.contains(secret), "\(secret)")
            }
            #expect(!"\(response)".contains("tok-123"))
        }

        @Test("a long text shows its first 64 characters and an ellipsis, in the debug form")
        func longText() {
            let response = HTTPResponse(
                url: Self.url, status: 200, headers: [:], body: Array(String(repeating: "a", count: 100_000).utf8))
            let start = "\"" + String(repeating: "a", count: 64) + "\"…"
            #expect("\(response)" == "200 OK from \(Self.url): 0 header fields, 100000 bytes")
            #expect(String(reflecting: response) == "200 OK from \(Self.url): 0 header fields, 100000 bytes \(start)")
        }

        @Test("a character cut by the 256-byte window still reads as text")
        func multibyteAtTheWindow() {
            // 3 bytes each: byte 256 is the second of the 86th euro sign.
            let response = HTTPResponse(
                url: Self.url, status: 200, headers: [:], body: Array(String(repeating: "€", count: 100).utf8))
            let start = "\"" + String(repeating: "€", count: 64) + "\"…"
            #expect(String(reflecting: response) == "200 OK from \(Self.url): 0 header fields, 300 bytes \(start)")
        }

        @Test("a binary body shows its size only")
        func binaryBody() {
            let response = HTTPResponse(url: Self.url, status: 200, headers: [:], body: patternBytes(4 << 20))
            #expect("\(response)" == "200 OK from \(Self.url): 0 header fields, 4194304 bytes")
            #expect(String(reflecting: response) == "\(response)")
        }

        @Test(
            "invalid UTF-8 and terminal controls show no bytes; an empty body and an unknown status read plainly",
            arguments: [
                (200, [0xFF, 0x41] as [UInt8], "200 OK from http://127.0.0.1:8080/hello: 0 header fields, 2 bytes"),
                (200, Array("\u{1B}[2J".utf8), "200 OK from http://127.0.0.1:8080/hello: 0 header fields, 4 bytes"),
                (200, Array("\u{202E}txt".utf8), "200 OK from http://127.0.0.1:8080/hello: 0 header fields, 6 bytes"),
                (204, [] as [UInt8], "204 No Content from http://127.0.0.1:8080/hello: 0 header fields, 0 bytes"),
                (599, Array("x".utf8), #"599 from http://127.0.0.1:8080/hello: 0 header fields, 1 byte "x""#),
            ])
        func noPreview(status: Int, body: [UInt8], expected: String) {
            let response = HTTPResponse(url: Self.url, status: status, headers: [:], body: body)
            #expect(String(reflecting: response) == expected)
        }

        @Test("a streamed body says what it is without reading it, naming the URL without its query")
        func streamedBody() async throws {
            try await withServer { server, session in
                server.route("/stops.txt", StubResponse.text("stop_id\n1\n"))
                let text = try await session.stream(HTTPRequest(url: server.url("/stops.txt?key=secret"))) { _, body in
                    "\(body)"
                }
                #expect(text == "the body of GET \(server.url("/stops.txt")), at most 67108864 bytes")
            }
        }
    }
#endif
