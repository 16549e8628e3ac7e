/// One command of the control protocol with its typed arguments, read from and written to
/// the JSON of a request (docs/contracts.md, "The control protocol").
public protocol ControlCommand: Sendable {
    /// The `cmd` word.
    static var name: String { get }
    /// Reads the arguments, naming the field and the problem when they are wrong.
    init(_ arguments: Arguments) throws(ControlError)
    /// The arguments as request fields (without `cmd`, `id` and `at`).
    var fields: [String: JSONValue] { get }
}

/// A request: its id (echoed in the response), an optional `at` (Unix time at which it
/// takes effect) and the command. The one request type of every transport.
public struct Request: Sendable, CustomStringConvertible {
    public var id: JSONValue
    /// Unix time in seconds at which the request takes effect; `nil` is now.
    public var at: Double?
    public var command: any ControlCommand

    public init(id: JSONValue = .null, at: Double? = nil, _ command: any ControlCommand) {
        self.id = id
        self.at = at
        self.command = command
    }

    /// The command's word.
    public var name: String { type(of: command).name }

    /// The request as a JSON object.
    public var json: JSONValue {
        var object = command.fields
        object["cmd"] = .string(name)
        if id != .null { object["id"] = id }
        if let at { object["at"] = .double(at) }
        return .object(object)
    }

    /// The request as one line, without the newline.
    public var line: String { json.jsonString }
    public var description: String { line }

    /// Every command, by its word: what a request's `cmd` may be.
    public static let commands: [String: any ControlCommand.Type] = Dictionary(
        uniqueKeysWithValues: ([
            Ping.self, Status.self, Outputs.self, SetText.self, SelectZone.self, SetProperty.self, Stop.self,
            Start.self, LoadScene.self, Subscribe.self, Reload.self, Notify.self, Dismiss.self, SetVar.self,
            Playlist.self, SetBrightness.self, Display.self,
        ] as [any ControlCommand.Type]).map { ($0.name, $0) })

    /// A request refused before it reached a command, with the id to echo.
    public struct Rejected: Error, Sendable {
        public let id: JSONValue
        public let error: ControlError

        public init(id: JSONValue, error: ControlError) {
            self.id = id
            self.error = error
        }
    }

    /// Reads a request from a JSON value.
    public init(json value: JSONValue) throws(Rejected) {
        guard case .object(var object) = value else {
            throw Rejected(id: .null, error: ControlError(.badRequest, "the request must be a JSON object"))
        }
        let id = object.removeValue(forKey: "id") ?? .null
        func reject(_ code: ControlError.Code, _ message: String) -> Rejected {
            Rejected(id: id, error: ControlError(code, message))
        }
        guard let cmd = object.removeValue(forKey: "cmd") else {
            throw reject(.badRequest, "the request has no \"cmd\"")
        }
        guard case .string(let word) = cmd else { throw reject(.badRequest, "\"cmd\" must be a string") }
        guard let type = Self.commands[word] else {
            throw reject(
                .unknownCommand,
                "no command \"\(word)\" (commands: \(Self.commands.keys.sorted().joined(separator: ", ")))")
        }
        var at: Double?
        if let value = object.removeValue(forKey: "at"), value != .null {
            guard let seconds = value.doubleValue else { throw reject(.badRequest, "\"at\" must be a number") }
            guard seconds.isFinite, seconds >= 0, seconds < 1e11 else {
                throw reject(.invalidArgument, "\"at\" must be a Unix time in seconds")
            }
            at = seconds
        }
        do {
            self.init(id: id, at: at, try type.init(Arguments(command: word, fields: object)))
        } catch {
            throw Rejected(id: id, error: error)
        }
    }

    /// Reads a request line (one JSON object, no newline).
    public init(line: some Collection<UInt8>) throws(Rejected) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(line))
        } catch {
            throw Rejected(id: .null, error: ControlError(.badRequest, "the request is not valid JSON"))
        }
        try self.init(json: value)
    }
}

extension Request: Codable {
    public init(from decoder: Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(json: value)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.error.message))
        }
    }

    public func encode(to encoder: Encoder) throws { try json.encode(to: encoder) }
}

extension Request: Equatable {
    public static func == (a: Request, b: Request) -> Bool { a.json == b.json }
}

/// Builds a command's fields, leaving out what is not set.
struct Fields {
    var object: [String: JSONValue] = [:]

    subscript(key: String) -> String? {
        get { nil }
        set { if let newValue { object[key] = .string(newValue) } }
    }
    subscript(key: String) -> Double? {
        get { nil }
        set { if let newValue { object[key] = .double(newValue) } }
    }
    subscript(key: String) -> Int? {
        get { nil }
        set { if let newValue { object[key] = .int(Int64(newValue)) } }
    }
    subscript<T: RawRepresentable>(key: String) -> T? where T.RawValue == String {
        get { nil }
        set { if let newValue { object[key] = .string(newValue.rawValue) } }
    }
}
