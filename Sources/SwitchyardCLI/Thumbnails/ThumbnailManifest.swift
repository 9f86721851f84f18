#if CLI && Images
    import Foundation
    import Switchyard
    import SwitchyardImages

    /// `OUT/.switchyard-thumbnails.json`: for each output made from a file, the source's size, modification time
    /// and the options, so that a later run skips the outputs that are up to date.
    struct ThumbnailManifest: Codable, Sendable {
        /// Each output's source key (``key(_:_:)``).
        var outputs: [String: String] = [:]
        /// The version each URL source's output was made from, by output (optional: manifests of earlier versions
        /// have none).
        var versions: [String: ImageVersion]? = [:]

        static let fileName = ".switchyard-thumbnails.json"

        static func load(from folder: String) -> ThumbnailManifest {
            guard let data = FileManager.default.contents(atPath: folder + "/" + fileName),
                let manifest = try? JSONDecoder().decode(ThumbnailManifest.self, from: data)
            else { return ThumbnailManifest() }
            return manifest
        }

        func save(to folder: String) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try Self.writeAtomically(Array(try encoder.encode(self)), to: folder + "/" + Self.fileName)
        }

        /// What identifies a source's thumbnail: a file's path, size and modification time, or a URL (whose
        /// version is kept in ``versions`` and checked with the server), and the options; nil for a file that
        /// cannot be read.
        static func key(_ source: ImageSource, _ options: ThumbnailOptions) -> String? {
            if case .url(let url) = source { return "url \(url) \(options)" }
            guard case .file(let path) = source,
                let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
            else { return nil }
            return "\(path) \(size) \(modified.timeIntervalSince1970) \(options)"
        }

        /// Whether a file source's output, at `path`, is up to date: recorded under `key` (the source's
        /// ``key(_:_:)`` now). A URL source's is asked of its server instead (``version(of:key:path:)``).
        func isUpToDate(_ job: ThumbnailJob, key: String?, path: String) -> Bool {
            if case .url = job.source { return false }
            guard let key, outputs[job.output] == key else { return false }
            return FileManager.default.fileExists(atPath: path)
        }

        /// The version a URL source's output, at `path`, was made from, if it is there and recorded under `key`.
        func version(of job: ThumbnailJob, key: String?, path: String) -> ImageVersion? {
            guard case .url = job.source, let key, outputs[job.output] == key,
                let version = versions?[job.output], FileManager.default.fileExists(atPath: path)
            else { return nil }
            return version
        }

        /// Writes `bytes` to a temporary file beside `path`, then renames it: `path` holds the old file or the
        /// whole new one, never a part, and its data reaches the disk (`fsync`) before the rename. Blocking: call it
        /// on a `BlockingExecutor`.
        static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ImageError) {
            let folder = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            do throws(FileWriteError) {
                try FileWriting.replaceAtomically(path, with: bytes)
            } catch {
                throw ImageError(source: path, reason: .unwritable("\(error.step) failed: \(error.reason)"))
            }
        }
    }

    /// `OUT/index.html`: every thumbnail made or up to date, with its source's name.
    enum ThumbnailGallery {
        static func write(_ jobs: [ThumbnailJob], _ outcomes: [ThumbnailsRun.Outcome], to folder: String) throws {
            var figures: [String] = []
            for (job, outcome) in zip(jobs, outcomes) {
                switch outcome {
                case .made, .upToDate:
                    figures.append(
                        "<figure><img src=\"\(escape(Self.relativeURL(job.output)))\" loading=\"lazy\" alt=\"\(escape(job.name))\">"
                            + "<figcaption>\(escape(job.name))</figcaption></figure>")
                default: continue
                }
            }
            let page = """
                <!doctype html>
                <html><head><meta charset="utf-8"><title>Thumbnails</title>
                <style>body{font-family:sans-serif;display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;max-width:280px}\
                figcaption{font-size:12px;overflow-wrap:anywhere}</style></head>
                <body>
                \(figures.joined(separator: "\n"))
                </body></html>

                """
            try ThumbnailManifest.writeAtomically(Array(page.utf8), to: folder + "/index.html")
        }

        /// A relative path as a URL: each component percent-encoded (a name with `#`, `?` or `%` stays a path).
        static func relativeURL(_ path: String) -> String {
            path.split(separator: "/", omittingEmptySubsequences: false).map {
                String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
                    ?? String($0)
            }.joined(separator: "/")
        }

        private static func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
    }
#endif
