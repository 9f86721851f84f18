#if HTTP
    import NIOHTTP1

    extension HTTPResponse: CustomStringConvertible, CustomDebugStringConvertible {
        /// A one-line summary: the status, the URL without its user information, query and fragment (as the
        /// session's log lines show it), and how many header fields and body bytes. Never any of the body, nor a
        /// header's value, nor those parts of the URL: they may hold credentials or tokens (a token endpoint's
        /// `{"access_token": …}`), and a summary is made to be logged.
        ///
        /// ```text
        /// 200 OK from http://127.0.0.1:8080/hello: 2 header fields, 14 bytes
        /// 200 OK from http://127.0.0.1:8080/feed.zip: 3 header fields, 4194304 bytes
        /// ```
        ///
        /// The format may change between releases. - Complexity: O(the URL's length).
        public var description: String {
            var text = "\(status) "
            let phrase = HTTPResponseStatus(statusCode: status).reasonPhrase
            if !phrase.isEmpty { text += "\(phrase) " }
            text += "from \(HTTPSession.loggableURL(url)): "
            text += "\(headers.count) header field\(headers.count == 1 ? "" : "s"), "
            text += "\(body.count) byte\(body.count == 1 ? "" : "s")"
            return text
        }

        /// For debugging: ``description``, then the start of a body that reads as text (its first 64 characters,
        /// quoted and escaped, `…` when there is more), then the header fields' names in order (not their values):
        /// `200 OK from http://127.0.0.1:8080/hi: 2 header fields, 2 bytes "hi"; content-type, content-length`.
        ///
        /// It may show the body's start, which may hold a credential or a token: log ``description``, not this.
        /// A body reads as text when its start is valid UTF-8 with no control or format characters other than tab,
        /// line feed and carriage return. The format may change between releases.
        /// - Complexity: O(header fields and the URL's length): at most the first 256 bytes of the body are read.
        public var debugDescription: String {
            var text = description
            if let preview = Self.textPreview(of: body) { text += " " + preview }
            if !headers.isEmpty { text += "; " + headers.map(\.name).joined(separator: ", ") }
            return text
        }

        /// The start of `body`, quoted and escaped, with `…` when there is more, if it reads as text (see
        /// ``debugDescription``); nil for an empty body or one that does not read as text.
        static func textPreview(of body: [UInt8], characters: Int = 64) -> String? {
            guard !body.isEmpty else { return nil }
            // Four bytes per character at most for the preview's own characters; the window ends on a scalar's start,
            // so a sequence cut by the window is not taken for invalid UTF-8.
            var end = min(body.count, 256)
            while end < body.count, end > 0, body[end] & 0xC0 == 0x80 { end -= 1 }
            guard end > 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            var decoder = UTF8()
            var bytes = body[..<end].makeIterator()
            decoding: while true {
                switch decoder.decode(&bytes) {
                case .scalarValue(let scalar):
                    let category = scalar.properties.generalCategory
                    let isControl = category == .control || category == .format
                    if isControl, scalar != "\t", scalar != "\n", scalar != "\r" { return nil }
                    scalars.append(scalar)
                case .emptyInput:
                    break decoding
                case .error:
                    return nil
                }
            }
            let text = String(scalars)
            let shown = text.prefix(characters)
            let isWhole = shown.endIndex == text.endIndex && end == body.count
            return String(shown).debugDescription + (isWhole ? "" : "…")
        }
    }
#endif
