/// Which of a job node's four sets of links a ``JobList`` uses: a job is at once in its queue's live list, in
/// at most one ready bucket, in at most one group, and (unless it is a barrier) in its queue epoch's members.
enum JobLinkKind {
    case bucket, live, group, epoch
}

/// The two links of an intrusive doubly linked list, as raw pointers to job nodes: the lists do not retain their
/// nodes, and following or rewriting a link costs no reference counting (unowned(unsafe) links still retained each
/// node they loaded, a dozen reference-count operations per tiny job). Every node in any list is also in its
/// queue's live list, from admission to finish (a job waiting in the ``Intake`` is in no list; the intake holds
/// its own retain), and the live list holds one explicit retain per node for exactly that time (see
/// ``JobList/append(_:)``). Guarded by the engine lock.
struct JobLinks {
    var next: UnsafeMutableRawPointer?
    var prev: UnsafeMutableRawPointer?
    var isLinked = false
}

/// An intrusive FIFO list of job nodes: append, remove and pop are O(1) and allocate nothing.
/// Guarded by the engine lock.
struct JobList {
    let kind: JobLinkKind
    private var first: UnsafeMutableRawPointer?
    private var last: UnsafeMutableRawPointer?
    private(set) var count = 0

    init(_ kind: JobLinkKind) { self.kind = kind }

    var isEmpty: Bool { count == 0 }

    /// The first node, or nil.
    var head: JobNode? { first.map(JobList.node) }

    /// Appends `node`. The live list (`kind == .live`) retains it until it is removed.
    /// - Complexity: O(1).
    mutating func append(_ node: JobNode) {
        assert(!node.isLinked(kind), "JobList: node already linked")
        let pointer =
            kind == .live
            ? Unmanaged.passRetained(node).toOpaque() : Unmanaged.passUnretained(node).toOpaque()
        node.setLinks(kind, next: nil, prev: last)
        if let last { JobList.withNode(last) { $0.setNext(kind, pointer) } } else { first = pointer }
        last = pointer
        count += 1
    }

    /// Removes `node`. For the live list, the caller takes over the list's retain (see
    /// ``WorkQueue/finished(_:_:remaining:_:)``, which releases it after the lock). - Complexity: O(1).
    mutating func remove(_ node: JobNode) {
        assert(node.isLinked(kind), "JobList: node not linked")
        let next = node.next(kind)
        let previous = node.prev(kind)
        if let previous { JobList.withNode(previous) { $0.setNext(kind, next) } } else { first = next }
        if let next { JobList.withNode(next) { $0.setPrev(kind, previous) } } else { last = previous }
        node.unlink(kind)
        count -= 1
    }

    /// Removes and returns the first node, lent unretained: for a caller under the engine lock that uses it only
    /// while something else keeps it alive (a job's queue's live list keeps it until it finishes).
    mutating func popFirstUnretained() -> Unmanaged<JobNode>? {
        guard let first else { return nil }
        let node = Unmanaged<JobNode>.fromOpaque(first)
        node._withUnsafeGuaranteedRef { remove($0) }
        return node
    }

    /// Calls `body` with the first `limit` nodes in order. - Complexity: O(min(limit, count)).
    func forEachNode(upTo limit: Int, _ body: (JobNode) -> Void) {
        var remaining = limit
        forEachNode(while: { _ in remaining > 0 }) { node in
            remaining -= 1
            body(node)
        }
    }

    /// Calls `body` with the nodes in order for as long as `condition` holds before each. Neither may change the
    /// list. - Complexity: O(nodes visited).
    func forEachNode(while condition: (JobNode) -> Bool, _ body: (JobNode) -> Void) {
        var pointer = first
        while let current = pointer {
            let node = JobList.node(current)
            guard condition(node) else { return }
            body(node)
            pointer = node.next(kind)
        }
    }

    /// The nodes in order. - Complexity: O(count).
    func nodes() -> [JobNode] {
        var result: [JobNode] = []
        result.reserveCapacity(count)
        var pointer = first
        while let current = pointer {
            let node = JobList.node(current)
            result.append(node)
            pointer = node.next(kind)
        }
        return result
    }

    /// The node `pointer` points to (a strong reference).
    @inline(__always) static func node(_ pointer: UnsafeMutableRawPointer) -> JobNode {
        Unmanaged<JobNode>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` on the node `pointer` points to, without retaining it (a linked node is alive: see ``JobLinks``).
    @inline(__always) static func withNode(_ pointer: UnsafeMutableRawPointer, _ body: (JobNode) -> Void) {
        Unmanaged<JobNode>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }
}

extension JobNode {
    @inline(__always) func isLinked(_ kind: JobLinkKind) -> Bool {
        switch kind {
        case .bucket: bucketLinks.isLinked
        case .live: liveLinks.isLinked
        case .group: groupLinks.isLinked
        case .epoch: epochLinks.isLinked
        }
    }

    @inline(__always) func next(_ kind: JobLinkKind) -> UnsafeMutableRawPointer? {
        switch kind {
        case .bucket: bucketLinks.next
        case .live: liveLinks.next
        case .group: groupLinks.next
        case .epoch: epochLinks.next
        }
    }

    @inline(__always) func prev(_ kind: JobLinkKind) -> UnsafeMutableRawPointer? {
        switch kind {
        case .bucket: bucketLinks.prev
        case .live: liveLinks.prev
        case .group: groupLinks.prev
        case .epoch: epochLinks.prev
        }
    }

    @inline(__always) func setNext(_ kind: JobLinkKind, _ node: UnsafeMutableRawPointer?) {
        switch kind {
        case .bucket: bucketLinks.next = node
        case .live: liveLinks.next = node
        case .group: groupLinks.next = node
        case .epoch: epochLinks.next = node
        }
    }

    @inline(__always) func setPrev(_ kind: JobLinkKind, _ node: UnsafeMutableRawPointer?) {
        switch kind {
        case .bucket: bucketLinks.prev = node
        case .live: liveLinks.prev = node
        case .group: groupLinks.prev = node
        case .epoch: epochLinks.prev = node
        }
    }

    @inline(__always) func setLinks(_ kind: JobLinkKind, next: UnsafeMutableRawPointer?, prev: UnsafeMutableRawPointer?)
    {
        switch kind {
        case .bucket: bucketLinks = JobLinks(next: next, prev: prev, isLinked: true)
        case .live: liveLinks = JobLinks(next: next, prev: prev, isLinked: true)
        case .group: groupLinks = JobLinks(next: next, prev: prev, isLinked: true)
        case .epoch: epochLinks = JobLinks(next: next, prev: prev, isLinked: true)
        }
    }

    @inline(__always) func unlink(_ kind: JobLinkKind) {
        switch kind {
        case .bucket: bucketLinks = JobLinks()
        case .live: liveLinks = JobLinks()
        case .group: groupLinks = JobLinks()
        case .epoch: epochLinks = JobLinks()
        }
    }
}
