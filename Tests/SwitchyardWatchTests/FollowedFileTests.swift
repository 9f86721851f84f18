#if Watch && os(Linux)
    import Switchyard
    import Glibc
    import SwitchyardTesting
    import SystemPackage
    import Testing

    @testable import SwitchyardWatch

    /// `FollowedFile` with `Lines`: a growing log followed across appends, rotation and truncation.
    @Suite("FollowedFile", .timeLimit(.minutes(1)))
    struct FollowedFileTests {
        let tree = TemporaryTree()

        /// Appends `text` to `relative` (created if missing).
        func append(_ relative: String, _ text: String) {
            let descriptor = tree.path(relative).withPlatformString { open($0, O_WRONLY | O_CREAT | O_APPEND, 0o644) }
            precondition(descriptor >= 0)
            _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }

        @Test("appends, then a rotation (renamed away, a new file), then a truncation, line by line")
        func followsAcrossRotation() async throws {
            append("app.log", "first\n")
            let wanted = ["first", "one", "two", "after rotation", "cut"]
            // reached[n]: the follower has read n lines.
            let reached = (0...wanted.count).map { CallbackExpectation("\($0) lines followed") }
            let lines = Isolated([String](), label: "followed lines")
            let path = tree.path("app.log")
            let follower = Task {
                for try await line in Lines(.sequence(FollowedFile(path, from: .beginning))) {
                    let count = lines.withValueBlocking {
                        $0.append(line)
                        return $0.count
                    }
                    reached[min(count, wanted.count)].fulfill()
                    if count == wanted.count { return }
                }
            }
            await reached[1].fulfillment(within: .seconds(20))
            append("app.log", "one\ntwo\n")
            await reached[3].fulfillment(within: .seconds(20))
            tree.rename("app.log", "app.log.1")
            append("app.log", "after rotation\n")
            await reached[4].fulfillment(within: .seconds(20))
            tree.write("app.log", "cut\n")  // truncated in place, shorter than what was read
            await reached[5].fulfillment(within: .seconds(20))
            try await follower.value
            #expect(lines.withValueBlocking { $0 } == wanted)
        }

        @Test("a file that does not exist yet is waited for, and read from its beginning")
        func notYet() async throws {
            let path = tree.path("later.log")
            let got = CallbackExpectation("the appended line")
            let follower = Task {
                var iterator = Lines(.sequence(FollowedFile(path, from: .beginning))).makeAsyncIterator()
                let line = try await iterator.next()
                got.fulfill()
                return line
            }
            append("later.log", "appended\n")
            await got.fulfillment(within: .seconds(20))
            #expect(try await follower.value == "appended")
        }
    }
#endif
