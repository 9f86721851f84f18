/// Which of a job node's three sets of links a ``JobList`` uses: a job is at once in its queue's live list, in
/// at most one ready bucket, and in at most one group.
enum JobLinkKind {
    case bucket, live, group
}

/// The two links of an intrusive doubly linked list. `next` is strong (a linked node is retained by its
/// predecessor or the list head); `prev` is unowned(unsafe) since the node it points to is retained through `next`
/// for as long as the link exists. Guarded by the engine lock.
struct JobLinks {
    var next: JobNode?
    unowned(unsafe) var prev: JobNode?
    var isLinked = false
}

/// An intrusive FIFO list of job nodes: append, remove and pop are O(1) and allocate nothing.
/// Guarded by the engine lock.
struct JobList {
    let kind: JobLinkKind
    private(set) var head: JobNode?
    private unowned(unsafe) var tail: JobNode?
    private(set) var count = 0

    init(_ kind: JobLinkKind) { self.kind = kind }

    var isEmpty: Bool { count == 0 }

    /// - Complexity: O(1).
    mutating func append(_ node: JobNode) {
        assert(!node[links: kind].isLinked, "JobList: node already linked")
        node[links: kind] = JobLinks(next: nil, prev: tail, isLinked: true)
        if let tail { tail[links: kind].next = node } else { head = node }
        tail = node
        count += 1
    }

    /// - Complexity: O(1).
    mutating func remove(_ node: JobNode) {
        let links = node[links: kind]
        assert(links.isLinked, "JobList: node not linked")
        if let previous = links.prev { previous[links: kind].next = links.next } else { head = links.next }
        if let next = links.next { next[links: kind].prev = links.prev } else { tail = links.prev }
        node[links: kind] = JobLinks()
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
            node = current[links: kind].next
        }
        return result
    }
}
