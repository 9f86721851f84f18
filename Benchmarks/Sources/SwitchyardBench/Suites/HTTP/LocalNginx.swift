import Foundation

/// A throwaway nginx on `127.0.0.1` serving one folder: the local server of the `http` suite, fast enough that the
/// clients, not the server, decide the times. Started on a free port with its own configuration, logs and pid file
/// in a temporary folder, stopped (and the folder removed) by ``stop()``.
final class LocalNginx {
    let port: Int
    private let process: Process
    private let folder: String

    /// Starts nginx serving `root`; nil when nginx is not installed (Debian: `nginx-light`).
    init?(serving root: String) {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile)
        else { return nil }
        folder = NSTemporaryDirectory() + "switchyard-bench-nginx-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder + "/logs", withIntermediateDirectories: true)
        port = Self.freePort()
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(folder)/nginx.pid;
            error_log \(folder)/logs/error.log warn;
            events { worker_connections 4096; }
            http {
                access_log off;
                sendfile on;
                tcp_nopush on;
                keepalive_requests 1000000;
                client_body_temp_path \(folder)/body;
                proxy_temp_path \(folder)/proxy;
                fastcgi_temp_path \(folder)/fastcgi;
                uwsgi_temp_path \(folder)/uwsgi;
                scgi_temp_path \(folder)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root);
                }
            }
            """
        try? configuration.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-c", folder + "/nginx.conf", "-p", folder, "-e", folder + "/logs/error.log"]
        do { try process.run() } catch { return nil }
        guard Self.waitUntilListening(port) else {
            process.terminate()
            return nil
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A port the system considers free now (bound to port 0, read back, released).
    private static func freePort() -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls until something accepts connections on `port` (nginx has no readiness signal), for up to 10 s.
    private static func waitUntilListening(_ port: Int) -> Bool {
        for _ in 0..<200 {
            let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(socketDescriptor)
            if connected == 0 { return true }
            usleep(50_000)
        }
        return false
    }
}
