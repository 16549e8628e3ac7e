/// A failed request as the control protocol reports it: a code programs act on and a
/// message for a person.
public struct ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An error code of the control protocol; new codes may be added without breaking clients.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not JSON, not an object, or a field of the wrong type.
        public static let badRequest = Code(rawValue: "bad-request")
        public static let unknownCommand = Code(rawValue: "unknown-command")
        /// A well-formed argument with a value that cannot be used.
        public static let invalidArgument = Code(rawValue: "invalid-argument")
        /// No such layer, output or zone.
        public static let notFound = Code(rawValue: "not-found")
        /// A request line over 64 KiB; the server closes the connection after answering.
        public static let requestTooLarge = Code(rawValue: "request-too-large")
        /// Too many clients; the server closes the connection after answering.
        public static let busy = Code(rawValue: "busy")
        public static let `internal` = Code(rawValue: "internal")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
