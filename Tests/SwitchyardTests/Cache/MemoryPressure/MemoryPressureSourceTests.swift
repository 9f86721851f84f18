import Testing

@testable import Switchyard

#if canImport(Glibc)
    import Glibc
#endif

@Suite("MemoryPressureSource")
struct MemoryPressureSourceTests {
    // MARK: Detection

    @Test("detect: a cgroup v2 layout picks <root>/sys/fs/cgroup/<path>")
    func detectV2() throws {
        let tree = try FakeFileTree()
        try tree.write("proc/self/cgroup", "0::/app.slice/app.scope\n")
        try tree.write("sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n")
        try tree.writeCgroupV2(
            at: "sys/fs/cgroup/app.slice/app.scope", current: 900, max: "1000",
            inactiveFile: 100)
        let source = MemoryPressureSource.detect(root: tree.root)
        #expect(source.kind == nil)
        let reading = source.read()
        let directory = tree.path("sys/fs/cgroup/app.slice/app.scope")
        #expect(source.kind == .cgroupV2(directory: directory, meminfoPath: tree.path("proc/meminfo")))
        #expect(reading.source == "cgroup v2 \(directory)")
        #expect(reading.usedBytes == 800 && reading.limitBytes == 1000)
        #expect(reading.psiSomeAvg10 == 0 && reading.eventsHigh == 0)
        #expect(reading.diagnostics.isEmpty, "\(reading.diagnostics)")
    }

    @Test("detect: cgroup v2 falls back to <root>/sys/fs/cgroup when the path does not exist (containers)")
    func detectV2Container() throws {
        let tree = try FakeFileTree()
        try tree.write("proc/self/cgroup", "0::/system.slice/docker-abc.scope\n")
        try tree.write("sys/fs/cgroup/cgroup.controllers", "memory\n")
        try tree.writeCgroupV2(at: "sys/fs/cgroup", current: 10, max: "1000")
        let kind = MemoryPressureSource.detectKind(root: tree.root).kind
        #expect(kind == .cgroupV2(directory: tree.path("sys/fs/cgroup"), meminfoPath: tree.path("proc/meminfo")))
    }

    @Test("detect: a hybrid layout with memory on cgroup v1 picks <root>/sys/fs/cgroup/memory/<path>")
    func detectV1() throws {
        let tree = try FakeFileTree()
        try tree.write("proc/self/cgroup", "9:name=systemd:/\n4:memory:/process_api/abc\n1:cpu:/\n0::/\n")
        try tree.write("sys/fs/cgroup/unified/cgroup.controllers", "\n")  // v2 mounted beside, without memory
        try tree.writeCgroupV1(
            at: "sys/fs/cgroup/memory/process_api/abc", usage: 900, limit: 1000,
            totalInactiveFile: 50)
        let source = MemoryPressureSource.detect(root: tree.root)
        let reading = source.read()
        let directory = tree.path("sys/fs/cgroup/memory/process_api/abc")
        #expect(source.kind == .cgroupV1(directory: directory, meminfoPath: tree.path("proc/meminfo")))
        #expect(reading.usedBytes == 850 && reading.limitBytes == 1000)
        #expect(reading.pressureLevelMedium == nil)
        #expect(reading.diagnostics.count == 1)
        #expect(reading.diagnostics.first?.hasPrefix("memory.pressure_level events unavailable") == true)
        #expect("\(source)" == "detected under \(tree.root): cgroup v1 \(directory)")
    }

    @Test("detect: cgroup v1 falls back to <root>/sys/fs/cgroup/memory when the path does not exist")
    func detectV1Container() throws {
        let tree = try FakeFileTree()
        try tree.write("proc/self/cgroup", "4:memory:/docker/abc\n")
        try tree.writeCgroupV1(at: "sys/fs/cgroup/memory", usage: 1, limit: 1000)
        let kind = MemoryPressureSource.detectKind(root: tree.root).kind
        #expect(kind == .cgroupV1(directory: tree.path("sys/fs/cgroup/memory"), meminfoPath: tree.path("proc/meminfo")))
    }

