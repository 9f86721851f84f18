import Testing

@testable import Switchyard

private typealias Formats = MemoryPressureFormats

@Suite("Memory-pressure file formats")
struct MemoryPressureFormatsTests {
    // MARK: cgroup v2

    @Test("memory.events: high, max and oom counters")
    func memoryEvents() {
        let parsed = Formats.parseMemoryEvents("low 0\nhigh 12\nmax 3\noom 0\noom_kill 0\n", file: "memory.events")
        #expect(parsed.value == Formats.EventCounts(high: 12, max: 3, oom: 0))
        #expect(parsed.problems.isEmpty)
    }

    @Test("memory.events: a malformed line is reported with file and line number and its counter skipped")
    func memoryEventsMalformed() {
        let parsed = Formats.parseMemoryEvents("low 0\nhigh twelve\nmax 3\noom\n", file: "/cg/memory.events")
        #expect(parsed.value == Formats.EventCounts(high: nil, max: 3, oom: nil))
        #expect(
            parsed.problems == [
                "/cg/memory.events line 2: expected \"<key> <number>\", got \"high twelve\"",
                "/cg/memory.events line 4: expected \"<key> <number>\", got \"oom\"",
            ])
    }

    @Test("memory.pressure: some and full avg10")
    func pressure() {
        let text =
            "some avg10=1.23 avg60=0.50 avg300=0.10 total=12345\n"
            + "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
        let parsed = Formats.parsePressure(text, file: "memory.pressure")
        #expect(parsed.value == Formats.StallAverages(some: 1.23, full: 0))
        #expect(parsed.problems.isEmpty)
    }

    @Test("memory.pressure: a bad avg10 is reported and skipped; unknown line kinds are ignored")
    func pressureMalformed() {
        let text = "some avg10=abc avg60=0.50\nfull avg10=12.5 avg60=0.00\nlater avg10=zz\nsome avg60=1.0\n"
        let parsed = Formats.parsePressure(text, file: "memory.pressure")
        #expect(parsed.value == Formats.StallAverages(some: nil, full: 12.5))
        #expect(parsed.problems.count == 2)
        #expect(parsed.problems.first?.hasPrefix("memory.pressure line 1: ") == true)
        #expect(parsed.problems.last?.hasPrefix("memory.pressure line 4: ") == true)
    }

    @Test("memory.max: max, a number, and malformed contents")
    func memoryMax() {
        #expect(Formats.parseMemoryMax("max\n", file: "memory.max").value == .unlimited)
        #expect(Formats.parseMemoryMax("1073741824\n", file: "memory.max").value == .bytes(1_073_741_824))
        let bad = Formats.parseMemoryMax("lots\n", file: "memory.max")
        #expect(bad.value == nil)
        #expect(bad.problems == ["memory.max line 1: expected \"max\" or a number, got \"lots\""])
        let empty = Formats.parseMemoryMax("", file: "memory.max")
        #expect(empty.value == nil)
        #expect(empty.problems == ["memory.max: empty, expected \"max\" or a number"])
        #expect(Formats.parseMemoryMax("max\n12\n", file: "memory.max").problems.first?.contains("line 2") == true)
    }

    @Test("memory.current: one number; anything else is a problem")
    func number() {
        #expect(Formats.parseNumber("123456\n", file: "memory.current").value == 123_456)
        #expect(Formats.parseNumber("  42  \n\n", file: "memory.current").value == 42)
        for text in ["-5\n", "12 34\n", "1\n2\n", "\n"] {
            let parsed = Formats.parseNumber(text, file: "memory.current")
            #expect(parsed.value == nil, "\(text.debugDescription)")
            #expect(parsed.problems.count == 1 && parsed.problems[0].hasPrefix("memory.current"))
        }
    }

    @Test("memory.stat: inactive_file, and the working set never below zero")
    func statAndWorkingSet() {
        let stat = Formats.parseKeyedNumbers("anon 100\nfile 200\ninactive_file 123\nbogus\n", file: "memory.stat")
        #expect(Formats.inactiveFileV2(stat: stat.value) == 123)
        #expect(stat.problems == ["memory.stat line 4: expected \"<key> <number>\", got \"bogus\""])
        #expect(Formats.workingSet(usage: 1000, inactiveFile: 123) == 877)
        #expect(Formats.workingSet(usage: 100, inactiveFile: 123) == 0)
        #expect(Formats.workingSet(usage: 100, inactiveFile: nil) == 100)
    }

    // MARK: cgroup v1

    @Test("memory.limit_in_bytes: 9223372036854771712 and anything from 2^62 means unlimited")
    func limitInBytes() {
        #expect(Formats.parseLimitInBytes("9223372036854771712\n", file: "l").value == .unlimited)
        #expect(Formats.parseLimitInBytes("\(UInt64(1) << 62)\n", file: "l").value == .unlimited)
        #expect(Formats.parseLimitInBytes("536870912\n", file: "l").value == .bytes(536_870_912))
        #expect(Formats.parseLimitInBytes("unlimited\n", file: "l").value == nil)
    }

    @Test("v1 memory.stat: total_inactive_file is preferred over inactive_file")
    func inactiveFileV1() {
        #expect(Formats.inactiveFileV1(stat: ["inactive_file": 5, "total_inactive_file": 7]) == 7)
        #expect(Formats.inactiveFileV1(stat: ["inactive_file": 5]) == 5)
        #expect(Formats.inactiveFileV1(stat: [:]) == nil)
    }

    @Test("v1: the effective limit is the tighter of the own and the hierarchical limit")
    func effectiveLimitV1() {
        let huge: UInt64 = 9_223_372_036_854_771_712
        #expect(Formats.effectiveLimitV1(own: .bytes(500), stat: ["hierarchical_memory_limit": 300]) == .bytes(300))
        #expect(Formats.effectiveLimitV1(own: .bytes(500), stat: ["hierarchical_memory_limit": huge]) == .bytes(500))
        #expect(Formats.effectiveLimitV1(own: .unlimited, stat: ["hierarchical_memory_limit": 300]) == .bytes(300))
        #expect(Formats.effectiveLimitV1(own: .unlimited, stat: ["hierarchical_memory_limit": huge]) == .unlimited)
        #expect(Formats.effectiveLimitV1(own: .unlimited, stat: [:]) == .unlimited)
        #expect(Formats.effectiveLimitV1(own: nil, stat: [:]) == nil)
    }

    // MARK: /proc

    @Test("/proc/meminfo: MemTotal and MemAvailable in bytes")
    func meminfo() {
        let text =
            "MemTotal:       24576000 kB\nMemFree:        100 kB\nMemAvailable:   12000000 kB\n"
            + "HugePages_Total:       0\n"
        let parsed = Formats.parseMeminfo(text, file: "/proc/meminfo")
        #expect(parsed.value == Formats.Meminfo(totalBytes: 24_576_000 * 1024, availableBytes: 12_000_000 * 1024))
        #expect(parsed.problems.isEmpty)
    }

    @Test("/proc/meminfo: malformed lines are reported and skipped")
    func meminfoMalformed() {
        let text = "MemTotal:       24576000 kB\nGarbage\nMemAvailable:   lots kB\nCached:   5 MB\n"
        let parsed = Formats.parseMeminfo(text, file: "/proc/meminfo")
        #expect(parsed.value == Formats.Meminfo(totalBytes: 24_576_000 * 1024, availableBytes: nil))
        #expect(
            parsed.problems == [
                "/proc/meminfo line 2: expected \"<Key>: <number> [kB]\", got \"Garbage\"",
                "/proc/meminfo line 3: expected \"<Key>: <number> [kB]\", got \"MemAvailable:   lots kB\"",
                "/proc/meminfo line 4: expected \"<Key>: <number> [kB]\", got \"Cached:   5 MB\"",
            ])
    }

    @Test("/proc/self/cgroup: v1 and v2 lines; malformed lines reported")
    func procCgroup() {
        let text = "9:name=systemd:/\n4:memory:/process_api/abc\n2:cpu,cpuacct:/\n0::/\nnonsense\n"
        let parsed = Formats.parseProcCgroup(text, file: "cgroup")
        #expect(
            parsed.value == [
                Formats.CgroupMembership(hierarchyID: "9", controllers: ["name=systemd"], path: "/"),
                Formats.CgroupMembership(hierarchyID: "4", controllers: ["memory"], path: "/process_api/abc"),
                Formats.CgroupMembership(hierarchyID: "2", controllers: ["cpu", "cpuacct"], path: "/"),
                Formats.CgroupMembership(hierarchyID: "0", controllers: [], path: "/"),
            ])
        #expect(parsed.problems == ["cgroup line 5: expected \"<id>:<controllers>:/<path>\", got \"nonsense\""])
    }

    @Test("paths join with exactly one slash")
    func join() {
        #expect(KernelFile.join("/", "/proc/meminfo") == "/proc/meminfo")
        #expect(KernelFile.join("/tmp/root/", "sys/fs/cgroup") == "/tmp/root/sys/fs/cgroup")
        #expect(KernelFile.join("/sys/fs/cgroup", "/") == "/sys/fs/cgroup")
        #expect(KernelFile.join("/", "/") == "/")
    }
}
