#if CLI && Images
    import CVipsFixtures
    import Foundation
    import Switchyard
    import SwitchyardHTTPTesting
    import SwitchyardImages
    import Testing

    @Suite("switchyard thumbnails: folders, failures named, up-to-date outputs skipped, a gallery, bounded memory")
    struct ThumbnailsCommandTests {
        private func scratch(_ name: String = #function) -> String {
            let path =
                NSTemporaryDirectory()
                + "switchyard-thumbnails-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        /// libvips started by the library before any fixture runs: its start must not race with the fixtures' own
        /// (`vips_init` lets a second caller through while the first is still starting).
        private static let ready: Bool = ImageFormat.jpeg.isAvailable

        private static func picture(_ width: Int, _ height: Int, _ suffix: String) -> Data {
            _ = ready
            var output: UnsafeMutableRawPointer?
            var length = 0
            guard syf_picture(Int32(width), Int32(height), 1, suffix, &output, &length) == 0, let output else {
                fatalError("cannot make a \(suffix) picture")
            }
            defer { syf_free(output) }
            return Data(bytes: output, count: length)
        }

        @Test("a folder: thumbnails keep its structure, failures are named, a second run skips what is up to date")
        func folder() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let photos = folder + "/photos"
            try FileManager.default.createDirectory(atPath: photos + "/2026", withIntermediateDirectories: true)
            try Self.picture(800, 600, ".jpg").write(to: URL(fileURLWithPath: photos + "/a.jpg"))
            try Self.picture(300, 600, ".png").write(to: URL(fileURLWithPath: photos + "/2026/b.png"))
            let jpeg = Self.picture(640, 480, ".jpg")
            try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: photos + "/2026/cut.jpg"))
            try Data("stop_id,stop_name\n".utf8).write(to: URL(fileURLWithPath: photos + "/stops.jpg"))
            try Data("notes".utf8).write(to: URL(fileURLWithPath: photos + "/notes.txt"))  // not an image name
            try Data().write(to: URL(fileURLWithPath: photos + "/.DS_Store"))  // hidden: not even listed
            try FileManager.default.createSymbolicLink(atPath: photos + "/linked", withDestinationPath: "2026")
            let out = folder + "/thumbs"
            let arguments = ["thumbnails", photos, "--size", "100", "--format", "png", "--out", out, "--html"]
            let first = try await SwitchyardProcess.run(arguments)
            #expect(first.status == 1)
            #expect(first.standardOutput.hasPrefix("made 2, up to date 0, failed 2"), "\(first.standardOutput)")
            #expect(first.standardOutput.contains("\(photos)/2026/cut.jpg is truncated or corrupt"))
            #expect(first.standardOutput.contains("\(photos)/stops.jpg is not an image"))
            #expect(
                first.standardOutput.contains(
                    "left out 2 files without an image extension: \(photos)/linked (a link to a folder, not followed), "
                        + "\(photos)/notes.txt\n"))
            #expect(FileManager.default.fileExists(atPath: out + "/a.png"))
            #expect(FileManager.default.fileExists(atPath: out + "/2026/b.png"))
            let gallery = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
            #expect(gallery.contains("src=\"2026/b.png\"") && gallery.contains("src=\"a.png\""))
            let leftovers = try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.hasSuffix(".partial") }
            #expect(leftovers.isEmpty)
            let second = try await SwitchyardProcess.run(arguments)
            #expect(second.standardOutput.hasPrefix("made 0, up to date 2, failed 2"), "\(second.standardOutput)")
            let list = folder + "/list.txt"
            try Data("# two photos, Windows line endings\r\n\(photos)/a.jpg\r\n\(photos)/2026/b.png\r\n".utf8)
                .write(to: URL(fileURLWithPath: list))
            let listed = try await SwitchyardProcess.run([
                "thumbnails", "-i", list, "--size", "80", "--out", folder + "/listed",
            ])
            #expect(listed.status == 0, "\(listed.standardOutput)\(listed.standardError)")
            #expect(listed.standardOutput.hasPrefix("made 2,"), "\(listed.standardOutput)")
            let other = try await SwitchyardProcess.run([
                "thumbnails", photos + "/a.jpg", "--size", "50", "--format", "png", "--out", out,
            ])
            #expect(other.status == 0)
            #expect(other.standardOutput.hasPrefix("made 1, up to date 0"), "another size is not up to date")
        }

        /// A PNG's width and height, from its IHDR chunk.
        private static func pngSize(_ path: String) throws -> (width: Int, height: Int) {
            let bytes = try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) })
            try #require(bytes.count >= 24, "\(path) is too short for a PNG")
            func number(at offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (number(at: 16), number(at: 20))
        }

        @Test(
            "sources that would share an output name: each keeps its extension, then a number; the summary says which is which"
        )
        func sharedOutputNames() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            for subfolder in ["in", "other", "more"] {
                try FileManager.default.createDirectory(
                    atPath: folder + "/" + subfolder, withIntermediateDirectories: true)
            }
            // Each source its own shape, so that each output shows which source it came from.
            let sources: [(path: String, width: Int, height: Int, suffix: String)] = [
                ("in/a.jpg", 800, 600, ".jpg"), ("in/a.png", 300, 600, ".png"), ("in/b.jpg", 200, 200, ".jpg"),
                ("other/a.jpg", 400, 400, ".jpg"), ("other/c.jpg", 600, 300, ".jpg"), ("more/c.jpg", 300, 600, ".jpg"),
            ]
            for source in sources {
                try Self.picture(source.width, source.height, source.suffix)
                    .write(to: URL(fileURLWithPath: folder + "/" + source.path))
            }
            let out = folder + "/out"
            let arguments = [
                "thumbnails", folder + "/in", folder + "/other/a.jpg", folder + "/other/c.jpg", folder + "/more/c.jpg",
                "--size", "100", "--format", "png", "--out", out, "--parallel", "3",
            ]
            // in/a.jpg and in/a.png differ in extension: each keeps its own; other/a.jpg shares a.jpg with
            // in/a.jpg, so it is numbered; other/c.jpg and more/c.jpg share everything: numbered.
            let expected: [(source: String, output: String, width: Int, height: Int)] = [
                ("in/a.jpg", "a.jpg.png", 100, 75), ("in/a.png", "a.png.png", 50, 100),
                ("other/a.jpg", "a-2.jpg.png", 100, 100), ("other/c.jpg", "c.png", 100, 50),
                ("more/c.jpg", "c-2.png", 50, 100),
            ]
            let listing =
                "sources that would have shared an output name:\n"
                + expected.map { "  \(folder)/\($0.source) → \($0.output)\n" }.joined()
            for round in ["first", "second"] {
                let run = try await SwitchyardProcess.run(arguments)
                #expect(run.status == 0, "\(round): \(run.standardOutput)\(run.standardError)")
                let made = round == "first" ? "made 6, up to date 0" : "made 0, up to date 6"
                #expect(run.standardOutput.hasPrefix(made + ", failed 0"), "\(round): \(run.standardOutput)")
                #expect(run.standardOutput.contains("\n" + listing), "\(round): \(run.standardOutput)")
                #expect(!run.standardOutput.contains("b.jpg →"), "a name no other source shares is not listed")
            }
            for output in expected {
                let size = try Self.pngSize(out + "/" + output.output)
                #expect(
                    size.width == output.width && size.height == output.height,
                    "\(output.output) is made of \(output.source): \(size)")
            }
            let unshared = try Self.pngSize(out + "/b.png")
            #expect(unshared.width == 100 && unshared.height == 100)
            let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }
            #expect(Set(written) == Set(expected.map(\.output) + ["b.png"]), "\(written.sorted())")
        }

        @Test("without a usable libvips the command stops before any work, saying how to install it")
        func noLibvips() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Self.picture(80, 60, ".jpg").write(to: URL(fileURLWithPath: folder + "/a.jpg"))
            let result = try await SwitchyardProcess.run(
                ["thumbnails", folder + "/a.jpg", "--size", "32", "--out", folder + "/out"],
                environment: ["SWITCHYARD_LIBVIPS": folder + "/libvips.so.42"])
            #expect(result.status == 2)
            #expect(result.standardError.contains("error: libvips could not be loaded ("))
            #expect(result.standardError.contains("apt-get install libvips42"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/out"))  // stopped before making the folder
        }

        @Test("URL sources: a second run asks the server, and a 304 is up to date; a changed image is made again")
        func urls() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            server.route("/a.jpg", StubResponse(body: Array(Self.picture(800, 600, ".jpg"))).header("etag", "\"1\""))
            let arguments = ["thumbnails", server.url("/a.jpg"), "--size", "64", "--out", folder + "/out"]
            let first = try await SwitchyardProcess.run(arguments)
            #expect(first.standardOutput.hasPrefix("made 1, up to date 0, failed 0"), "\(first.standardOutput)")
            let second = try await SwitchyardProcess.run(arguments)
            #expect(second.standardOutput.hasPrefix("made 0, up to date 1, failed 0"), "\(second.standardOutput)")
            #expect(server.requests(to: "/a.jpg").last?.header("if-none-match") == "\"1\"")
            server.route("/a.jpg", StubResponse(body: Array(Self.picture(600, 800, ".jpg"))).header("etag", "\"2\""))
            let third = try await SwitchyardProcess.run(arguments)
            #expect(third.standardOutput.hasPrefix("made 1, up to date 0, failed 0"), "\(third.standardOutput)")
            try await server.shutdown()
        }

        @Test("Ctrl-C stops at once with exit 130 and no partial output; the next run makes only the rest")
        func interrupted() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
            let picture = try await BlockingExecutor.shared.run { Self.picture(1600, 1200, ".jpg") }
            for index in 0..<300 { try picture.write(to: URL(fileURLWithPath: folder + "/in/p\(index).jpg")) }
            let out = folder + "/out"
            let arguments = ["thumbnails", folder + "/in", "--size", "64", "--out", out, "--parallel", "1"]
            let child = try SwitchyardProcess.start(arguments)
            await SwitchyardProcess.waitUntil("a first thumbnail is written") {
                ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).contains { $0.hasSuffix(".webp") }
            }
            kill(child.pid, SIGINT)
            let status = await child.exit.value
            let written = try FileManager.default.contentsOfDirectory(atPath: out)
            #expect(!written.contains { $0.hasSuffix(".partial") }, "\(written)")
            let made = written.filter { $0.hasSuffix(".webp") }.count
            print("ThumbnailsCommandTests.interrupted: exit \(status), \(made) of 300 made before the signal")
            #expect(status == 130 || made == 300, "exit \(status) with \(made) of 300 made")
            let rest = try await SwitchyardProcess.run(arguments)
            #expect(rest.status == 0)
            #expect(
                rest.standardOutput.hasPrefix("made \(300 - made), up to date \(made), failed 0"),
                "\(rest.standardOutput)")
        }

        @Test("a 12,000 × 12,000 JPEG is thumbnailed in bounded memory (shrink-on-load, decoding in strips)")
        func hugeJPEG() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            _ = Self.ready
            // 144 megapixels: a whole decode would take 432 MB, well over the bound, while the fixture stays cheap to
            // encode beside the suite's timed stress tests. It takes seconds: on the blocking executor.
            let made = try await BlockingExecutor.shared.run { () throws -> Bool in
                var output: UnsafeMutableRawPointer?
                var length = 0
                guard syf_plain_image(12_000, 12_000, ".jpg", &output, &length) == 0, let output else { return false }
                defer { syf_free(output) }
                try Data(bytes: output, count: length).write(to: URL(fileURLWithPath: folder + "/huge.jpg"))
                return true
            }
            guard made else {
                Issue.record("cannot make the JPEG")
                return
            }
            // GNU time reports the child's peak resident set (Debian's `time`, Scripts/install-system-packages.sh).
            let report = folder + "/time.txt"
            let run = try await SwitchyardProcess.run(
                [
                    "-f", "%M", "-o", report, SwitchyardProcess.executable.path, "thumbnails", folder + "/huge.jpg",
                    "--size", "256", "--out", folder + "/out",
                ],
                executable: URL(fileURLWithPath: "/usr/bin/time"))
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            let kilobytes =
                Int(try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
                ?? .max
            print("ThumbnailsCommandTests.hugeJPEG: peak resident set \(kilobytes / 1024) MB for 144 megapixels")
            #expect(kilobytes < 256 * 1024, "a whole decode would take 432 MB")
        }
    }
#endif
