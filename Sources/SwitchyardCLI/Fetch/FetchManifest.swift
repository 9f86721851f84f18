#if CLI
    import Foundation
    import SwitchyardHTTP

    /// What `switchyard fetch` remembers about the files of an output folder, in `.switchyard-fetch.json`: for each
    /// file, the URL it came from, its validators and the SHA-256 it was checked against, so that the next run asks the
    /// server whether it changed.
    struct FetchManifest: Codable, Sendable {
        struct Entry: Codable, Sendable {
            var url: String
            var validators: HTTPValidators
            /// The SHA-256 the file was checked against, when its list line named one.
            var sha256: String?
        }

        var files: [String: Entry] = [:]

        static func path(in folder: String) -> String { folder + "/.switchyard-fetch.json" }

        /// The folder's manifest; empty when there is none or it cannot be read (every file is then fetched again).
        static func load(from folder: String) -> FetchManifest {
            guard let data = FileManager.default.contents(atPath: path(in: folder)),
                let manifest = try? JSONDecoder().decode(FetchManifest.self, from: data)
            else { return FetchManifest() }
            return manifest
        }

        /// Writes the manifest atomically (a temporary file renamed over the old one).
        func save(to folder: String) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try encoder.encode(self).write(to: URL(fileURLWithPath: Self.path(in: folder)), options: .atomic)
        }

        /// The validators to send for `item`, if its file exists, came from the same URL and was checked against the
        /// SHA-256 the item names (a file never checked, or checked against another digest, is fetched again).
        func validators(for item: FetchList.Item, in folder: String) -> HTTPValidators? {
            guard let entry = files[item.name], entry.url == item.url, !entry.validators.isEmpty,
                item.sha256 == nil || entry.sha256 == item.sha256,
                FileManager.default.fileExists(atPath: folder + "/" + item.name)
            else { return nil }
            return entry.validators
        }
    }
#endif
