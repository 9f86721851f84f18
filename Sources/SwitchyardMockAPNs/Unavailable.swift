#if !CLI
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `switchyard-mock-apns` built without the `CLI` trait: it says so and exits 2.
    @main
    enum Unavailable {
        static func main() {
            fputs(
                "error: this switchyard-mock-apns was built without the CLI trait; build with the default traits\n",
                stderr)
            exit(2)
        }
    }
#endif
