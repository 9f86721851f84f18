/// Encodes an `Encodable` value as one line of JSON, for output people and scripts read line by line: object
/// members in the order `encode(to:)` writes them, `": "` and `", "` between them, strings escaped by
/// ``jsonString(_:)`` (so text a terminal could act on is written as `\uXXXX`), and ``FixedDecimal`` numbers with
/// their digits as given.
///
/// Foundation's `JSONEncoder` orders an object's members by hash (or sorts them) and writes such characters raw;
/// the importer's lines keep the order that reads well (`state` first, files in import order), which scripts and
/// the tests rely on. Any `Encodable` works here, and the importer's types encode the same keys through
/// `JSONEncoder` too.
///
/// Each call is independent: safe from any thread. A key written twice in one object appears twice. Complexity:
/// O(size of the output).
enum JSONLineEncoder {
    /// The line, without a newline. A nested value that encodes nothing is written `{}`, as `JSONEncoder` does.
    /// - Throws: `EncodingError.invalidValue` for a non-finite floating-point value, or a value that encodes nothing
    ///   at all.
    static func encode(_ value: some Encodable) throws -> String {
        let root = JSONLineNode()
        try root.encode(value, codingPath: [])
        if case .unset = root.content {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "the value encoded nothing"))
        }
        var out = ""
        root.render(into: &out)
        return out
    }
}

/// A number written with exactly `decimals` digits after the point (`12.346`, `0.000`), as the importer's JSON has
/// always written seconds and fractions. Through another encoder it is the rounded `Double`.
struct FixedDecimal: Encodable {
    var value: Double
    var decimals: Int

    var text: String { formatted(value, decimals: decimals) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Double(text) ?? 0)
    }
}

/// A coding key made from a string: objects whose keys are data (file names, check names).
struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The coding key of an array element: its index.
private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// An object whose members are `(name, value)` pairs in order: a file name as the key of its entry.
struct NamedMembers<Value: Encodable>: Encodable {
    var members: [(name: String, value: Value)]

    init(_ members: [(name: String, value: Value)]) { self.members = members }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedKey.self)
        for (name, value) in members { try container.encode(value, forKey: NamedKey(name)) }
    }
}

/// One value of the tree being encoded; a reference, so that containers handed out earlier fill it in.
private final class JSONLineNode {
    enum Content {
        case unset
        case literal(String)
        case object([(key: String, value: JSONLineNode)])
        case array([JSONLineNode])
    }

    var content = Content.unset

    func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: content = .literal(jsonString(text))
        case let number as FixedDecimal: content = .literal(number.text)
        case let number as Double: try setNumber(number, codingPath: codingPath)
        case let number as Float: try setNumber(number, codingPath: codingPath)
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    /// `number` in its shortest round-tripping form (`0.1`, `1e-05`).
    func setNumber<Number: BinaryFloatingPoint & CustomStringConvertible>(
        _ number: Number, codingPath: [any CodingKey]
    ) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(
                number, EncodingError.Context(codingPath: codingPath, debugDescription: "\(number) is not JSON"))
        }
        content = .literal(number.description)
    }

    /// The member `key`, appended; makes this node an object if it is not one yet.
    func member(_ key: String) -> JSONLineNode {
        let child = JSONLineNode()
        if case .object(var members) = content {
            content = .unset  // the array stays uniquely referenced: appending does not copy it
            members.append((key, child))
            content = .object(members)
        } else {
            content = .object([(key, child)])
        }
        return child
    }

    /// A new last element; makes this node an array if it is not one yet.
    func element() -> JSONLineNode {
        let child = JSONLineNode()
        if case .array(var elements) = content {
            content = .unset
            elements.append(child)
            content = .array(elements)
        } else {
            content = .array([child])
        }
        return child
    }

    func becomeObject() { if case .object = content {} else { content = .object([]) } }
    func becomeArray() { if case .array = content {} else { content = .array([]) } }

    func render(into out: inout String) {
        switch content {
        case .unset: out += "{}"
        case .literal(let text): out += text
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ", " }
                out += jsonString(member.key)
                out += ": "
                member.value.render(into: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += ", " }
                element.render(into: &out)
            }
            out += "]"
        }
    }
}

private struct NodeEncoder: Encoder {
    let node: JSONLineNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONLineNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).content = .literal("null") }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue).encode(value, codingPath: codingPath + [key])
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(value ? "true" : "false", key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(jsonString(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try node.member(key.stringValue).setNumber(value, codingPath: codingPath + [key])
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try node.member(key.stringValue).setNumber(value, codingPath: codingPath + [key])
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(String(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(String(value), key) }

    private func set(_ literal: String, _ key: Key) { node.member(key.stringValue).content = .literal(literal) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.member(key.stringValue)
        child.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.member(key.stringValue)
        child.becomeArray()
        return UnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.member("super"), codingPath: codingPath + [NamedKey("super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: JSONLineNode
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    mutating func encodeNil() throws { node.element().content = .literal("null") }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try node.element().encode(value, codingPath: codingPath + [IndexKey(index)])
    }
    mutating func encode(_ value: Bool) throws { set(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { set(jsonString(value)) }
    mutating func encode(_ value: Double) throws {
        let path = codingPath + [IndexKey(count)]
        try node.element().setNumber(value, codingPath: path)
    }
    mutating func encode(_ value: Float) throws {
        let path = codingPath + [IndexKey(count)]
        try node.element().setNumber(value, codingPath: path)
    }
    mutating func encode(_ value: Int) throws { set(String(value)) }
    mutating func encode(_ value: Int8) throws { set(String(value)) }
    mutating func encode(_ value: Int16) throws { set(String(value)) }
    mutating func encode(_ value: Int32) throws { set(String(value)) }
    mutating func encode(_ value: Int64) throws { set(String(value)) }
    mutating func encode(_ value: UInt) throws { set(String(value)) }
    mutating func encode(_ value: UInt8) throws { set(String(value)) }
    mutating func encode(_ value: UInt16) throws { set(String(value)) }
    mutating func encode(_ value: UInt32) throws { set(String(value)) }
    mutating func encode(_ value: UInt64) throws { set(String(value)) }

    private func set(_ literal: String) { node.element().content = .literal(literal) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(count)]
        let child = node.element()
        child.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        let child = node.element()
        child.becomeArray()
        return UnkeyedContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.element(), codingPath: codingPath) }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: JSONLineNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .literal("null") }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
    mutating func encode(_ value: Bool) throws { node.content = .literal(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { node.content = .literal(jsonString(value)) }
    mutating func encode(_ value: Double) throws { try node.setNumber(value, codingPath: codingPath) }
    mutating func encode(_ value: Float) throws { try node.setNumber(value, codingPath: codingPath) }
    mutating func encode(_ value: Int) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: Int8) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: Int16) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: Int32) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: Int64) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt8) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt16) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt32) throws { node.content = .literal(String(value)) }
    mutating func encode(_ value: UInt64) throws { node.content = .literal(String(value)) }
}
