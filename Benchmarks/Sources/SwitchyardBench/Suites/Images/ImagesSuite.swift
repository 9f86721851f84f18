#if Images
    import CVipsFixtures
    import Foundation
    import Switchyard
    import SwitchyardImages

    /// `images`: `switchyard thumbnails` against vipsthumbnail, ImageMagick and Pillow on a generated corpus, 2
    /// images at a time, in the same run; the pipeline's disk cache; the main actor's tick while it runs.
    ///
    /// Goals (issue: images): ≥ 1.0× vipsthumbnail's images/s and ≥ 4× ImageMagick's, peak RSS ≤ 256 MB; a second
    /// run served from the disk cache ≥ 50× faster than the first; a 60 Hz main-actor tick late by ≤ 4 ms at the
    /// 99th percentile while the pipeline runs at full speed.
    struct ImagesSuite: BenchmarkSuite {
        let name = "images"
        let summary = "thumbnails vs vipsthumbnail, ImageMagick and Pillow; disk cache; main-actor responsiveness"

        func run(runner: Runner, report: Report) {
            let root = NSTemporaryDirectory() + "switchyard-bench-images-\(getpid())"
            defer { try? FileManager.default.removeItem(atPath: root) }
            do {
                let corpus = try ImageCorpus.make(in: root + "/corpus", small: runner.scale < 1)
                report.note(
                    "images: \(corpus.files.count) sources (JPEG with EXIF orientations, PNG with alpha), 256 px")
                compareTools(corpus, root: root, runner: runner, report: report)
                try diskCache(corpus, root: root, report: report)
                responsiveness(corpus, report: report)
            } catch {
                report.note("images suite failed: \(error)")
            }
        }

        // MARK: against the anchors

        private func compareTools(_ corpus: ImageCorpus, root: String, runner: Runner, report: Report) {
            let switchyard = ChildProcess.builtBeside("switchyard")
            let list = root + "/files.txt"
            try? corpus.files.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
            let pillow = root + "/pillow.py"
            try? Self.pillowScript.write(toFile: pillow, atomically: true, encoding: .utf8)
            let tools: [(name: String, arguments: [String])] = [
                (
                    "vipsthumbnail, xargs -P 2 (anchor)",
                    [
                        "/bin/sh", "-c",
                        "xargs -P 2 -n 8 /usr/bin/vipsthumbnail -s 256 -o 'OUT/%s.jpg[Q=80]' < \(list)",
                    ]
                ),
                (
                    "ImageMagick mogrify -thumbnail, xargs -P 2",
                    [
                        "/bin/sh", "-c",
                        "xargs -P 2 -n 8 /usr/bin/mogrify -path OUT -format jpg -auto-orient -thumbnail 256x256 -quality 80 < \(list)",
                    ]
                ),
                ("Pillow thumbnail with draft, 2 processes", ["/usr/bin/python3", pillow, list, "OUT"]),
                (
                    "switchyard thumbnails --parallel 2",
                    [
                        switchyard, "thumbnails", "-i", list, "--size", "256", "--format", "jpeg", "--quality", "80",
                        "--parallel", "2", "--out", "OUT",
                    ]
                ),
            ]
            var results = [[(seconds: Double, kilobytes: Int)]](repeating: [], count: tools.count)
            for round in 0..<(runner.scale < 1 ? 1 : 2) {
                for (index, tool) in tools.enumerated() {
                    let out = root + "/out-\(index)-\(round)"
                    try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                    let arguments = tool.arguments.map { $0.replacingOccurrences(of: "OUT", with: out) }
                    if let measured = TimedProcess.run(arguments, environment: ["MALLOC_ARENA_MAX": "2"]) {
                        results[index].append(measured)
                    }
                    try? FileManager.default.removeItem(atPath: out)
                }
            }
            guard results.allSatisfy({ !$0.isEmpty }) else {
                report.note(
                    "images: a tool did not run (Scripts/install-system-packages.sh installs them); compared: "
                        + zip(tools, results).map { "\($0.0.name): \($0.1.isEmpty ? "failed" : "ran")" }.joined(
                            separator: ", "))
                return
            }
            let count = Double(corpus.files.count)
            let perSecond = results.map { count / Clockwork.median($0.map(\.seconds)) }
            for (index, tool) in tools.enumerated() {
                let seconds = Clockwork.median(results[index].map(\.seconds))
                let peak = results[index].map(\.kilobytes).max()!
                var measurement = Measurement(
                    suite: name, name: "thumbnails/\(tool.name)", nanosecondsPerOperation: seconds / count * 1e9)
                measurement.peakMemoryBytes = peak * 1024
                measurement.extra = [("images_per_s", perSecond[index]), ("peak_rss_mb", Double(peak) / 1024)]
                if index > 0 { measurement.anchor = ("vipsthumbnail", 1e9 / perSecond[0]) }
                if index == 3 {
                    let met = perSecond[3] >= perSecond[0] && perSecond[3] >= 4 * perSecond[1] && peak <= 256 * 1024
                    measurement.goal = (
                        ">= 1.0x vipsthumbnail's and >= 4x ImageMagick's images/s, peak RSS <= 256 MB", met
                    )
                    report.note(
                        String(
                            format: "images: ours %.2fx vipsthumbnail's images/s, %.2fx ImageMagick's, %.2fx Pillow's",
                            perSecond[3] / perSecond[0], perSecond[3] / perSecond[1], perSecond[3] / perSecond[2]))
                }
                report.record(measurement)
            }
            let decoding = decodingFloor(
                corpus, imageMagickSeconds: Clockwork.median(results[1].map(\.seconds)), report: report)
            let fastest = perSecond[0..<3].indices.max { perSecond[$0] < perSecond[$1] }!
            var peers = Measurement(
                suite: name, name: "thumbnails/switchyard thumbnails vs the fastest peer and decoding alone",
                nanosecondsPerOperation: 1e9 / perSecond[3])
            peers.anchor = (tools[fastest].name, 1e9 / perSecond[fastest])
            peers.extra = [("decoding_ceiling_ratio", decoding.map { perSecond[3] / $0 } ?? 0)]
            peers.goal = (
                ">= 1.0x the fastest peer's images/s and >= 0.85x decoding alone",
                perSecond[3] >= perSecond[fastest] && decoding.map { perSecond[3] >= 0.85 * $0 } == true
            )
            report.record(peers)
        }

        /// How fast the decoders alone go, 2 images at a time in this process, and so the highest ImageMagick ratio
        /// any thumbnailer built on them (libjpeg with shrink-on-load, libpng's zlib) can reach on this corpus.
        /// Returns the images/s of decoding alone, or nil if it failed.
        @discardableResult
        private func decodingFloor(_ corpus: ImageCorpus, imageMagickSeconds: Double, report: Report) -> Double? {
            let rounds = (0..<2).map { _ in
                let started = Clockwork.now()
                let failures = Isolated(0)
                DispatchQueue.concurrentPerform(iterations: 2) { half in
                    for (index, file) in corpus.files.enumerated() where index % 2 == half {
                        if syf_decode(file, 256) != 0 { failures.withValueBlocking { $0 += 1 } }
                    }
                }
                return failures.withValueBlocking { $0 } == 0 ? Double(Clockwork.now() - started) / 1e9 : nil
            }
            let seconds = rounds.compactMap { $0 }
            guard seconds.count == rounds.count else {
                report.note("images: the decoding floor failed")
                return nil
            }
            let floor = Clockwork.median(seconds)
            let count = Double(corpus.files.count)
            var measurement = Measurement(
                suite: name, name: "thumbnails/decoding alone (libvips' loaders, shrink-on-load), 2 threads",
                nanosecondsPerOperation: floor / count * 1e9)
            measurement.extra = [
                ("images_per_s", count / floor), ("imagemagick_ratio_ceiling", imageMagickSeconds / floor),
            ]
            report.record(measurement)
            report.note(
                String(
                    format:
                        "images: decoding alone is %.2fx ImageMagick's images/s, the ceiling of any thumbnailer on these decoders",
                    imageMagickSeconds / floor))
            return count / floor
        }

        static let pillowScript = """
            import os, sys
            from multiprocessing import Pool
            from PIL import Image, ImageOps

            def thumbnail(path):
                with Image.open(path) as image:
                    image.draft("RGB", (256, 256))
                    image = ImageOps.exif_transpose(image)
                    image.thumbnail((256, 256))
                    name = os.path.splitext(os.path.basename(path))[0]
                    image.convert("RGB").save(os.path.join(sys.argv[2], name + ".jpg"), quality=80)

            if __name__ == "__main__":
                paths = open(sys.argv[1]).read().split()
                with Pool(2) as pool:
                    pool.map(thumbnail, paths, chunksize=4)

            """

        // MARK: the disk cache

        private func diskCache(_ corpus: ImageCorpus, root: String, report: Report) throws {
            let options = ThumbnailOptions(width: 256, format: .jpeg)
            func run() throws -> Double {
                let pipeline = ImagePipeline(
                    configuration: .init(
                        name: "bench-disk", width: 2, memoryCacheCost: 0,
                        diskCache: ThumbnailDiskCache(folder: root + "/disk-cache", byteLimit: 1 << 30)))
                let started = Clockwork.now()
                try blockingRun {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for file in corpus.files {
                            group.addTask { _ = try await pipeline.thumbnail(of: .file(file), options) }
                        }
                        try await group.waitForAll()
                    }
                }
                return Double(Clockwork.now() - started)
            }
            let first = try run()
            let second = try run()
            let count = Double(corpus.files.count)
            var measurement = Measurement(
                suite: name, name: "disk cache/second run", nanosecondsPerOperation: second / count)
            measurement.anchor = ("first run", first / count)
            measurement.extra = [("times_faster", first / second)]
            measurement.goal = (">= 50x faster than the first run", first >= 50 * second)
            report.record(measurement)
        }

        // MARK: responsiveness

        private func responsiveness(_ corpus: ImageCorpus, report: Report) {
            let list = corpus.folder + "/../ticks.txt"
            try? corpus.files.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
            let idle = ChildProcess.probe("images-ticks:0:\(list)")
            let busy = ChildProcess.probe("images-ticks:1:\(list)")
            guard let idle, let busy else { return report.note("images: the tick probe failed") }
            var quiet = Measurement(
                suite: name, name: "main-actor tick p99 lateness, idle", nanosecondsPerOperation: idle * 1e6)
            quiet.extra = [("p99_ms", idle)]
            report.record(quiet)
            var loaded = Measurement(
                suite: name, name: "main-actor tick p99 lateness, pipeline at full speed",
                nanosecondsPerOperation: busy * 1e6)
            loaded.extra = [("p99_ms", busy)]
            loaded.anchor = ("idle", idle * 1e6)
            loaded.goal = ("<= 4 ms", busy <= 4)
            report.record(loaded)
        }
    }
#endif