    @Test("detect: an unlimited cgroup v1 takes its usage ratio from meminfo")
    func detectV1Unlimited() throws {
        let tree = try FakeFileTree()
        try tree.write("proc/self/cgroup", "4:memory:/app\n0::/\n")
        try tree.writeCgroupV1(at: "sys/fs/cgroup/memory/app", usage: 900, limit: 9_223_372_036_854_771_712)
        try tree.writeMeminfo(totalKB: 1000, availableKB: 100)
        let reading = MemoryPressureSource.detect(root: tree.root).read()
        let directory = tree.path("sys/fs/cgroup/memory/app")
        #expect(reading.source == "cgroup v1 \(directory) (no limit; usage from \(tree.path("proc/meminfo")))")
        #expect(reading.meminfoTotalBytes == 1000 * 1024 && reading.meminfoAvailableBytes == 100 * 1024)
        #expect(reading.usedBytes == 900 * 1024 && reading.limitBytes == 1000 * 1024)
        #expect(reading.usageRatio == 0.9)
    }

    @Test("detect: no cgroup file, or no memory cgroup mounted, means /proc/meminfo")
    func detectMeminfo() throws {
        let tree = try FakeFileTree()
        #expect(MemoryPressureSource.detectKind(root: tree.root).kind == .procMeminfo(path: tree.path("proc/meminfo")))
        try tree.write("proc/self/cgroup", "0::/\nbroken line\n")  // v2 named, but /sys/fs/cgroup is not v2
        let (kind, problems) = MemoryPressureSource.detectKind(root: tree.root)
        #expect(kind == .procMeminfo(path: tree.path("proc/meminfo")))
        #expect(problems.count == 1 && problems[0].contains("proc/self/cgroup line 2"))
    }

    // MARK: Readings

    @Test("cgroup v2: every signal read; an unlimited cgroup takes its ratio from meminfo")
    func readV2() throws {
        let tree = try FakeFileTree()
        try tree.writeCgroupV2(
            current: 5000, max: "max", pressure: "some avg10=12.50 avg60=1 avg300=0 total=9\n",
            events: "low 0\nhigh 4\nmax 2\noom 1\noom_kill 1\n")
        try tree.writeMeminfo(at: "meminfo", totalKB: 100, availableKB: 25)
        let reading = MemoryPressureSource.cgroupV2(directory: tree.root, meminfoPath: tree.path("meminfo")).read()
        #expect(reading.psiSomeAvg10 == 12.5 && reading.psiFullAvg10 == nil)
        #expect(reading.eventsHigh == 4 && reading.eventsMax == 2 && reading.eventsOOM == 1)
        #expect(reading.usedBytes == 75 * 1024 && reading.limitBytes == 100 * 1024)
        #expect(reading.diagnostics.isEmpty, "\(reading.diagnostics)")
    }

    @Test("cgroup v2: a parent's limit binds when the own cgroup has none; the least headroom on the way up wins")
    func readV2Ancestors() throws {
        let tree = try FakeFileTree()
        // slice (limit 1 MB, 900 kB used) / service (no limit) / app.scope (no limit): the process is in app.scope.
        try tree.writeCgroupV2(at: "slice", current: 900_000, max: "1000000")
        try tree.writeCgroupV2(at: "slice/service", current: 800_000, max: "max")
        try tree.writeCgroupV2(at: "slice/service/app.scope", current: 100, max: "max", events: nil)
        try tree.writeMeminfo(at: "meminfo", totalKB: 100, availableKB: 25)
        let own = tree.path("slice/service/app.scope")
        var reading = MemoryPressureSource.cgroupV2(directory: own, meminfoPath: tree.path("meminfo")).read()
        #expect(reading.usedBytes == 900_000 && reading.limitBytes == 1_000_000)
        #expect(reading.source == "cgroup v2 \(own) (limit of \(tree.path("slice")))")
        #expect(reading.diagnostics.isEmpty, "\(reading.diagnostics)")

        // The own cgroup has a limit with more room left than its ancestor's: the ancestor's still binds first.
        try tree.writeCgroupV2(at: "slice/service/app.scope", current: 100_000, max: "500000")
        reading = MemoryPressureSource.cgroupV2(directory: own, meminfoPath: tree.path("meminfo")).read()
        #expect(reading.usedBytes == 900_000 && reading.limitBytes == 1_000_000)
        // … and its own when it is the tighter one.
        try tree.writeCgroupV2(at: "slice/service/app.scope", current: 450_000, max: "500000")
        reading = MemoryPressureSource.cgroupV2(directory: own, meminfoPath: tree.path("meminfo")).read()
        #expect(reading.usedBytes == 450_000 && reading.limitBytes == 500_000)
        #expect(reading.source == "cgroup v2 \(own)")

        // No limit anywhere up to the root (no memory.max above the slice): meminfo.
        try tree.writeCgroupV2(at: "slice", current: 900_000, max: "max")
        try tree.writeCgroupV2(at: "slice/service/app.scope", current: 100, max: "max")
        reading = MemoryPressureSource.cgroupV2(directory: own, meminfoPath: tree.path("meminfo")).read()
        #expect(reading.usedBytes == 75 * 1024 && reading.limitBytes == 100 * 1024)
    }

