import SignControl
import Synchronization

/// Where a transport delivers events: a socket connection, or the MQTT bridge (its `event` topic).
public protocol EventSubscriber: AnyObject, Sendable {
    /// Hands an event over without blocking; a subscriber that cannot keep up drops itself.
    func deliver(_ event: ControlEvent)
    /// Calls `body` once, when the subscriber goes away.
    func whenGone(_ body: @escaping @Sendable () -> Void)
}

/// Delivers events (such as `loop-end`) to the subscribers that asked for them. Publishing
/// costs nothing when no one listens; a subscriber that goes away is forgotten.
public final class EventBus: Sendable {
    private struct Subscription {
        let subscriber: any EventSubscriber
        let events: Set<EventName>
    }

    private let subscriptions = Mutex<[ObjectIdentifier: Subscription]>([:])

    public init() {}

    /// Whether anyone listens for `event`.
    public func wants(_ event: EventName) -> Bool {
        subscriptions.withLock { s in s.values.contains { $0.events.contains(event) } }
    }

    /// From now on `subscriber` receives `events`.
    public func subscribe(_ subscriber: any EventSubscriber, to events: Set<EventName>) {
        let key = ObjectIdentifier(subscriber)
        subscriptions.withLock { $0[key] = Subscription(subscriber: subscriber, events: events) }
        subscriber.whenGone { [self] in
            _ = subscriptions.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// Sends `event` to every subscriber of its name.
    public func publish(_ event: ControlEvent) {
        let targets = subscriptions.withLock { s in
            s.values.filter { $0.events.contains(event.name) }.map(\.subscriber)
        }
        for subscriber in targets { subscriber.deliver(event) }
    }
}
