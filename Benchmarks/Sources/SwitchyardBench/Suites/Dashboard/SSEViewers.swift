import Dispatch
import Foundation
import Synchronization

/// Server-Sent Events viewers of a dashboard on 127.0.0.1: `count` HTTP/1.1 connections, each sending one
/// `GET events` and then reading the stream, all read by one dedicated thread (`poll` over every socket), so that
/// reading costs one thread whatever the count, as real clients on the loopback would.
///
/// Fast viewers read everything as it arrives and count the `event: snapshot` lines they receive. Slow viewers
/// (every `slowEvery`-th connection) have a small receive buffer, read until the response's header ends, then never
/// read again: the server meets viewers whose sockets stay full.
///
/// Connects in `init` (blocking the calling thread; never call it from a task) and starts reading at once; ``stop()``
/// ends the thread and closes every socket. The counters may be read from any thread.
final class SSEViewers: Sendable {
    /// Connections that could not be made or sent their request.
    let connectFailures: Int
    /// The viewers that connected.
    let connected: Int
    /// The fast viewers that connected.
    let fastViewers: Int

    private let counters = Counters()
    private let streaming = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Opens `count` connections to `127.0.0.1:port` and requests `path` on each.
    init(port: Int, path: String, count: Int, slowEvery: Int? = nil) {
        let request = Array(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        var viewers: [Viewer] = []
        var failures = 0
        for index in 0..<count {
            let slow = slowEvery.map { (index + 1) % $0 == 0 } ?? false
            if let descriptor = Self.openConnection(port: port, receiveBuffer: slow ? 4096 : nil, request: request) {
                viewers.append(Viewer(descriptor: descriptor, isSlow: slow))
            } else {
                failures += 1
            }
        }
        connectFailures = failures
        connected = viewers.count
        fastViewers = viewers.count(where: { !$0.isSlow })
        let (counters, streaming, finished) = (counters, streaming, finished)
        let (opened, expected) = (viewers, viewers.count)
        if expected == 0 { streaming.signal() }
        let thread = Thread {
            Self.readLoop(opened, counters: counters, expected: expected, streaming: streaming)
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Complete `event: snapshot` lines received by the fast viewers so far, all together.
    var events: Int { counters.events.load(ordering: .relaxed) }
    /// Bytes received by every viewer so far.
    var bytes: Int { counters.bytes.load(ordering: .relaxed) }
    /// Viewers whose connection was closed or refused (a status other than 200) before ``stop()``.
    var failures: Int { counters.failures.load(ordering: .relaxed) }

    /// Waits (blocking the calling thread) until every connected viewer is streaming: each fast viewer has received
    /// its first event, each slow one the response's header. False if `seconds` passed first or a viewer failed.
    func waitUntilStreaming(seconds: Double) -> Bool {
        guard streaming.wait(timeout: .now() + seconds) == .success else { return false }
        streaming.signal()  // later callers see it at once
        return failures == 0 && connectFailures == 0
    }

    /// Stops reading and closes every connection; waits for the reading thread to end. Call once.
    func stop() {
        counters.stop.store(true, ordering: .releasing)
        finished.wait()
    }

    // MARK: The reading thread

    /// One connection, owned by the reading thread.
    private struct Viewer {
        var descriptor: Int32
        var isSlow: Bool
        var isOpen = true
        /// Streaming, or done with (failed): what ``waitUntilStreaming(seconds:)`` waits for.
        var isStreaming = false
        var hasFailed = false
        var headerEnded = false
        var status: [UInt8] = []
        var headerMatch = 0
        var eventMatch = 0
    }

    private static let headerEnd = StreamPattern("\r\n\r\n")
    private static let event = StreamPattern("event: snapshot")

    /// Reads until ``stop()``: every open fast viewer, and each slow viewer until its header ended.
    private static func readLoop(
        _ initial: [Viewer], counters: Counters, expected: Int, streaming: DispatchSemaphore
    ) {
        var viewers = initial
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var streamingCount = 0
        var signalled = false
        var polled: [pollfd] = []
        var owners: [Int] = []
        var rebuild = true
        while !counters.stop.load(ordering: .acquiring) {
            if rebuild {
                polled.removeAll(keepingCapacity: true)
                owners.removeAll(keepingCapacity: true)
                for (index, viewer) in viewers.enumerated()
                where viewer.isOpen && !(viewer.isSlow && viewer.headerEnded) {
                    polled.append(pollfd(fd: viewer.descriptor, events: Int16(POLLIN), revents: 0))
                    owners.append(index)
                }
                rebuild = false
            }
            guard !polled.isEmpty else {
                usleep(20_000)
                continue
            }
            let ready = poll(&polled, nfds_t(polled.count), 20)
            guard ready > 0 else { continue }
            for slot in polled.indices where polled[slot].revents != 0 {
                polled[slot].revents = 0
                let index = owners[slot]
                let count = read(viewers[index].descriptor, buffer.baseAddress, capacity)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 {
                    viewers[index].isOpen = false
                    rebuild = true
                    if !viewers[index].hasFailed {
                        viewers[index].hasFailed = true
                        counters.failures.add(1, ordering: .relaxed)
                    }
                    if !viewers[index].isStreaming {
                        viewers[index].isStreaming = true
                        streamingCount += 1
                    }
                } else {
                    counters.bytes.add(count, ordering: .relaxed)
                    let wasStreaming = viewers[index].isStreaming
                    consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), into: &viewers[index], counters)
                    if viewers[index].isSlow && viewers[index].headerEnded { rebuild = true }
                    if viewers[index].isStreaming && !wasStreaming { streamingCount += 1 }
                }
                if streamingCount == expected && expected > 0 && !signalled {
                    signalled = true
                    streaming.signal()
                }
            }
        }
        for viewer in viewers { close(viewer.descriptor) }
    }

    /// Scans received bytes: the status line, the end of the header, then `event: snapshot` lines.
    private static func consume(_ bytes: UnsafeRawBufferPointer, into viewer: inout Viewer, _ counters: Counters) {
        for byte in bytes {
            if !viewer.headerEnded {
                if viewer.status.count < 12 {
                    viewer.status.append(byte)
                    if viewer.status.count == 12 && viewer.status != Array("HTTP/1.1 200".utf8) {
                        viewer.hasFailed = true
                        viewer.isStreaming = true
                        counters.failures.add(1, ordering: .relaxed)
                    }
                }
                if headerEnd.advance(&viewer.headerMatch, with: byte) {
                    viewer.headerEnded = true
                    if viewer.isSlow {
                        viewer.isStreaming = true
                        return
                    }
                }
            } else if event.advance(&viewer.eventMatch, with: byte) {
                counters.events.add(1, ordering: .relaxed)
                viewer.isStreaming = true
            }
        }
    }

    // MARK: Connecting

    /// A blocking TCP connection to `127.0.0.1:port` that has sent `request`; nil on failure.
    private static func openConnection(port: Int, receiveBuffer: Int32?, request: [UInt8]) -> Int32? {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        #if !canImport(Glibc)
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if var size = receiveBuffer {
            // Before connecting, so that the window the connection advertises is small too.
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
        guard connected == 0, sent == request.count else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}

/// What the reading thread shares with the rest of the process.
private final class Counters: Sendable {
    let events = Atomic<Int>(0)
    let bytes = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
}

/// A byte pattern found in a stream that arrives in pieces (Knuth–Morris–Pratt: a match split between two reads,
/// or overlapping a false start, is still found).
struct StreamPattern: Sendable {
    private let bytes: [UInt8]
    private let fallback: [Int]

    init(_ text: String) {
        bytes = Array(text.utf8)
        var fallback = [Int](repeating: 0, count: bytes.count)
        var length = 0
        for index in bytes.indices.dropFirst() {
            while length > 0 && bytes[index] != bytes[length] { length = fallback[length - 1] }
            if bytes[index] == bytes[length] { length += 1 }
            fallback[index] = length
        }
        self.fallback = fallback
    }

    /// Advances `matched` (the bytes of the pattern matched so far) by `byte`; true when the pattern just ended.
    @inline(__always)
    func advance(_ matched: inout Int, with byte: UInt8) -> Bool {
        while matched > 0 && bytes[matched] != byte { matched = fallback[matched - 1] }
        if bytes[matched] == byte { matched += 1 }
        guard matched == bytes.count else { return false }
        matched = fallback[matched - 1]
        return true
    }
}

/// The limit on this process's open descriptors (`RLIMIT_NOFILE`), which the child processes it starts inherit.
enum DescriptorLimit {
    /// Raises the soft limit to `wanted` if it is lower (never above the hard limit); the limit before and after.
    @discardableResult
    static func raise(to wanted: Int) -> (before: Int, after: Int) {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return (0, 0) }
        let before = Int(clamping: limit.rlim_cur)
        guard before < wanted else { return (before, before) }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        guard setrlimit(resource, &limit) == 0 else { return (before, before) }
        return (before, Int(clamping: limit.rlim_cur))
    }

    #if canImport(Glibc)
        private static let resource = Int32(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
