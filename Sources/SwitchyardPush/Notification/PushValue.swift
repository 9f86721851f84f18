#if Push
    /// A JSON value: a payload's custom keys, and a payload read from a file.
    public enum PushValue: Sendable, Hashable, Codable {
        case string(String)
        case integer(Int)
        case number(Double)
        case bool(Bool)
        case array([PushValue])
        case object([String: PushValue])
        case null

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([PushValue].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: PushValue].self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            case .null: try container.encodeNil()
            }
        }
    }

    extension PushValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
        ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
    {
        public init(stringLiteral value: String) { self = .string(value) }
        public init(integerLiteral value: Int) { self = .integer(value) }
        public init(floatLiteral value: Double) { self = .number(value) }
        public init(booleanLiteral value: Bool) { self = .bool(value) }
        public init(arrayLiteral elements: PushValue...) { self = .array(elements) }
        public init(dictionaryLiteral elements: (String, PushValue)...) {
            self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
        }
    }
#endif
