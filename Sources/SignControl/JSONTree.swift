import Foundation

extension JSONValue {
    /// The JSON `value` encodes to, as a tree: ints stay ints and doubles doubles, `nil`s
    /// encoded as such are `null`, so a typed result writes the same bytes as the dictionary
    /// it replaces.
    public init(encoding value: some Encodable) throws {
        let root = TreeSlot()
        try value.encode(to: TreeEncoder(slot: root, codingPath: []))
        self = root.resolved
    }

    /// A typed result read from this JSON.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(jsonString.utf8))
    }
}

/// One place in the tree being encoded: a value, or an object or array filled in later.
private final class TreeSlot {
    var value: JSONValue = .null
    var object: [String: TreeSlot]?
    var array: [TreeSlot]?

    var resolved: JSONValue {
        if let object { return .object(object.mapValues(\.resolved)) }
        if let array { return .array(array.map(\.resolved)) }
        return value
    }

    static func number<T: BinaryInteger>(_ v: T) -> JSONValue {
        Int64(exactly: v).map { .int($0) } ?? .double(Double(v))
    }
}

private struct TreeEncoder: Encoder {
    let slot: TreeSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.object == nil { slot.object = [:] }
        return KeyedEncodingContainer(TreeKeyed<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.array == nil { slot.array = [] }
        return TreeUnkeyed(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingle(slot: slot, codingPath: codingPath)
    }
}

private struct TreeSingle: SingleValueEncodingContainer {
    let slot: TreeSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.value = .null }
    mutating func encode(_ v: Bool) throws { slot.value = .bool(v) }
    mutating func encode(_ v: String) throws { slot.value = .string(v) }
    mutating func encode(_ v: Double) throws { slot.value = .double(v) }
    mutating func encode(_ v: Float) throws { slot.value = .double(Double(v)) }
    mutating func encode(_ v: Int) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: Int8) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: Int16) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: Int32) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: Int64) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: UInt) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: UInt8) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: UInt16) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: UInt32) throws { slot.value = TreeSlot.number(v) }
    mutating func encode(_ v: UInt64) throws { slot.value = TreeSlot.number(v) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let json = value as? JSONValue {
            slot.value = json
        } else {
            try value.encode(to: TreeEncoder(slot: slot, codingPath: codingPath))
        }
    }
}

private struct TreeKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: TreeSlot
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> TreeSlot {
        let child = TreeSlot()
        slot.object?[key.stringValue] = child
        return child
    }

    private func single(_ key: Key) -> TreeSingle { TreeSingle(slot: child(key), codingPath: codingPath + [key]) }

    mutating func encodeNil(forKey key: Key) throws { child(key).value = .null }
    mutating func encode(_ v: Bool, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: String, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: Double, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: Float, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: Int, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: Int8, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: Int16, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: Int32, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: Int64, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: UInt, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: UInt8, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: UInt16, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: UInt32, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode(_ v: UInt64, forKey key: Key) throws { var s = single(key); try s.encode(v) }
    mutating func encode<T: Encodable>(_ v: T, forKey key: Key) throws { var s = single(key); try s.encode(v) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        TreeEncoder(slot: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(slot: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(slot: slot, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(slot: child(key), codingPath: codingPath + [key])
    }
}

private struct TreeUnkeyed: UnkeyedEncodingContainer {
    let slot: TreeSlot
    let codingPath: [any CodingKey]
    var count: Int { slot.array?.count ?? 0 }

    private func next() -> TreeSlot {
        let child = TreeSlot()
        slot.array?.append(child)
        return child
    }

    private func single() -> TreeSingle { TreeSingle(slot: next(), codingPath: codingPath) }

    mutating func encodeNil() throws { next().value = .null }
    mutating func encode(_ v: Bool) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: String) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: Double) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: Float) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: Int) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: Int8) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: Int16) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: Int32) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: Int64) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: UInt) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: UInt8) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: UInt16) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: UInt32) throws { var s = single(); try s.encode(v) }
    mutating func encode(_ v: UInt64) throws { var s = single(); try s.encode(v) }
    mutating func encode<T: Encodable>(_ v: T) throws { var s = single(); try s.encode(v) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        TreeEncoder(slot: next(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(slot: next(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(slot: next(), codingPath: codingPath) }
}
