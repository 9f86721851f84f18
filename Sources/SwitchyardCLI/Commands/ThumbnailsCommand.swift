#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard

    #if Images
        import SwitchyardImages
    #endif

    /// `switchyard thumbnails SOURCE… --size N --out DIR`: thumbnails of many images at once with libvips, with live
    /// progress; outputs that are up to date are skipped; `--html` writes a gallery.
    ///
    /// Exit status: 0 when every source gave a thumbnail (or had one up to date), 1 when any failed (each named with
    /// its reason), 2 for a bad source or list line, a build without image support, or no usable libvips (the message
    /// says how to install it), 64 for a bad option (usage), 130 when interrupted (no partial output file is left: each
    /// is written to a temporary file and renamed).
    struct ThumbnailsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "thumbnails",
            abstract: "Make thumbnails of image files, folders and URLs, in parallel, with libvips.",
            discussion: """
                Sources are image files, folders (searched recursively for .jpg, .png, .webp, .gif, .tif, .avif, \
                .heic, .jxl files; the summary names the other files, hidden ones aside), http(s) URLs, and list files \
                (-i: one per line, # comments). Each thumbnail is written to OUT with its source's name (a folder's \
                structure below it kept) and the format's extension: a.jpg → a.webp. Sources that would share an output \
                name (in any case) are told apart by their names, not by the order their renders finish: when their \
                extensions differ, each output keeps its source's (a.jpg → a.jpg.webp, a.png → a.png.webp); those \
                that still share one are numbered in the order the sources are given (x/a.jpg → a.webp, y/a.jpg → \
                a-2.webp). The summary then lists each of them as SOURCE → OUTPUT. \
                A file's thumbnail is up to date, and skipped, when OUT/.switchyard-thumbnails.json \
                records the same source size, modification time and options and the output exists; a URL's, when \
                its server answers a conditional request with 304 Not Modified (or, sending no validator, the same \
                bytes). Decoding shrinks on load (a JPEG is decoded at 1/2, 1/4 or 1/8 scale when that \
                is enough), applies the EXIF orientation, converts to sRGB and drops metadata. Sources over \
                1 gigapixel or 512 MiB are refused before decoding.
                """)

        @Argument(help: "Image files, folders, or http(s) URLs.")
        var sources: [String] = []

        @Option(
            name: [.customShort("i"), .customLong("input")],
            help: "A file of sources (paths or URLs), one per line (# comments).")
        var input: String?

        @Option(help: "The thumbnails' box, in pixels (width and height).")
        var size = 256

        @Option(help: "How an image fits the box: inside (aspect kept), cover (cropped to fill), exact (stretched).")
        var fit = "inside"

        @Option(
            help:
                "The output format: jpeg, png, webp, avif or heic (the last two when the installed libvips writes them)."
        )
        var format = "webp"

        @Option(help: "Encoder quality, 1–100 (jpeg, webp, avif, heic).")
        var quality = 80

        @Option(help: "The folder to write to (created if missing).")
        var out: String

        @Option(help: "The most images processed at once; by default the number of processors.")
        var parallel: Int?

        @Flag(help: "Also write OUT/index.html, a gallery of the thumbnails.")
        var html = false

        @OptionGroup var dashboard: DashboardOptions

        func validate() throws {
            guard (1...100_000).contains(size) else { throw ValidationError("--size must be 1–100000, got \(size)") }
            guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1–100, got \(quality)") }
            guard ["inside", "cover", "exact"].contains(fit) else {
                throw ValidationError("--fit must be inside, cover or exact, got \"\(fit)\"")
            }
            guard ["jpeg", "jpg", "png", "webp", "avif", "heic"].contains(format) else {
                throw ValidationError("--format must be jpeg, png, webp, avif or heic, got \"\(format)\"")
            }
            if let parallel, parallel < 1 { throw ValidationError("--parallel must be at least 1, got \(parallel)") }
            guard !sources.isEmpty || input != nil else { throw ValidationError("name sources, or a list with -i") }
        }

        func run() async throws {
            #if Images
                try await ThumbnailsRun(command: self).run()
            #else
                FileHandle.standardError.write(
                    Data(
                        """
                        error: this switchyard was built without image support (the Images trait). Install libvips \
                        (Debian: Scripts/install-system-packages.sh, or apt-get install libvips-dev), then build with \
                        the default traits: swift build -c release (or --traits CLI,Images).

                        """.utf8))
                throw ExitCode(2)
            #endif
        }
    }
#endif
