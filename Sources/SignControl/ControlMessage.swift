/// The control protocol's framing (CONTRACTS.md section 2): one JSON object per line,
/// requests `{"id", "cmd", ...arguments}`, responses `{"id", "ok", "result" | "error"}`.
public enum ControlMessage {
    /// Longest request line a server accepts, in bytes, not counting the newline.
    public static let maxRequestLength = 64 * 1024

    /// A parsed request: its id (echoed back), command and arguments.
    public struct Request: Sendable, Hashable {
        public let id: JSONValue
        public let command: String
        /// Every field except `id` and `cmd`.
        public let arguments: [String: JSONValue]

        public init(id: JSONValue = .null, command: String, arguments: [String: JSONValue] = [:]) {
            self.id = id
            self.command = command
            self.arguments = arguments
        }

        /// The request as one line, without the newline.
        public var line: String {
            var object = arguments
            object["cmd"] = .string(command)
            if id != .null { object["id"] = id }
            return JSONValue.object(object).jsonString
        }
    }

    /// Parses a request line; a line that is not a JSON object with a string `cmd` is a
    /// `bad-request` error carrying whatever id could be found.
    public static func parseRequest(_ line: some Collection<UInt8>) throws(RejectedRequest) -> Request {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(line))
        } catch {
            throw RejectedRequest(id: .null, error: ControlError(.badRequest, "the request is not valid JSON"))
        }
        guard case .object(var object) = value else {
            throw RejectedRequest(id: .null, error: ControlError(.badRequest, "the request must be a JSON object"))
        }
        let id = object.removeValue(forKey: "id") ?? .null
        guard let cmd = object.removeValue(forKey: "cmd") else {
            throw RejectedRequest(id: id, error: ControlError(.badRequest, "the request has no \"cmd\""))
        }
        guard case .string(let command) = cmd else {
            throw RejectedRequest(id: id, error: ControlError(.badRequest, "\"cmd\" must be a string"))
        }
        return Request(id: id, command: command, arguments: object)
    }

    /// A request refused before it reached a command, with the id to echo.
    public struct RejectedRequest: Error, Sendable {
        public let id: JSONValue
        public let error: ControlError
    }

    /// A success response line (no newline).
    public static func success(id: JSONValue, result: [String: JSONValue]) -> String {
        JSONValue.object(["id": id, "ok": true, "result": .object(result)]).jsonString
    }

    /// A failure response line (no newline).
    public static func failure(id: JSONValue, _ error: ControlError) -> String {
        JSONValue.object([
            "id": id, "ok": false,
            "error": ["code": .string(error.code.rawValue), "message": .string(error.message)],
        ]).jsonString
    }

    /// Reads a response: the result object on success, the error otherwise.
    public static func parseResponse(_ line: some Collection<UInt8>) throws(ControlError) -> JSONValue {
        guard let value = try? JSONValue.parse(Array(line)), case .object(let object) = value,
            let ok = object["ok"]?.boolValue
        else { throw ControlError(.internal, "the daemon sent a response that is not a protocol object") }
        if ok { return object["result"] ?? .object([:]) }
        let code = object["error"]?["code"]?.stringValue ?? "internal"
        let message = object["error"]?["message"]?.stringValue ?? "unknown error"
        throw ControlError(ControlError.Code(rawValue: code), message)
    }
}
