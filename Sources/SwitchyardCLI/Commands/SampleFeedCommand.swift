#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardSampleFeeds
    import SwitchyardTransit

    /// `switchyard sample-feed --profile SIZE --out PATH`: writes a deterministic synthetic GTFS feed (seeded; the
    /// same profile and seed give the same bytes everywhere) — a folder, or a zip if PATH ends in `.zip`.
    struct SampleFeedCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sample-feed",
            abstract: "Write a deterministic synthetic GTFS feed (a folder, or a .zip).")

        @Option(
            help:
                "The size: \(SampleFeedProfile.all.map(\.name).joined(separator: ", ")) (vbb is shaped like Berlin's VBB feed, about 6 M stop_times)."
        )
        var profile: String

        @Option(help: "Where to write: a folder, or a path ending in .zip.")
        var out: String

        @Option(help: "The random seed (the default gives the profile's standard feed).")
        var seed: UInt64?

        func validate() throws {
            guard SampleFeedProfile.named(profile) != nil else {
                throw ValidationError(
                    "--profile: no profile '\(profile)' (profiles: \(SampleFeedProfile.all.map(\.name).joined(separator: ", ")))"
                )
            }
        }

        func run() async throws {
            var chosen = SampleFeedProfile.named(profile)!
            if let seed { chosen.seed = seed }
            let started = ContinuousClock.now
            let out = out
            let statistics: SampleFeedStatistics
            do {
                statistics = try await BlockingExecutor.shared.run { [chosen] in
                    try SampleFeedFiles.write(chosen, to: out)
                }
            } catch let error as ImportError {
                FileHandle.standardError.write(Data("error: \(TerminalText.visible(error.message))\n".utf8))
                throw ExitCode(1)
            }
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            for (name, records) in statistics.records.sorted(by: { $0.key < $1.key }) {
                print("\(name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(records) records")
            }
            print(
                TerminalText.visible(
                    "wrote \(out): \(statistics.bytes / 1_000_000) MB of CSV in \(formatted(seconds, decimals: 1)) s"))
        }

        /// The sample feed of `profile` in the temporary folder, generated once and reused while its marker file says
        /// it is the same profile, seed and generator output version (the marker is a hidden file, which feeds ignore).
        ///
        /// Every file-system step runs on ``BlockingExecutor/shared``, off the cooperative pool.
        static func cachedSample(_ profile: SampleFeedProfile, quiet: Bool) async throws -> String {
            let folder = NSTemporaryDirectory() + "switchyard-sample-\(profile.name)-\(profile.seed)"
            let marker = folder + "/.switchyard-sample"
            let expected = "generator \(SampleFeedGenerator.outputVersion)\n\(profile)\n"
            let cached = try await BlockingExecutor.shared.run {
                (try? String(contentsOfFile: marker, encoding: .utf8)) == expected
            }
            if cached { return folder }
            if !quiet {
                FileHandle.standardError.write(
                    Data("generating the \(profile.name) sample feed in \(TerminalText.visible(folder)) (once)…\n".utf8)
                )
            }
            do {
                try await BlockingExecutor.shared.run {
                    try? FileManager.default.removeItem(atPath: folder)
                    _ = try SampleFeedFiles.write(profile, to: folder)
                    try expected.write(toFile: marker, atomically: true, encoding: .utf8)
                }
            } catch let error as ImportError {
                FileHandle.standardError.write(Data("error: \(TerminalText.visible(error.message))\n".utf8))
                throw ExitCode(1)
            }
            return folder
        }
    }
#endif
