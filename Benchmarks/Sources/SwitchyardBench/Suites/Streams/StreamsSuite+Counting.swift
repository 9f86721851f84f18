import Foundation
import Switchyard

extension StreamsSuite {
    /// Counting only: `switchyard lines FILE` (the whole command, a child process, as `wc -l` is) and
    /// `Lines.countLinesBlocking()` in this process, against `wc -l` on the same 512 MiB file of short lines (the
    /// most lines per byte), read from the page cache. Goal: the command within 2× `wc -l`'s time.
    func counting(_ files: StreamFiles, _ runner: Runner, _ report: Report) throws {
        let size = Int(Double(512 << 20) * runner.scale)
        let (path, count) = try files.lines(bytes: size, longest: 20, name: "count.txt")
        let repetitions = runner.scale < 1 ? 1 : 5
        report.note("counting: \(size >> 20) MiB, \(count) lines of 0-20 bytes; median of \(repetitions)")
        _ = LineAnchors.wc(path)  // into the page cache
        let wc = time(repetitions, expect: count) { LineAnchors.wc(path) ?? -1 }
        let anchor = ("wc -l", wc.perItem)
        record(report, "count/wc -l (subprocess, \(size >> 20) MiB)", wc)
        let library = time(repetitions, expect: count) {
            (try? Lines(.file(path), options: Self.lineOptions).countLinesBlocking())?.terminatedLines ?? -1
        }
        record(report, "count/countLinesBlocking", library, anchor: anchor)
        guard let command = LineAnchors.switchyardExecutable else {
            report.note("count: no switchyard executable beside the benchmark; build the root package's product")
            return
        }
        let ours = time(repetitions, expect: count) { LineAnchors.switchyardLines(command, path) ?? -1 }
        record(
            report, "count/switchyard lines (subprocess)", ours, anchor: anchor,
            goal: "<= 2x wc -l's time", met: ours.seconds <= 2 * wc.seconds)
    }
}
