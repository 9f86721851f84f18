#if Dashboard
    import Foundation
    import Logging
    import NIOCore
    import NIOPosix
    import SwitchyardDashboard

    /// Runs `dashboard` on a free loopback port for the duration of `body`.
    func withLiveServer<Result: Sendable>(
        _ dashboard: Dashboard, _ body: @Sendable (_ port: Int) async throws -> Result
    ) async throws -> Result {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "dashboard-tests")
        logger.logLevel = .warning
        let server = DashboardServer(
            dashboard: dashboard, port: 0, logger: logger,
            onListening: { url in
                let port = url.split(separator: ":").last.flatMap { Int($0.dropLast()) } ?? 0
                continuation.yield(port)
                continuation.finish()
            })
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { try await server.run() }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            return try await body(port)
        }
    }

    /// A raw HTTP/1.1 client of `GET /events`: connects, reads events until one has id `last` (or the server
    /// closes), then closes. Returns the response head and the ids it saw, in order.
    func readEvents(port: Int, through last: Int) async throws -> (head: String, ids: [Int]) {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            var text = ""
            var ids: [Int] = []
            var head = ""
            for try await chunk in inbound {
                text += String(buffer: chunk)
                if head.isEmpty, let end = text.range(of: "\r\n\r\n") {
                    head = String(text[..<end.lowerBound])
                    text = String(text[end.upperBound...])
                }
                while let end = text.range(of: "\n\n") {
                    let event = text[..<end.lowerBound]
                    text = String(text[end.upperBound...])
                    for line in event.split(separator: "\n") where line.hasPrefix("id: ") {
                        ids.append(Int(line.dropFirst(4)) ?? -1)
                    }
                }
                if let latest = ids.last, latest >= last { break }
            }
            return (head, ids)
        }
    }

    /// `GET path` on a connection of its own, read to its end: the response as text.
    func fetch(port: Int, path: String) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(
                ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            var bytes: [UInt8] = []
            for try await chunk in inbound {
                bytes += chunk.readableBytesView
                let text = String(decoding: bytes, as: UTF8.self)
                guard let end = text.range(of: "\r\n\r\n") else { continue }
                let head = text[..<end.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length {
                    return text
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A client that sends `GET /events` and never reads: its socket's buffers fill, and the server's writes to it
    /// wait.
    struct StalledClient {
        let channel: any Channel

        static func connect(port: Int) async throws -> StalledClient {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.autoRead, value: false)
                .channelOption(.socketOption(.so_rcvbuf), value: 4096)
                .connect(host: "127.0.0.1", port: port).get()
            try await channel.writeAndFlush(ByteBuffer(string: "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            return StalledClient(channel: channel)
        }

        func close() async throws { try await channel.close() }
    }
#endif
