#if !CLI
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `switchyard-mock-apns` built without the `CLI` trait: it says so on standard error and exits 2.
    @main
    enum Unavailable {
        static func main() {
            var message = "error: this switchyard-mock-apns was built without the CLI trait"
            message += " (build with the default traits)\n"
            message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
            exit(2)
        }
    }
#endif
