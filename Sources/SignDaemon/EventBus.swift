import NIOCore
import SignControl
import Synchronization

/// Delivers events (such as `loop-end`) to the control connections that subscribed to them,
/// as lines `{"event": ..., ...}` between their responses. Publishing costs nothing when no
/// one listens; a connection that closes is forgotten.
public final class EventBus: Sendable {
    /// Events a client may subscribe to.
    public static let names: Set<String> = ["loop-end"]

    private struct Subscriber {
        let channel: Channel
        let events: Set<String>
    }

    private let subscribers = Mutex<[ObjectIdentifier: Subscriber]>([:])

    public init() {}

    /// Whether anyone listens for `event`.
    public func wants(_ event: String) -> Bool {
        subscribers.withLock { s in s.values.contains { $0.events.contains(event) } }
    }

    func subscribe(_ channel: Channel, to events: Set<String>) {
        let key = ObjectIdentifier(channel)
        subscribers.withLock { $0[key] = Subscriber(channel: channel, events: events) }
        channel.closeFuture.whenComplete { [self] _ in
            _ = subscribers.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// Sends `{"event": name, ...fields}` to every subscriber of `name`.
    public func publish(_ name: String, _ fields: [String: JSONValue]) {
        let targets = subscribers.withLock { s in s.values.filter { $0.events.contains(name) }.map(\.channel) }
        guard !targets.isEmpty else { return }
        var object = fields
        object["event"] = .string(name)
        let line = JSONValue.object(object).jsonString + "\n"
        for channel in targets {
            var buffer = channel.allocator.buffer(capacity: line.utf8.count)
            buffer.writeString(line)
            channel.writeAndFlush(buffer, promise: nil)
        }
    }
}
