#if CLI
    import Foundation
    import Testing

    /// `switchyard lines` and `switchyard csv`, run as child processes on generated files.
    @Suite("switchyard lines and csv", .timeLimit(.minutes(3)))
    struct StreamCommandsTests {
        /// Files with every line-ending case, written to a fresh folder.
        private static func lineFiles() throws -> (directory: URL, paths: [String]) {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("switchyard-lines-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var state: UInt64 = 42
            let random = (0..<300_000).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Array("abc \r\n\n".utf8)[Int(state >> 61) % 7]
            }
            let contents: [(String, [UInt8])] = [
                ("empty.txt", []), ("newline.txt", [0x0A]), ("lf.txt", Array("a\nbb\nccc\n".utf8)),
                ("crlf.txt", Array("a\r\nbb\r\n".utf8)), ("unterminated.txt", Array("a\nlast".utf8)),
                ("bom.txt", [0xEF, 0xBB, 0xBF] + Array("x\ny\n".utf8)), ("blank.txt", Array("\n\n\n\n".utf8)),
                ("lone-cr.txt", Array("a\rb\rc".utf8)),
                ("binary.txt", (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
                ("random.txt", random),
                (
                    "long-lines.txt",
                    Array((String(repeating: "x", count: 300_000) + "\n" + String(repeating: "y", count: 70_000)).utf8)
                ),
            ]
            var paths: [String] = []
            for (name, bytes) in contents {
                let path = directory.appendingPathComponent(name).path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
            return (directory, paths)
        }

        @Test("switchyard lines agrees with wc -l on every test file: counting, in both tiers, at small chunk sizes")
        func linesAgreesWithWc() async throws {
            let (directory, paths) = try Self.lineFiles()
            defer { try? FileManager.default.removeItem(at: directory) }
            let wc = try await SwitchyardProcess.run(["-l"] + paths, executable: URL(fileURLWithPath: "/usr/bin/wc"))
            #expect(wc.status == 0)
            let expected = Self.counts(wc.standardOutput)
            #expect(expected.count == paths.count + 1)
            for arguments in [
                [], ["--chunk-size", "1"], ["--strings", "--chunk-size", "7"], ["--each-line", "--chunk-size", "1"],
            ] {
                // binary.txt is not UTF-8: the String tier rejects it, so compare it in the byte tier only.
                let files = arguments.contains("--strings") ? paths.filter { !$0.hasSuffix("binary.txt") } : paths
                let ours = try await SwitchyardProcess.run(["lines"] + arguments + files)
                #expect(ours.status == 0, "\(arguments): \(ours.standardError)")
                let counts = Self.counts(ours.standardOutput)
                for path in files { #expect(counts[path] == expected[path], "\(path) \(arguments)") }
            }
        }

        @Test("file names and CSV header names that could drive the terminal are printed written out")
        func controlCharactersInNamesAreShownNotSent() async throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("switchyard-escape-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("evil\u{1B}[2J\u{202E}.csv").path
            try Data("id,na\u{1B}]0;title\u{07}me\n1,a\n".utf8).write(to: URL(fileURLWithPath: path))
            let csv = try await SwitchyardProcess.run(["csv", path])
            let lines = try await SwitchyardProcess.run(["lines", path])
            for output in [csv, lines] {
                #expect(output.status == 0, "\(output.standardError)")
                #expect(
                    !(output.standardOutput + output.standardError).unicodeScalars.contains {
                        $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}"
                    })
                #expect(output.standardOutput.contains("evil\\u{1B}[2J\\u{202E}.csv"), "\(output.standardOutput)")
            }
            #expect(csv.standardOutput.contains("(id, na\\u{1B}]0;title\\u{7}me)"), "\(csv.standardOutput)")
        }

        @Test("switchyard lines reports an unreadable file, counts the rest, and exits 1")
        func linesMissingFile() async throws {
            let (directory, paths) = try Self.lineFiles()
            defer { try? FileManager.default.removeItem(at: directory) }
            let output = try await SwitchyardProcess.run(["lines", "/nonexistent/file.txt", paths[2]])
            #expect(output.status == 1)
            #expect(output.standardError.contains("/nonexistent/file.txt: cannot open: No such file or directory"))
            #expect(Self.counts(output.standardOutput)[paths[2]] == 3)
        }

        @Test("switchyard csv prints records, fields per record and every malformed record with its line")
        func csvValidator() async throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("switchyard-csv-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let good = directory.appendingPathComponent("stops.txt").path
            let bad = directory.appendingPathComponent("trips.txt").path
            try Data("stop_id,stop_name\n1,\"A, B\"\n2,\"C\"\"D\"\r\n".utf8).write(to: URL(fileURLWithPath: good))
            try Data("trip_id,route_id\nT1,R1\nT2\nT3,\"x\"y\nT4,\"R4\nT5,R5".utf8).write(to: URL(fileURLWithPath: bad))
            // By default read as the import reads GTFS: quirks are warnings, a stray quote costs its line.
            let output = try await SwitchyardProcess.run(["csv", good, bad])
            #expect(output.status == 1)
            let lines = output.standardOutput.split(separator: "\n").map(String.init)
            #expect(
                lines == [
                    "\(good): 2 records, 2 fields per record (stop_id, stop_name), 0 malformed (skipped), 0 read with warnings",
                    "  warning: \(bad):3: 1 of 2 fields (the rest read as empty)",
                    "  warning: \(bad):4: text after a closing quote (kept)",
                    "  malformed: \(bad):5:4: field 2 (route_id): quote not closed on its line (a stray quote?); its line was skipped and reading went on at line 6",
                    "\(bad): 5 records, 2 fields per record (trip_id, route_id), 1 malformed (skipped), 2 read with warnings",
                ])
            // RFC 4180: the quirks are malformed records, counted among the records all the same.
            let strict = try await SwitchyardProcess.run(["csv", "--strict", bad])
            #expect(strict.status == 1)
            #expect(
                strict.standardOutput.split(separator: "\n").map(String.init) == [
                    "  malformed: \(bad):3: 1 fields, expected 2",
                    "  malformed: \(bad):4:7: field 2 (route_id): text after the closing quote",
                    "  malformed: \(bad):5:4: field 2 (route_id): quote not closed on its line (a stray quote?); its line was skipped and reading went on at line 6",
                    "\(bad): 5 records, 2 fields per record (trip_id, route_id), 3 malformed (skipped), 0 read with warnings",
                ])
            let clean = try await SwitchyardProcess.run(["csv", good])
            #expect(clean.status == 0)
        }

        /// `count name` rows (as `wc -l` and `switchyard lines` print them) by name.
        private static func counts(_ output: String) -> [String: Int] {
            var result: [String: Int] = [:]
            for line in output.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
                guard parts.count == 2, let count = Int(parts[0]) else { continue }
                result[String(parts[1]).trimmingCharacters(in: .whitespaces)] = count
            }
            return result
        }
    }
#endif
