/// The control protocol's framing (docs/contracts.md, "The control protocol"): one JSON object per line.
public enum ControlMessage {
    /// Longest request line a server accepts, in bytes, not counting the newline.
    public static let maxRequestLength = 64 * 1024
}

/// The answer to one request: `{"id", "ok": true, "result"}` or `{"id", "ok": false, "error"}`.
public struct Response: Sendable, Equatable, CustomStringConvertible {
    public var id: JSONValue
    public var outcome: Result<[String: JSONValue], ControlError>

    public init(id: JSONValue, _ outcome: Result<[String: JSONValue], ControlError>) {
        self.id = id
        self.outcome = outcome
    }

    public static func success(id: JSONValue, _ result: [String: JSONValue] = [:]) -> Response {
        Response(id: id, .success(result))
    }

    public static func failure(id: JSONValue, _ error: ControlError) -> Response {
        Response(id: id, .failure(error))
    }

    /// The response as a JSON object.
    public var json: JSONValue {
        switch outcome {
        case .success(let result): return ["id": id, "ok": true, "result": .object(result)]
        case .failure(let error):
            return [
                "id": id, "ok": false,
                "error": ["code": .string(error.code.rawValue), "message": .string(error.message)],
            ]
        }
    }

    /// The response as one line, without the newline.
    public var line: String { json.jsonString }
    public var description: String { line }

    /// Reads a response object; one that is not a protocol object is an `internal` failure.
    public init(json value: JSONValue) {
        guard case .object(let object) = value, let ok = object["ok"]?.boolValue else {
            self.init(
                id: value["id"] ?? .null,
                .failure(ControlError(.internal, "the daemon sent a response that is not a protocol object")))
            return
        }
        let id = object["id"] ?? .null
        if ok {
            guard case .object(let result) = object["result"] ?? .object([:]) else {
                self.init(id: id, .failure(ControlError(.internal, "the daemon sent a result that is not an object")))
                return
            }
            self.init(id: id, .success(result))
        } else {
            let code = object["error"]?["code"]?.stringValue ?? "internal"
            let message = object["error"]?["message"]?.stringValue ?? "unknown error"
            self.init(id: id, .failure(ControlError(ControlError.Code(rawValue: code), message)))
        }
    }

    /// Reads a response line.
    public init(line: some Collection<UInt8>) {
        guard let value = try? JSONValue.parse(Array(line)) else {
            self.init(
                id: .null, .failure(ControlError(.internal, "the daemon sent a response that is not valid JSON")))
            return
        }
        self.init(json: value)
    }

    /// The result object, or the error thrown.
    public func result() throws(ControlError) -> JSONValue {
        switch outcome {
        case .success(let result): return .object(result)
        case .failure(let error): throw error
        }
    }
}

extension Response: Codable {
    public init(from decoder: Decoder) throws { self.init(json: try JSONValue(from: decoder)) }
    public func encode(to encoder: Encoder) throws { try json.encode(to: encoder) }
}

/// Something that happened, sent to subscribers between responses: `{"event": NAME, ...}`.
public struct ControlEvent: Sendable, Equatable, CustomStringConvertible {
    public var name: EventName
    public var fields: [String: JSONValue]

    public init(_ name: EventName, _ fields: [String: JSONValue] = [:]) {
        self.name = name
        self.fields = fields
    }

    public var json: JSONValue {
        var object = fields
        object["event"] = .string(name.rawValue)
        return .object(object)
    }

    /// The event as one line, without the newline.
    public var line: String { json.jsonString }
    public var description: String { line }
}
