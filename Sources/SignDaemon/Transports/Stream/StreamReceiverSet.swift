import Logging
import SignConfig
import Synchronization

/// The receivers of the stream layers on screen. A reload or a loaded scene hands over its
/// inputs: a receiver whose input is unchanged keeps its socket and sends to the new
/// layer's feed; the others stop before new ones bind, so a layer that moved to a port
/// another one left can take it.
public final class StreamReceiverSet: Sendable {
    private let receivers = Mutex<[StreamReceiver]>([])
    private let events: EventBus
    private let logger: Logger

    public init(events: EventBus, logger: Logger) {
        self.events = events
        self.logger = logger
    }

    /// The receivers now, in the order of their layers.
    public var all: [StreamReceiver] { receivers.withLock { $0 } }

    /// Receives for `inputs` from now on.
    public func update(_ inputs: [StreamInput]) {
        let old = receivers.withLock { $0 }
        var kept: [StreamReceiver?] = inputs.map { input in old.first { $0.input == input } }
        let retired = old.filter { r in !kept.contains { $0 === r } }
        retired.forEach { $0.stop() }
        for (i, input) in inputs.enumerated() {
            if let receiver = kept[i] {
                receiver.retarget(input.feed)
            } else {
                kept[i] = StreamReceiver(input, events: events, logger: logger)
            }
        }
        receivers.withLock { $0 = kept.compactMap { $0 } }
    }

    /// Stops every receiver.
    public func stop() { update([]) }
}
