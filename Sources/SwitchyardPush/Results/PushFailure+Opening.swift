#if Push
    import NIOSSL

    extension PushFailure {
        /// The failure of the notifications that waited for a connection none could open: the client's shutdown, or
        /// why the last opening failed (`openError`, at `server`).
        ///
        /// - A certificate NIOSSL refused (BoringSSL's `CERTIFICATE_VERIFY_FAILED`: signed by no trusted authority,
        ///   expired, not yet valid; or not issued to the host) is ``PushReason/untrustedCertificate``, permanent:
        ///   "the server's certificate is not trusted: …" with NIOSSL's reason.
        /// - Anything else (refused, timed out, a failed handshake of another kind) is ``PushReason/unreachable``,
        ///   with the error in words.
        init(openError: (any Error)?, isShutDown: Bool, server: String) {
            guard !isShutDown, let openError else {
                self.init(reason: .unreachable, status: 0, detail: isShutDown ? "the client was shut down" : nil)
                return
            }
            if let problem = Self.certificateProblem(openError, server: server) {
                let detail = "the server's certificate is not trusted: \(problem)"
                self.init(reason: .untrustedCertificate, status: 0, detail: detail)
            } else {
                self.init(reason: .unreachable, status: 0, detail: "\(openError)")
            }
        }

        /// `host:port`, an IPv6 address in brackets.
        static func place(_ host: String, _ port: Int) -> String {
            (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        }

        /// What is wrong with the certificate `server` sent, if `error` is NIOSSL's refusal of it.
        static func certificateProblem(_ error: any Error, server: String) -> String? {
            if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
                return "\(server) sent one that is not issued to its name (\(error))"
            }
            guard case .handshakeFailed(let failure)? = error as? NIOSSLError else { return nil }
            let stack: [BoringSSLInternalError]
            switch failure {
            case .sslError(let errors), .unknownError(let errors): stack = errors
            default: return nil
            }
            guard stack.contains(where: { $0.description.contains("CERTIFICATE_VERIFY_FAILED") }) else { return nil }
            let reasons = stack.map { reason($0.description) }.joined(separator: ", ")
            return "\(server) sent one that no trusted authority signed, or that has expired or is not yet valid "
                + "(NIOSSL: \(reasons))"
        }

        /// BoringSSL's reason in words: `Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:
        /// CERTIFICATE_VERIFY_FAILED at file:line` reads "certificate verify failed".
        private static func reason(_ description: String) -> String {
            var text = Substring(description)
            if let at = text.firstRange(of: " at ") { text = text[..<at.lowerBound] }
            if let colon = text.lastIndex(of: ":") { text = text[text.index(after: colon)...] }
            let trimmed = text.drop { $0 == " " }
            let isCode = !trimmed.isEmpty && trimmed.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
            return isCode ? String(trimmed.lowercased().map { $0 == "_" ? " " : $0 }) : String(trimmed)
        }
    }
#endif
