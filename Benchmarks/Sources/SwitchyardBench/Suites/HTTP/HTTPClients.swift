import AsyncHTTPClient
import Foundation
import NIOCore
import Switchyard
import SwitchyardHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The three clients of the overhead case, each fetching `count` URLs with `width` requests in flight through
/// the same sliding-window task group, so that only the client differs.
enum HTTPClients {
    /// Runs `fetch` for every URL, `width` at a time; returns the body bytes received.
    static func window(
        _ urls: [String], width: Int, _ fetch: @escaping @Sendable (String) async throws -> Int
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var next = 0
            var total = 0
            while next < min(width, urls.count) {
                let url = urls[next]
                group.addTask { try await fetch(url) }
                next += 1
            }
            while let size = try await group.next() {
                total += size
                if next < urls.count {
                    let url = urls[next]
                    group.addTask { try await fetch(url) }
                    next += 1
                }
            }
            return total
        }
    }

    /// Switchyard: `HTTPSession.data(for:)`, one host at `width` requests.
    static func switchyard(_ urls: [String], width: Int) async throws -> Int {
        let session = HTTPSession(
            configuration: HTTPSession.Configuration(
                name: "bench", maximumConcurrentRequests: width, maximumRequestsPerHost: width, retry: .never))
        let total = await Result(catching: {
            try await window(urls, width: width) { url in try await session.data(for: HTTPRequest(url: url)).body.count
            }
        })
        try? await session.shutdown()
        return try total.get()
    }

    /// AsyncHTTPClient alone: `execute` and `collect`, its pool sized to `width`.
    static func asyncHTTPClient(_ urls: [String], width: Int) async throws -> Int {
        try await withAsyncHTTPClient(urls, width: width) { client, url in
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            return try await response.body.collect(upTo: 1 << 20).readableBytes
        }
    }

    /// AsyncHTTPClient alone, each body read and dropped (nothing written): the floor under any downloader built
    /// on it, for the fetch cases.
    static func asyncHTTPClientDiscarding(_ urls: [String], width: Int) async throws -> Int {
        try await withAsyncHTTPClient(urls, width: width) { client, url in
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(300))
            var bytes = 0
            for try await buffer in response.body { bytes += buffer.readableBytes }
            return bytes
        }
    }

    /// AsyncHTTPClient alone, each body written to `folder` as curl writes it: gathered whole (at most 1 MiB), then
    /// created in place under its URL's last path segment (`open`, `write`, `close`: no temporary name) on a
    /// blocking thread. The ceiling of a downloader built on AsyncHTTPClient that keeps disk I/O off its event
    /// loops, for the small-files case.
    static func asyncHTTPClientWriting(_ urls: [String], width: Int, folder: String) async throws -> Int {
        try await withAsyncHTTPClient(urls, width: width) { client, url in
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(300))
            let body = try await response.body.collect(upTo: 1 << 20)
            let path = folder + "/" + (url.split(separator: "/").last.map(String.init) ?? "index.html")
            let written = try await BlockingExecutor.shared.run {
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { return -1 }
                defer { close(descriptor) }
                return body.withUnsafeReadableBytes { write(descriptor, $0.baseAddress, $0.count) }
            }
            guard written == body.readableBytes else { throw CocoaError(.fileWriteUnknown) }
            return written
        }
    }

    /// Runs `fetch` for every URL, `width` at a time, with an AsyncHTTPClient of its own (its pool sized to
    /// `width`), shut down afterwards; returns the sum of what `fetch` returned.
    private static func withAsyncHTTPClient(
        _ urls: [String], width: Int, _ fetch: @escaping @Sendable (HTTPClient, String) async throws -> Int
    ) async throws -> Int {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: width)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let total = await Result(catching: {
            try await window(urls, width: width) { url in try await fetch(client, url) }
        })
        try? await client.shutdown()
        return try total.get()
    }

    /// FoundationNetworking's `URLSession` (libcurl underneath), `width` connections per host.
    static func urlSession(_ urls: [String], width: Int) async throws -> Int {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = width
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        return try await window(urls, width: width) { url in
            try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: URL(string: url)!) { data, _, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: data?.count ?? 0)
                    }
                }.resume()
            }
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
