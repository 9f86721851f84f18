#if Images
    import SwitchyardTesting
    import Testing

    @testable import SwitchyardImages

    /// The disk cache's bookkeeping alone, without files or threads: the folder is a dictionary the tests keep.
    @Suite("DiskCacheIndex: the scan's merge in slices, removeAll in O(1), a read's miss leaves no trace")
    struct DiskCacheIndexTests {
        typealias Entry = (name: String, size: Int)

        @Test("merged in slices of any length, the scan's list ranks, counts and evicts as one merge of it all would")
        func slicesMatchOneMerge() {
            var random = SeededRandomNumberGenerator.forTest("DiskCacheIndexTests.slicesMatchOneMerge")
            // Many small folders, every slice length; a few longer than one of the cache's slices.
            let rounds = Array(repeating: 0...40, count: 300) + Array(repeating: 1_100...2_600, count: 3)
            for entries in rounds {
                let scanned = Self.scannedList(Int.random(in: entries, using: &random), using: &random)
                let byteLimit = Int.random(in: 0...(3 * scanned.count + 20), using: &random)
                // What reads and writes do while the scan lists the folder, the same before each merge below.
                var model = IndexModel(byteLimit: byteLimit)
                var folder = Self.folder(scanned)
                let before = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                    IndexStep.random(model: model, folder: folder, using: &random)
                        .applied(to: &model, &folder)
                }
                for name in model.merge(scanned[...]) { folder[name] = nil }  // one merge of the whole list
                #expect(Set(folder.keys) == Set(model.list.map { $0.name }))
                for length in [1, 2, 3, 7, 64, DiskCacheIndex.mergeSliceLength, Swift.max(1, scanned.count)] {
                    var index = DiskCacheIndex(byteLimit: byteLimit)
                    var files = Self.folder(scanned)
                    for operation in before { operation.apply(to: &index, &files) }
                    Self.merge(scanned, inSlicesOf: length, into: &index, &files)
                    #expect(index.isScanned)
                    #expect(index.namesByRecency == model.list.map { $0.name }, "slices of \(length)")
                    #expect(index.totalBytes == model.totalBytes, "slices of \(length)")
                    #expect(Set(files.keys) == Set(index.namesByRecency), "slices of \(length): files as counted")
                }
            }
        }

        @Test("reads and writes between slices rank above every entry the scan found; eviction takes the oldest held")
        func readsAndWritesBetweenSlices() {
            var random = SeededRandomNumberGenerator.forTest("DiskCacheIndexTests.readsAndWritesBetweenSlices")
            for _ in 0..<400 {
                let scanned = Self.scannedList(Int.random(in: 0...60, using: &random), using: &random)
                let byteLimit = Int.random(in: 0...(2 * scanned.count + 20), using: &random)
                let length = [1, 2, 3, 7].randomElement(using: &random)!
                var (index, model) = (DiskCacheIndex(byteLimit: byteLimit), IndexModel(byteLimit: byteLimit))
                var (files, modelFiles) = (Self.folder(scanned), Self.folder(scanned))
                func interleave(_ count: Int) {
                    for _ in 0..<count {
                        let operation = IndexStep.random(model: model, folder: modelFiles, using: &random)
                        operation.apply(to: &index, &files)
                        _ = operation.applied(to: &model, &modelFiles)
                    }
                }
                interleave(Int.random(in: 0...10, using: &random))
                var start = 0
                repeat {
                    let end = Swift.min(start + length, scanned.count)
                    let isLast = end == scanned.count
                    for name in index.mergeScan(scanned[start..<end], isLast: isLast).namesToRemove {
                        files[name] = nil
                    }
                    for name in model.merge(scanned[start..<end], isLast: isLast) { modelFiles[name] = nil }
                    start = end
                    if !isLast { interleave(Int.random(in: 0...3, using: &random)) }
                } while start < scanned.count
                #expect(index.isScanned && index.removedDuringScanCount == 0)
                #expect(index.namesByRecency == model.list.map { $0.name })
                #expect(index.totalBytes == model.totalBytes && index.totalBytes <= byteLimit)
                #expect(Set(files.keys) == Set(index.namesByRecency), "files as counted")
            }
        }

        @Test("an eviction between slices takes the oldest entry merged; later slices rank above it, and evict on")
        func evictionAcrossSlices() {
            let scanned: [Entry] = ["a", "b", "c", "d", "e"].map { (name: $0, size: 1) }
            var index = DiskCacheIndex(byteLimit: 3)
            let first = index.mergeScan(scanned[0..<2], isLast: false)
            #expect(first.namesToRemove.isEmpty && index.namesByRecency == ["a", "b"])
            let written = index.record("x", size: 1)
            #expect(written.isEmpty && index.namesByRecency == ["a", "b", "x"])
            let second = index.mergeScan(scanned[2..<4], isLast: false)
            #expect(second.namesToRemove == ["a", "b"] && index.namesByRecency == ["c", "d", "x"])
            let read = index.record("c", size: 1)  // used: ranks above what the scan found, merged or not
            #expect(read.isEmpty && index.namesByRecency == ["d", "x", "c"])
            let last = index.mergeScan(scanned[4..<5], isLast: true)
            #expect(last.namesToRemove == ["d"] && index.namesByRecency == ["e", "x", "c"] && index.isScanned)
            // As one merge after the write and the read would leave it.
            var whole = DiskCacheIndex(byteLimit: 3)
            _ = whole.record("x", size: 1)
            _ = whole.record("c", size: 1)
            let merged = whole.mergeScan(scanned[...], isLast: true)
            #expect(Set(merged.namesToRemove) == ["a", "b", "d"] && whole.namesByRecency == index.namesByRecency)
        }

        @Test("removeAll hands the whole index over; during the merge, the slices still to come go too")
        func removeAllDuringMerge() {
            let scanned: [Entry] = ["a", "b", "c", "d", "e"].map { (name: $0, size: 1) }
            var index = DiskCacheIndex(byteLimit: 100)
            _ = index.record("w", size: 1)
            _ = index.mergeScan(scanned[0..<2], isLast: false)
            let removed = index.removeAll()
            #expect(Set(removed.names) == ["a", "b", "w"])
            #expect(index.count == 0 && index.totalBytes == 0 && index.namesByRecency.isEmpty)
            _ = index.record("c", size: 1)  // written again since: kept
            let rest = index.mergeScan(scanned[2..<5], isLast: true)
            #expect(Set(rest.namesToRemove) == ["d", "e"] && index.namesByRecency == ["c"] && index.isScanned)
            // Once scanned, the same, and the index goes on.
            _ = index.record("f", size: 2)
            let removedOnceScanned = index.removeAll()
            #expect(Set(removedOnceScanned.names) == ["c", "f"])
            let evicted = index.record("g", size: 100)
            #expect(evicted.isEmpty && index.namesByRecency == ["g"] && index.totalBytes == 100)
        }

        @Test("during the scan, 10,000 misses record nothing; a removal of a counted entry or of a torn file does")
        func missesLeaveNoTrace() {
            var index = DiskCacheIndex(byteLimit: 1_000)
            for number in 0..<10_000 { index.remove("missing\(number)") }
            #expect(index.removedDuringScanCount == 0)
            _ = index.record("a", size: 1)
            index.remove("a")  // counted, then its file found gone: the merge leaves it out
            index.remove("b", removingFile: true)  // torn: the cache removes its file
            index.remove("c")  // a miss of a name not counted: nothing removed (the merge counts the scan's "c")
            #expect(index.removedDuringScanCount == 2)
            let scanned: [Entry] = ["a", "b", "c", "d"].map { (name: $0, size: 1) }
            let merged = index.mergeScan(scanned[...], isLast: true)
            #expect(merged.namesToRemove.isEmpty && index.namesByRecency == ["c", "d"])
            #expect(index.removedDuringScanCount == 0)
        }

        // MARK: helpers

        /// `count` entries named `s0`, `s1`… (oldest first), of 1 to 9 bytes.
        static func scannedList(_ count: Int, using random: inout SeededRandomNumberGenerator) -> [Entry] {
            (0..<count).map { (name: "s\($0)", size: Int.random(in: 1...9, using: &random)) }
        }

        /// The folder's files (name → size) before the scan: those it lists.
        static func folder(_ scanned: [Entry]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: scanned.map { ($0.name, $0.size) })
        }

        /// Merges `scanned` into `index` as the cache does, `length` entries per slice, oldest first; removes the
        /// names each slice returns from `files`.
        static func merge(
            _ scanned: [Entry], inSlicesOf length: Int, into index: inout DiskCacheIndex, _ files: inout [String: Int]
        ) {
            var start = 0
            repeat {
                let end = Swift.min(start + length, scanned.count)
                for name in index.mergeScan(scanned[start..<end], isLast: end == scanned.count).namesToRemove {
                    files[name] = nil
                }
                start = end
            } while start < scanned.count
        }
    }

    /// What the cache does to its index on a read or a write, and to the folder.
    private enum IndexStep {
        /// A write, or a read of an entry whose file is there: counted as used, with the file's size.
        case record(String, size: Int)
        /// A read that found no file (`name` counted: the file went since; or never there).
        case miss(String)
        /// A read that found a torn file, which the cache removes.
        case torn(String)

        /// A random operation that fits the folder and what `model` counts.
        static func random(model: IndexModel, folder: [String: Int], using random: inout SeededRandomNumberGenerator)
            -> IndexStep
        {
            let fresh = "w\(random.next() % 1_000_000)"
            let file = folder.randomElement(using: &random)
            let counted = model.list.randomElement(using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: return .record(fresh, size: Int.random(in: 1...12, using: &random))
            case 1 where file != nil: return .record(file!.key, size: file!.value)  // a read
            case 2 where counted != nil: return .miss(counted!.name)
            case 3 where file != nil: return .torn(file!.key)
            default: return .miss(fresh)
            }
        }

        func apply(to index: inout DiskCacheIndex, _ files: inout [String: Int]) {
            switch self {
            case .record(let name, let size):
                files[name] = size
                for evicted in index.record(name, size: size) { files[evicted] = nil }
            case .miss(let name):
                files[name] = nil
                index.remove(name)
            case .torn(let name):
                files[name] = nil
                index.remove(name, removingFile: true)
            }
        }

        /// Applies the operation to `model` and `files`; returns it.
        func applied(to model: inout IndexModel, _ files: inout [String: Int]) -> IndexStep {
            switch self {
            case .record(let name, let size):
                files[name] = size
                for evicted in model.record(name, size: size) { files[evicted] = nil }
            case .miss(let name):
                files[name] = nil
                model.remove(name, removingFile: false)
            case .torn(let name):
                files[name] = nil
                model.remove(name, removingFile: true)
            }
            return self
        }
    }

    /// ``DiskCacheIndex``'s contract on an array, least recently used first: the oldest `mergedCount` entries are
    /// the scan's, merged and not used since; a slice goes above them. One merge of the whole list puts it below
    /// everything.
    private struct IndexModel {
        let byteLimit: Int
        private(set) var list: [(name: String, size: Int)] = []
        private(set) var totalBytes = 0
        private var mergedCount = 0
        /// The names the merge leaves out: counted, then removed or evicted, or a torn file removed.
        private var removed: Set<String> = []

        init(byteLimit: Int) { self.byteLimit = byteLimit }

        mutating func record(_ name: String, size: Int) -> [String] {
            take(name)
            list.append((name, size))
            totalBytes += size
            return evict()
        }

        mutating func remove(_ name: String, removingFile: Bool) {
            if take(name) || removingFile { removed.insert(name) }
        }

        mutating func merge(_ slice: ArraySlice<(name: String, size: Int)>, isLast: Bool = true) -> [String] {
            let counted = Set(list.map { $0.name })
            let merged = slice.filter { !counted.contains($0.name) && !removed.contains($0.name) }
            list.insert(contentsOf: merged, at: mergedCount)
            mergedCount += merged.count
            totalBytes += merged.reduce(0) { $0 + $1.size }
            let evicted = evict()
            if isLast { (mergedCount, removed) = (0, []) }
            return evicted
        }

        /// Takes `name` out of the list; whether it was there.
        @discardableResult
        private mutating func take(_ name: String) -> Bool {
            guard let position = list.firstIndex(where: { $0.name == name }) else { return false }
            totalBytes -= list.remove(at: position).size
            if position < mergedCount { mergedCount -= 1 }
            return true
        }

        private mutating func evict() -> [String] {
            var count = 0
            while totalBytes > byteLimit, count < list.count {
                totalBytes -= list[count].size
                if count >= mergedCount { removed.insert(list[count].name) }
                count += 1
            }
            let evicted = list.prefix(count).map { $0.name }
            list.removeFirst(count)
            mergedCount = Swift.max(0, mergedCount - count)
            return evicted
        }
    }
#endif
