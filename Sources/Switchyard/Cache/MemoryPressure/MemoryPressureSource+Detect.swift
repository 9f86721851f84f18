extension MemoryPressureSource {
    /// Finds the location ``detect(root:)`` reads (see there for the rules), with one message per problem met on
    /// the way (an unreadable or malformed `proc/self/cgroup`). **Blocks** on a few small file reads and
    /// directory checks.
    static func detectKind(root: String) -> (kind: Kind, problems: [String]) {
        let meminfo = KernelFile.join(root, "proc/meminfo")
        let cgroupFile = KernelFile.join(root, "proc/self/cgroup")
        let memberships: MemoryPressureFormats.Parsed<[MemoryPressureFormats.CgroupMembership]>
        switch KernelFile.contents(of: cgroupFile) {
        case .success(let text):
            memberships = MemoryPressureFormats.parseProcCgroup(text, file: cgroupFile)
        case .failure(.missing):
            return (.procMeminfo(path: meminfo), [])  // not Linux, or /proc is not mounted
        case .failure(.failed(let message)):
            return (.procMeminfo(path: meminfo), ["\(cgroupFile): \(message)"])
        }
        let kind = chooseKind(
            memberships.value, root: root,
            isDirectory: KernelFile.isDirectory, exists: KernelFile.exists)
        return (kind, memberships.problems)
    }

    /// The decision of ``detectKind(root:)`` given the parsed `/proc/self/cgroup` and a view of the file system.
    static func chooseKind(
        _ memberships: [MemoryPressureFormats.CgroupMembership],
        root: String,
        isDirectory: (String) -> Bool,
        exists: (String) -> Bool
    ) -> Kind {
        let meminfo = KernelFile.join(root, "proc/meminfo")
        let mount = KernelFile.join(root, "sys/fs/cgroup")
        let memoryV1 = memberships.first { $0.controllers.contains("memory") }
        let unified = memberships.first { $0.hierarchyID == "0" && $0.controllers.isEmpty }
        if memoryV1 == nil, let unified, exists(KernelFile.join(mount, "cgroup.controllers")) {
            return .cgroupV2(directory: directory(mount, unified.path, isDirectory), meminfoPath: meminfo)
        }
        let memoryMount = KernelFile.join(mount, "memory")
        if let memoryV1, isDirectory(memoryMount) {
            return .cgroupV1(directory: directory(memoryMount, memoryV1.path, isDirectory), meminfoPath: meminfo)
        }
        return .procMeminfo(path: meminfo)
    }

    /// `<mount>/<path>` if that directory exists, else `mount` (a container whose cgroup is mounted as the root).
    private static func directory(_ mount: String, _ path: String, _ isDirectory: (String) -> Bool) -> String {
        let nested = KernelFile.join(mount, path)
        return isDirectory(nested) ? nested : mount
    }
}