    @Test("paths: the parent of a directory")
    func parentPaths() {
        #expect(KernelFile.parent(of: "/sys/fs/cgroup/app.slice") == "/sys/fs/cgroup")
        #expect(KernelFile.parent(of: "/sys/fs/cgroup/app.slice/") == "/sys/fs/cgroup")
        #expect(KernelFile.parent(of: "/sys") == "/")
        #expect(KernelFile.parent(of: "/") == nil)
        #expect(KernelFile.parent(of: "") == nil)
        #expect(KernelFile.parent(of: "relative") == nil)
        #expect(KernelFile.parent(of: "a/b") == "a")
    }

    @Test("cgroup v2: missing and malformed files are diagnosed and their signals skipped")
    func readV2Broken() throws {
        let tree = try FakeFileTree()
        try tree.write("memory.max", "1000\n")
        try tree.write("memory.stat", "inactive_file 10\n")
        try tree.write("memory.pressure", "some avg10=oops\n")
        let reading = MemoryPressureSource.cgroupV2(directory: tree.root).read()
        #expect(reading.usedBytes == nil && reading.usageRatio == nil)
        #expect(reading.psiSomeAvg10 == nil && reading.eventsHigh == nil)
        #expect(
            reading.diagnostics == [
                "\(tree.path("memory.pressure")) line 1: expected \"some avg10=<percent> …\", got \"some avg10=oops\"",
                "\(tree.path("memory.current")): missing",
            ])
        try tree.write("memory.current", "many\n")
        #expect(
            MemoryPressureSource.cgroupV2(directory: tree.root).read().diagnostics.last
                == "\(tree.path("memory.current")) line 1: expected one number, got \"many\"")
    }

    @Test("meminfo: used is total minus available; PSI from pressure/memory beside it")
    func readMeminfo() throws {
        let tree = try FakeFileTree()
        try tree.writeMeminfo(totalKB: 24_576_000, availableKB: 12_000_000)
        try tree.write(
            "proc/pressure/memory",
            "some avg10=0.00 avg60=0 avg300=0 total=0\nfull avg10=11.00 avg60=0 avg300=0 total=0\n")
        let reading = MemoryPressureSource.procMeminfo(path: tree.path("proc/meminfo")).read()
        #expect(reading.usedBytes == 12_576_000 * 1024 && reading.limitBytes == 24_576_000 * 1024)
        #expect(reading.psiFullAvg10 == 11)
        let missing = MemoryPressureSource.procMeminfo(path: tree.path("nowhere/meminfo")).read()
        #expect(missing.usedBytes == nil && missing.diagnostics == ["\(tree.path("nowhere/meminfo")): missing"])
    }

    #if os(Linux)
        @Test("cgroup v1 pressure_level: eventfds registered through cgroup.event_control, counts drained per reading")
        func pressureLevelEvents() throws {
            let tree = try FakeFileTree()
            try tree.writeCgroupV1(at: "", usage: 100, limit: 1000)
            try tree.write("memory.pressure_level", "")
            try tree.write("cgroup.event_control", "")  // a plain file here: it records what was written
            let listener = PressureLevelListener(directory: tree.root)
            #expect(listener.unavailableReason == nil)
            let descriptors = listener.eventDescriptors.map(\.descriptor)
            let written = try tree.contents("cgroup.event_control")
            #expect(written.hasPrefix("\(descriptors[0]) ") && written.hasSuffix(" critical"), "\(written)")
            #expect(written.contains(" medium\(descriptors[1]) "), "\(written)")

            let read = {
                MemoryPressureSource.readCgroupV1(
                    directory: tree.root, meminfoPath: "/nonexistent",
                    listener: listener)
            }
            #expect(read().pressureLevelMedium == 0)
            for (descriptor, count) in zip(descriptors, [UInt64(2), 1]) {  // what the kernel would do
                var value = count
                #expect(withUnsafeBytes(of: &value) { write(descriptor, $0.baseAddress, 8) } == 8)
            }
            let fired = read()
            #expect(fired.pressureLevelMedium == 2 && fired.pressureLevelCritical == 1)
            #expect(fired.usedBytes == 100 && fired.limitBytes == 1000)
            #expect(fired.diagnostics.isEmpty, "\(fired.diagnostics)")
            let after = read()
            #expect(after.pressureLevelMedium == 0 && after.pressureLevelCritical == 0)
        }
    #endif
}
