#if Push
    import SwitchyardNetworking

    extension PushFailure {
        /// The failure of the notifications that waited for a connection none could open: the client's shutdown, or
        /// why the last opening failed (`openError`, at `host`:`port`), in the words of `ConnectionFailure`.
        ///
        /// - A certificate NIOSSL refused (signed by no trusted authority, expired, not yet valid, or not issued to
        ///   the host) is ``PushReason/untrustedCertificate``, permanent: "TLS: the server's certificate is not
        ///   trusted: …".
        /// - Anything else (refused, timed out, no such host, a failed handshake of another kind) is
        ///   ``PushReason/unreachable``, with the failure in words.
        init(openError: (any Error)?, isShutDown: Bool, host: String, port: Int) {
            guard !isShutDown, let openError else {
                self.init(reason: .unreachable, status: 0, detail: isShutDown ? "the client was shut down" : nil)
                return
            }
            let failure = ConnectionFailure(openError, host: host, port: port)
            if let failure, failure.kind == .untrustedCertificate {
                self.init(reason: .untrustedCertificate, status: 0, detail: failure.description)
            } else {
                self.init(reason: .unreachable, status: 0, detail: failure?.description ?? "\(openError)")
            }
        }
    }
#endif
