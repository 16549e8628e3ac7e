import SignControl

/// A parsed config document's values, in TOML's kinds, apart from any parser: the config
/// reader reads these, whichever process parsed the text.
indirect enum ConfigValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([ConfigValue])
    case table(ConfigTable)
    /// A date, time or date-time, as written.
    case dateTime(String)

    var string: String? { if case .string(let v) = self { v } else { nil } }
    var int: Int? { if case .integer(let v) = self { v } else { nil } }
    var double: Double? { if case .float(let v) = self { v } else { nil } }
    var bool: Bool? { if case .boolean(let v) = self { v } else { nil } }
    var array: [ConfigValue]? { if case .array(let v) = self { v } else { nil } }
    var table: ConfigTable? { if case .table(let v) = self { v } else { nil } }

    /// The kind, in the words problems use ("expected an integer, found string").
    var type: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "floating-point number"
        case .boolean: "bool"
        case .array: "array"
        case .table: "table"
        case .dateTime: "date-time"
        }
    }
}

/// A TOML table: keys to values.
struct ConfigTable: Sendable, Equatable {
    var entries: [String: ConfigValue]

    init(_ entries: [String: ConfigValue] = [:]) { self.entries = entries }

    subscript(key: String) -> ConfigValue? { entries[key] }

    /// The keys, sorted (so problems come in a stable order).
    var keys: [String] { entries.keys.sorted() }
}

/// How a parsed document travels from the process that parsed it: tagged JSON that keeps
/// TOML's kinds apart (an integer is not a float) and floats JSON cannot hold (nan, inf).
extension ConfigValue {
    var json: JSONValue {
        switch self {
        case .string(let v): ["s": .string(v)]
        case .integer(let v): ["i": .int(Int64(v))]
        case .float(let v): v.isFinite ? ["f": .double(v)] : ["f": .string(String(v))]
        case .boolean(let v): ["b": .bool(v)]
        case .array(let v): ["a": .array(v.map(\.json))]
        case .table(let t): ["t": .object(t.entries.mapValues(\.json))]
        case .dateTime(let v): ["d": .string(v)]
        }
    }

    init?(json: JSONValue) {
        guard case .object(let object) = json, object.count == 1, let (tag, value) = object.first else { return nil }
        switch (tag, value) {
        case ("s", .string(let v)): self = .string(v)
        case ("i", .int(let v)): self = .integer(Int(v))
        case ("f", .double(let v)): self = .float(v)
        case ("f", .int(let v)): self = .float(Double(v))
        case ("f", .string(let v)): self = .float(Double(v) ?? .nan)
        case ("b", .bool(let v)): self = .boolean(v)
        case ("d", .string(let v)): self = .dateTime(v)
        case ("a", .array(let items)):
            var values: [ConfigValue] = []
            for item in items {
                guard let v = ConfigValue(json: item) else { return nil }
                values.append(v)
            }
            self = .array(values)
        case ("t", .object(let fields)):
            var entries: [String: ConfigValue] = [:]
            for (key, item) in fields {
                guard let v = ConfigValue(json: item) else { return nil }
                entries[key] = v
            }
            self = .table(ConfigTable(entries))
        default: return nil
        }
    }
}
