import Logging
import SignControl

/// Wraps a log handler so that control characters in a message or a metadata value (a text
/// or a path a client chose) are written escaped: a newline cannot forge a log line, and an
/// escape sequence cannot reach the terminal of whoever reads the log.
public struct EscapingLogHandler<Wrapped: LogHandler>: LogHandler {
    public var wrapped: Wrapped

    public init(_ wrapped: Wrapped) { self.wrapped = wrapped }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue.mapValues(Self.escaped) }
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue.map(Self.escaped) }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(event.message.description.escapingControlCharacters)"
        event.metadata = event.metadata?.mapValues(Self.escaped)
        wrapped.log(event: event)
    }

    static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let s): return .string(s.escapingControlCharacters)
        case .stringConvertible(let c): return .string(c.description.escapingControlCharacters)
        case .array(let a): return .array(a.map(escaped))
        case .dictionary(let d): return .dictionary(d.mapValues(escaped))
        }
    }
}
