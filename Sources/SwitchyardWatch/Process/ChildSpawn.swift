#if Watch
    import SystemPackage

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The system calls behind ``ChildProcess``: `posix_spawnp` into a new process group, and `waitpid`.
    enum ChildSpawn {
        #if canImport(Darwin)
            typealias Attributes = posix_spawnattr_t?
            typealias Actions = posix_spawn_file_actions_t?
        #else
            typealias Attributes = posix_spawnattr_t
            typealias Actions = posix_spawn_file_actions_t
        #endif

        /// `int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *, const char *)`: glibc declares it
        /// for `_GNU_SOURCE` only, which Swift's Glibc module is not built with, so it is looked up at run time
        /// (glibc 2.29, musl 1.1.24, macOS 10.15 and later have it).
        private typealias AddChangeDirectory =
            @convention(c) (UnsafeMutablePointer<Actions>?, UnsafePointer<CChar>?) -> Int32

        /// Starts `executable` as the leader of a new process group, with every signal at its default action and
        /// none blocked, and returns its process id.
        /// See ``ChildProcess/start(_:arguments:environment:workingDirectory:)``.
        static func spawn(
            _ executable: String, arguments: [String], environment: [String: String]?, workingDirectory: FilePath?
        ) throws -> pid_t {
            func failure(_ code: Int32, _ call: String? = nil) -> ChildProcessError {
                let text = String(cString: strerror(code))
                return ChildProcessError(
                    executable: executable, errno: code, reason: call.map { "\($0): \(text)" } ?? text)
            }
            #if canImport(Darwin)
                var attributes: Attributes = nil
                var actions: Actions = nil
            #else
                var attributes = Attributes()
                var actions = Actions()
            #endif
            var code = posix_spawnattr_init(&attributes)
            guard code == 0 else { throw failure(code, "posix_spawnattr_init") }
            defer { posix_spawnattr_destroy(&attributes) }
            code = posix_spawn_file_actions_init(&actions)
            guard code == 0 else { throw failure(code, "posix_spawn_file_actions_init") }
            defer { posix_spawn_file_actions_destroy(&actions) }

            var noSignals = sigset_t()
            var allSignals = sigset_t()
            sigemptyset(&noSignals)
            sigfillset(&allSignals)
            code = posix_spawnattr_setpgroup(&attributes, 0)
            guard code == 0 else { throw failure(code, "posix_spawnattr_setpgroup") }
            code = posix_spawnattr_setsigmask(&attributes, &noSignals)
            guard code == 0 else { throw failure(code, "posix_spawnattr_setsigmask") }
            code = posix_spawnattr_setsigdefault(&attributes, &allSignals)
            guard code == 0 else { throw failure(code, "posix_spawnattr_setsigdefault") }
            let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
            code = posix_spawnattr_setflags(&attributes, Int16(flags))
            guard code == 0 else { throw failure(code, "posix_spawnattr_setflags") }

            if let workingDirectory {
                guard let addChangeDirectory = addChangeDirectoryFunction() else {
                    throw ChildProcessError(
                        executable: executable, errno: nil,
                        reason: "this C library cannot set a child's working directory")
                }
                code = workingDirectory.withPlatformString { addChangeDirectory(&actions, $0) }
                guard code == 0 else { throw failure(code, "working directory \(workingDirectory)") }
            }

            let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var envp: [UnsafeMutablePointer<CChar>?]?
            if let environment {
                envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            }
            defer { for pointer in envp ?? [] { free(pointer) } }

            var processID: pid_t = 0
            if let envp {
                code = posix_spawnp(&processID, executable, &actions, &attributes, argv, envp)
            } else {
                code = posix_spawnp(&processID, executable, &actions, &attributes, argv, currentEnvironment)
            }
            guard code == 0 else { throw failure(code) }
            return processID
        }

        /// Waits (blocking) for `processID` to end and collects it; `.exited(-1)` when it cannot be collected
        /// (`ECHILD`: another waiter took it, or `SIGCHLD` is ignored).
        static func collectExit(of processID: pid_t) -> ChildProcess.Termination {
            var status: Int32 = 0
            while waitpid(processID, &status, 0) != processID {
                guard errno == EINTR else { return .exited(-1) }
            }
            // The wait status layout every Unix shares: the ending signal in the low 7 bits, else the exit status
            // in the next byte (WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import).
            let signalNumber = status & 0x7f
            return signalNumber == 0 ? .exited((status >> 8) & 0xff) : .signalled(signalNumber)
        }

        /// This process's environment, as `posix_spawnp` takes it.
        private static var currentEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
            #if canImport(Darwin)
                _NSGetEnviron().pointee
            #else
                environ
            #endif
        }

        /// `posix_spawn_file_actions_addchdir_np`, or `nil` when the C library lacks it.
        private static func addChangeDirectoryFunction() -> AddChangeDirectory? {
            guard let program = dlopen(nil, RTLD_NOW) else { return nil }
            defer { dlclose(program) }
            guard let symbol = dlsym(program, "posix_spawn_file_actions_addchdir_np") else { return nil }
            return unsafeBitCast(symbol, to: AddChangeDirectory.self)
        }
    }
#endif
