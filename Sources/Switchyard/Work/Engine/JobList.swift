/// Which of a job node's three sets of links a ``JobList`` uses: a job is at once in its queue's live list, in
/// at most one ready bucket, and in at most one group.
enum JobLinkKind {
    case bucket, live, group
}

/// The two links of an intrusive doubly linked list, both unowned(unsafe): the lists do not retain their nodes.
/// Every node in any list is also in its queue's live list, from submission to finish, and the live list holds
/// one explicit retain per node for exactly that time (see ``JobList/append(_:)`` with `retaining`). Guarded by the
/// engine lock.
struct JobLinks {
    unowned(unsafe) var next: JobNode?
    unowned(unsafe) var prev: JobNode?
    var isLinked = false
}

/// An intrusive FIFO list of job nodes: append, remove and pop are O(1) and allocate nothing.
/// Guarded by the engine lock.
struct JobList {
    let kind: JobLinkKind
    private(set) unowned(unsafe) var head: JobNode?
    private unowned(unsafe) var tail: JobNode?
    private(set) var count = 0

    init(_ kind: JobLinkKind) { self.kind = kind }

    var isEmpty: Bool { count == 0 }

    /// Appends `node`. The live list (`kind == .live`) retains it until it is removed.
    /// - Complexity: O(1).
    mutating func append(_ node: JobNode) {
        assert(!node.isLinked(kind), "JobList: node already linked")
        if kind == .live { _ = Unmanaged.passRetained(node) }
        node.setLinks(kind, next: nil, prev: tail)
        if let tail { tail.setNext(kind, node) } else { head = node }
        tail = node
        count += 1
    }

    /// Removes `node`. For the live list, the caller takes over the list's retain (see
    /// ``WorkQueue/finished(_:_:remainingUnits:_:)``, which releases it after the lock). - Complexity: O(1).
    mutating func remove(_ node: JobNode) {
        assert(node.isLinked(kind), "JobList: node not linked")
        let next = node.next(kind)
        let previous = node.prev(kind)
        if let previous { previous.setNext(kind, next) } else { head = next }
        if let next { next.setPrev(kind, previous) } else { tail = previous }
        node.unlink(kind)
        count -= 1
    }

    /// - Complexity: O(1).
    mutating func popFirst() -> JobNode? {
        guard let first = head else { return nil }
        remove(first)
        return first
    }

    /// The nodes in order. - Complexity: O(count).
    func nodes() -> [JobNode] {
        var result: [JobNode] = []
        result.reserveCapacity(count)
        var node = head
        while let current = node {
            result.append(current)
            node = current.next(kind)
        }
        return result
    }
}

extension JobNode {
    @inline(__always) func isLinked(_ kind: JobLinkKind) -> Bool {
        switch kind {
        case .bucket: bucketLinks.isLinked
        case .live: liveLinks.isLinked
        case .group: groupLinks.isLinked
        }
    }

    @inline(__always) func next(_ kind: JobLinkKind) -> JobNode? {
        switch kind {
        case .bucket: bucketLinks.next
        case .live: liveLinks.next
        case .group: groupLinks.next
        }
    }

    @inline(__always) func prev(_ kind: JobLinkKind) -> JobNode? {
        switch kind {
        case .bucket: bucketLinks.prev
        case .live: liveLinks.prev
        case .group: groupLinks.prev
        }
    }

    @inline(__always) func setNext(_ kind: JobLinkKind, _ node: JobNode?) {
        switch kind {
        case .bucket: bucketLinks.next = node
        case .live: liveLinks.next = node
        case .group: groupLinks.next = node
        }
    }

    @inline(__always) func setPrev(_ kind: JobLinkKind, _ node: JobNode?) {
        switch kind {
        case .bucket: bucketLinks.prev = node
        case .live: liveLinks.prev = node
        case .group: groupLinks.prev = node
        }
    }

    @inline(__always) func setLinks(_ kind: JobLinkKind, next: JobNode?, prev: JobNode?) {
        switch kind {
        case .bucket: bucketLinks = JobLinks(next: next, prev: prev, isLinked: true)
        case .live: liveLinks = JobLinks(next: next, prev: prev, isLinked: true)
        case .group: groupLinks = JobLinks(next: next, prev: prev, isLinked: true)
        }
    }

    @inline(__always) func unlink(_ kind: JobLinkKind) {
        switch kind {
        case .bucket: bucketLinks = JobLinks()
        case .live: liveLinks = JobLinks()
        case .group: groupLinks = JobLinks()
        }
    }
}
