#if CLI
    import Foundation
    import SwitchyardHTTPTesting
    import SwitchyardTransit
    import Synchronization
    import Testing

    @Suite("switchyard import URL: download (resumed, conditional), then import")
    struct RemoteImportTests {
        private func scratch(_ name: String = #function) -> String {
            let path =
                NSTemporaryDirectory() + "switchyard-remote-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        @Test("a feed served over HTTP is imported after a dropped connection, and reported unchanged on the next run")
        func importResumeUnchanged() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let generated = try await SwitchyardProcess.run([
                "sample-feed", "--profile", "small", "--out", folder + "/feed.zip",
            ])
            #expect(generated.status == 0, "\(generated.standardError)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/feed.zip")))
            let server = try await StubServer.start()
            let feed = StubResponse(body: bytes).header("etag", "\"feed-v1\"").header(
                "last-modified", "Wed, 25 Nov 2026 10:00:00 GMT"
            ).chunked(by: 16_384)
            // The first response breaks off near the end of the archive; the client resumes from what it wrote. The
            // break waits behind a gate until the client has written a resumable partial file (1 MiB and its
            // validators): what a client has received but not yet read when a connection breaks is lost
            // (AsyncHTTPClient fails the body at once), so without the gate the test would depend on timing.
            let drop = StubGate()
            server.route("/gtfs/feed.zip") { request in
                request.header("range") == nil && request.header("if-none-match") == nil
                    ? feed.dropping(afterBytes: bytes.count - 20_000, when: drop) : feed
            }
            let database = folder + "/vbb.sqlite"
            let url = server.url("/gtfs/feed.zip")
            let partial = database + ".feed.zip.partial"
            let opener = Task {
                await SwitchyardProcess.waitUntil("the partial feed is resumable") {
                    SwitchyardProcess.fileSize(partial) >= 1 << 20
                        && FileManager.default.fileExists(atPath: partial + ".validators")
                }
                drop.open()
            }
            let first = try await SwitchyardProcess.run(["import", url, "--database", database, "--progress", "json"])
            await opener.value
            #expect(first.status == 0, "\(first.standardError)")
            let summary = try #require(first.standardOutput.split(separator: "\n").last)
            #expect(summary.contains("\"state\": \"complete\""))
            let requests = server.requests(to: "/gtfs/feed.zip")
            #expect(
                requests.count == 2,
                "\(requests.map { "\($0) range \($0.header("range") ?? "-")" }) \(first.standardError)"
            )
            #expect(requests.last?.header("range")?.hasPrefix("bytes=") == true)
            #expect(requests.last?.header("if-range") == "\"feed-v1\"")
            #expect(try Data(contentsOf: URL(fileURLWithPath: database + ".feed.zip")) == Data(bytes))

            let status = try ImportStatus.read(database)
            #expect(status.isComplete)
            #expect(status.source?.url == url)
            #expect(status.source?.etag == "\"feed-v1\"")
            #expect(status.source?.lastModified == "Wed, 25 Nov 2026 10:00:00 GMT")
            #expect(status.source?.size == Int64(bytes.count))
            // The SHA-256 of what was served, computed apart (coreutils' sha256sum).
            let sha256sum = try await SwitchyardProcess.run(
                [folder + "/feed.zip"], executable: URL(fileURLWithPath: "/usr/bin/sha256sum"))
            #expect(status.source?.checksum == sha256sum.standardOutput.split(separator: " ").first.map(String.init))

            let second = try await SwitchyardProcess.run(["import", url, "--database", database])
            #expect(second.status == 0, "\(second.standardError)")
            #expect(second.standardOutput.contains("unchanged since the complete import"))
            #expect(server.requests(to: "/gtfs/feed.zip").last?.header("if-none-match") == "\"feed-v1\"")
            let json = try await SwitchyardProcess.run(["import", url, "--database", database, "--progress", "json"])
            #expect(json.standardOutput.contains(#""state":"unchanged""#))

            // An error status is reported as one, not as a new version.
            server.route("/gtfs/feed.zip", StubResponse.text("gone", status: 404))
            let missing = try await SwitchyardProcess.run(["import", url, "--database", database])
            #expect(missing.status == 1)
            #expect(missing.standardError.contains("failed: status 404"), "\(missing.standardError)")

            // A new version on the server: refused without --replace (its body is never downloaded: the archive next
            // to the database is still the first version), imported with it.
            let generatedV2 = try await SwitchyardProcess.run([
                "sample-feed", "--profile", "tiny", "--out", folder + "/feed-v2.zip",
            ])
            #expect(generatedV2.status == 0)
            let bytesV2 = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/feed-v2.zip")))
            server.route("/gtfs/feed.zip", StubResponse(body: bytesV2).header("etag", "\"feed-v2\""))
            let refused = try await SwitchyardProcess.run(["import", url, "--database", database, "--progress", "json"])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("changed since the complete import"), "\(refused.standardError)")
            let last = try #require(refused.standardOutput.split(separator: "\n").last)
            let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
            #expect(object?["state"] as? String == "failed")
            #expect((object?["error"] as? [String: Any])?["kind"] as? String == "database_not_empty")
            #expect(try Data(contentsOf: URL(fileURLWithPath: database + ".feed.zip")) == Data(bytes))
            #expect(!FileManager.default.fileExists(atPath: database + ".feed.zip.partial"))
            let replaced = try await SwitchyardProcess.run(["import", url, "--database", database, "--replace"])
            #expect(replaced.status == 0, "\(replaced.standardError)")
            #expect(try ImportStatus.read(database).source?.etag == "\"feed-v2\"")
            #expect(try Data(contentsOf: URL(fileURLWithPath: database + ".feed.zip")) == Data(bytesV2))
            let other = try await SwitchyardProcess.run(["import", server.url("/other.zip"), "--database", database])
            #expect(other.status == 1)
            #expect(other.standardError.contains("already holds an import"), "\(other.standardError)")
            #expect(server.requests(to: "/other.zip").isEmpty)
            try await server.shutdown()
        }

        @Test("a failed download is an error that names the URL and the status; JSON output stays JSON")
        func failedDownload() async throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try await StubServer.start()
            let url = server.url("/missing.zip")
            let result = try await SwitchyardProcess.run([
                "import", url, "--database", folder + "/x.sqlite", "--progress", "json",
            ])
            #expect(result.status == 1)
            #expect(result.standardError.contains("GET \(url) failed: status 404"))
            let last = try #require(result.standardOutput.split(separator: "\n").last)
            let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
            #expect(object?["state"] as? String == "failed")
            try await server.shutdown()
        }
    }
#endif
