/// A list that stores its first two elements inline: no allocation for up to two elements.
struct SmallList<Element> {
    private var first: Element?
    private var second: Element?
    private var rest: [Element] = []

    var isEmpty: Bool { first == nil }
    var count: Int { first == nil ? 0 : second == nil ? 1 : 2 + rest.count }

    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else if second == nil {
            second = element
        } else {
            rest.append(element)
        }
    }

    subscript(index: Int) -> Element {
        switch index {
        case 0: first!
        case 1: second!
        default: rest[index - 2]
        }
    }

    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        guard let second else { return }
        try body(second)
        for element in rest { try body(element) }
    }
}
