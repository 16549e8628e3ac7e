/// Reads a request's arguments with errors that name the field and what was wrong: a value of
/// the wrong JSON type is `bad-request`, a missing or unusable value `invalid-argument`.
/// Fields nobody asks for are ignored, so an older server accepts a newer client's request.
public struct Arguments: Sendable {
    /// The command the arguments belong to, for messages (`set-text needs "text"`).
    public let command: String
    public let fields: [String: JSONValue]

    public init(command: String, fields: [String: JSONValue]) {
        self.command = command
        self.fields = fields
    }

    private func wrongType(_ key: String, _ expected: String) -> ControlError {
        ControlError(.badRequest, "\"\(key)\" must be \(expected)")
    }

    private func missing(_ key: String, _ what: String) -> ControlError {
        ControlError(.invalidArgument, "\(command) needs \"\(key)\" (\(what))")
    }

    /// A present, non-null value.
    private func present(_ key: String) -> JSONValue? {
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    public func string(_ key: String) throws(ControlError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let s) = value else { throw wrongType(key, "a string") }
        return s
    }

    public func string(_ key: String, required what: String) throws(ControlError) -> String {
        guard let s = try string(key) else { throw missing(key, what) }
        return s
    }

    /// A finite number within `range`.
    public func number(_ key: String, in range: ClosedRange<Double>) throws(ControlError) -> Double? {
        guard let value = present(key) else { return nil }
        guard let n = value.doubleValue else { throw wrongType(key, "a number") }
        guard n.isFinite, range.contains(n) else {
            throw ControlError(
                .invalidArgument,
                "\"\(key)\" must be from \(range.lowerBound.shortText) to \(range.upperBound.shortText)")
        }
        return n
    }

    public func number(_ key: String, in range: ClosedRange<Double>, required what: String) throws(ControlError)
        -> Double
    {
        guard let n = try number(key, in: range) else { throw missing(key, what) }
        return n
    }

    /// A whole number within `range` (`2.0` counts as 2; `2.5` does not).
    public func integer(_ key: String, in range: ClosedRange<Int>) throws(ControlError) -> Int? {
        guard let value = present(key) else { return nil }
        let n: Double
        switch value {
        case .int(let i): n = Double(i)
        case .double(let d) where d.rounded() == d: n = d
        default: throw wrongType(key, "a whole number")
        }
        guard n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            throw ControlError(.invalidArgument, "\"\(key)\" must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(n)
    }

    public func bool(_ key: String) throws(ControlError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let b) = value else { throw wrongType(key, "true or false") }
        return b
    }

    /// One of an enumeration's words.
    public func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(ControlError) -> T?
    where T.RawValue == String {
        guard let word = try string(key) else { return nil }
        guard let value = T(rawValue: word) else {
            throw ControlError(.invalidArgument, "\"\(key)\" must be one of \(T.choices), not \"\(word)\"")
        }
        return value
    }

    public func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type, required what: String)
        throws(ControlError) -> T
    where T.RawValue == String {
        guard let value = try choice(key, type) else { throw missing(key, what) }
        return value
    }

    /// An array of strings.
    public func strings(_ key: String) throws(ControlError) -> [String]? {
        guard let value = present(key) else { return nil }
        guard let array = value.arrayValue else { throw wrongType(key, "an array of strings") }
        let strings = array.compactMap(\.stringValue)
        guard strings.count == array.count else { throw wrongType(key, "an array of strings") }
        return strings
    }

    /// Any JSON value, required.
    public func value(_ key: String, required what: String) throws(ControlError) -> JSONValue {
        guard let value = present(key) else { throw missing(key, what) }
        return value
    }
}

extension Double {
    /// 60 rather than 60.0, for messages.
    var shortText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
