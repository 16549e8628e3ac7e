import Dispatch
import Foundation
import Logging
import SignConfig
import SignControl
import Synchronization

/// MQTT as a way in (docs/contracts.md, "MQTT"): a thin adapter between the broker and the
/// control plane. `cmd` takes a request object exactly as the socket does and its response
/// goes to `result`; `text/set` is the plain-text shorthand for `set-text`; `availability`
/// (with a last will), `text/state` and `state` are retained; events go to `event`. Group
/// topics `signd/group/<name>/...` act on every member. With discovery, Home Assistant's
/// configs are published on each connect, whenever Home Assistant comes online and when a
/// reload changed the playlists.
///
/// libmosquitto's own thread talks to the broker and reconnects with back-off; nothing here
/// runs on the frame clock, and a broker that is down, slow or gone is waited for.
final class MQTTBridge: Sendable {
    let config: DaemonConfig.MQTT
    private let plane: ControlPlane
    private let logger: Logger
    private let version: String
    private let client: MosquittoClient
    private let queue = DispatchQueue(label: "signd.mqtt")
    private let link = Mutex(Link())
    private let publisher = Mutex<(any ScheduledWork)?>(nil)
    /// What the publishing timer and the heartbeat's age are on.
    private let time: any SignClock
    private let events: EventForwarder
    private let router: Router
    /// Requests handed to the control plane and not yet answered.
    private let inFlight = Atomic<Int>(0)

    /// The link to the broker, as `status` reports it.
    private struct Link {
        var state = MQTTStatus.State.waiting
        var lastError: String?
        var connected = false
        /// What was last published to `state` and `text/state`, and when `state` was.
        var lastState: String?
        var lastStateAt = 0.0
        var lastText: String?
        var connects = 0
        /// The playlists the discovery configs last published offer (nil: none published).
        var discovered: [String]?
    }

    /// Publishes `state` at most once a second when it changed, and at least this often.
    static let stateHeartbeat = 30.0
    /// The largest payload taken on `cmd` or `text/set`, as on the socket.
    static let maxPayload = ControlMessage.maxRequestLength
    /// Requests carried out at once; more are answered `busy`, so a flood of publishes to
    /// `cmd` queues no work without bound.
    static let maxInFlight = 64

    /// Connects to `config`'s broker (with `password`, read from its file) on behalf of
    /// `plane`. Throws only for what a configuration cannot fix at run time (libmosquitto
    /// refusing the options); an unreachable broker is waited for. (libmosquitto's network
    /// thread reconnects with its own back-off, on the machine's time.)
    init(
        config: DaemonConfig.MQTT, password: String?, plane: ControlPlane, version: String, logger: Logger,
        time: any SignClock
    ) throws(MosquittoClient.Failure) {
        self.config = config
        self.time = time
        self.plane = plane
        self.logger = logger
        self.version = version
        let forwarder = EventForwarder()
        self.events = forwarder
        let router = Router()
        self.router = router
        let options = MosquittoClient.Options(
            host: config.host, port: Int32(config.port), clientID: "signd-\(config.nodeID)",
            username: config.username, password: password,
            tls: config.tls ? (config.caFile, config.certFile, config.keyFile) : nil,
            will: (config.topic + "/availability", "offline"))
        self.client = try MosquittoClient(options) { event in router.handle(event) }
        router.bridge.withLock { $0 = self }
        forwarder.target.withLock { $0 = self }
    }

    /// Starts connecting and publishing.
    func start() throws(MosquittoClient.Failure) {
        plane.events.subscribe(events, to: Set(EventName.allCases))
        let timer = time.scheduleRepeating(every: 1, leeway: .milliseconds(100), on: queue) { [weak self] in
            self?.publishState(force: false)
        }
        publisher.withLock { $0 = timer }
        try client.start()
    }

    /// Says `offline`, disconnects and stops.
    func stop() {
        publisher.withLock { $0?.cancel() }
        events.stop()
        router.bridge.withLock { $0 = nil }
        if link.withLock({ $0.connected }) {
            client.publish(config.topic + "/availability", "offline", qos: 1, retain: true)
        }
        client.stop()
    }

    /// The link for `status`.
    var status: MQTTStatus {
        let now = link.withLock { $0 }
        return MQTTStatus(state: now.state, broker: config.url, topic: config.topic, lastError: now.lastError)
    }

    // MARK: - From the broker

    private var groupPrefixes: [String] { config.groups.map { "signd/group/\($0)" } }

    fileprivate func handle(_ event: MosquittoClient.Event) {
        switch event {
        case .connected:
            let first = link.withLock { l -> Bool in
                l.state = .ok
                l.lastError = nil
                l.connected = true
                l.lastState = nil
                l.lastText = nil
                l.discovered = nil
                l.connects += 1
                return l.connects == 1
            }
            logger.info(
                first ? "mqtt connected" : "mqtt connected again",
                metadata: ["broker": "\(config.url)", "topic": "\(config.topic)"])
            for prefix in [config.topic] + groupPrefixes {
                client.subscribe(prefix + "/cmd", qos: 1)
                client.subscribe(prefix + "/text/set", qos: 1)
            }
            client.publish(config.topic + "/availability", "online", qos: 1, retain: true)
            if config.discovery {
                client.subscribe(HomeAssistantDiscovery.statusTopic, qos: 1)
                // The configs retained for this node, to replace ones an older signd left.
                client.subscribe(HomeAssistantDiscovery.configPattern(nodeID: config.nodeID), qos: 1)
                publishDiscovery()
            }
            time.async(on: queue) { self.publishState(force: true) }
        case .disconnected(let reason):
            let say = link.withLock { l -> Bool in
                // A broker that refused the connection closes it too: keep its reason.
                let refused = !l.connected && l.lastError?.hasPrefix("refused") == true && !reason.hasPrefix("refused")
                let said = l.connected || (l.lastError != reason && !refused)
                l.state = .waiting
                l.connected = false
                if !refused { l.lastError = reason }
                return said
            }
            if say {
                logger.warning(
                    "mqtt: \(reason); trying again (at most every 30 s)", metadata: ["broker": "\(config.url)"])
            }
        case .message(let topic, let payload):
            receive(topic: topic, payload: payload)
        }
    }

    private func receive(topic: String, payload: [UInt8]) {
        if topic == HomeAssistantDiscovery.statusTopic {
            if payload == Array("online".utf8) { publishDiscovery() }
            return
        }
        if topic.hasPrefix(HomeAssistantDiscovery.prefix + "/") {
            replaceIfOlder(topic: topic, payload: payload)
            return
        }
        guard payload.count <= Self.maxPayload else {
            let error = ControlError(
                .requestTooLarge, "a request is limited to \(ControlMessage.maxRequestLength) bytes")
            publishResult(Response.failure(id: .null, error))
            return
        }
        if topic.hasSuffix("/text/set") {
            guard let text = String(validating: payload, as: UTF8.self) else {
                publishResult(Response.failure(id: .null, ControlError(.badRequest, "text/set takes UTF-8 text")))
                return
            }
            carryOut(Request(Request.SetText(text: text)))
            return
        }
        do {
            carryOut(try Request(line: payload))
        } catch {
            publishResult(Response.failure(id: error.id, error.error))
        }
    }

    private func carryOut(_ request: Request) {
        guard inFlight.add(1, ordering: .relaxed).newValue <= Self.maxInFlight else {
            inFlight.subtract(1, ordering: .relaxed)
            let error = ControlError(.busy, "\(Self.maxInFlight) MQTT requests are already being carried out")
            publishResult(Response.failure(id: request.id, error))
            return
        }
        plane.handle(request, from: .mqtt) { [weak self] response in
            guard let self else { return }
            inFlight.subtract(1, ordering: .relaxed)
            publishResult(response)
            time.async(on: queue) { self.publishState(force: false) }
        }
    }

    // MARK: - To the broker

    private func publishResult(_ response: Response) {
        client.publish(config.topic + "/result", response.line, qos: 1)
    }

    fileprivate func publishEvent(_ event: ControlEvent) {
        guard link.withLock({ $0.connected }) else { return }
        client.publish(config.topic + "/event", event.line, qos: 0)
    }

    /// Publishes `text/state` when the main text changed and `state` when anything but its
    /// counters changed (at most once a second), or every `stateHeartbeat` seconds. Only
    /// while connected: a broker that is away gets the state when it is back, not a queue.
    private func publishState(force: Bool) {
        guard link.withLock({ $0.connected }) else { return }
        let status = plane.status()
        guard let state = try? JSONValue(encoding: status).jsonString else { return }
        let text = status.shown ?? status.text
        guard let fingerprint = try? JSONValue(encoding: Self.steady(status)).jsonString else { return }
        let now = Double(time.now()) / 1e9
        let (sendText, sendState) = link.withLock { l -> (Bool, Bool) in
            let sendText = l.lastText != text
            let sendState = force || l.lastState != fingerprint || now - l.lastStateAt >= Self.stateHeartbeat
            if sendText { l.lastText = text }
            if sendState {
                l.lastState = fingerprint
                l.lastStateAt = now
            }
            return (sendText, sendState)
        }
        if sendText { client.publish(config.topic + "/text/state", text, qos: 1, retain: true) }
        if sendState {
            client.publish(config.topic + "/state", state, qos: 1, retain: true)
        }
        // A reload that changed the playlists changes the select's options (or removes it).
        if config.discovery, let offered = link.withLock({ $0.discovered }), offered != status.playlists {
            publishDiscovery()
        }
    }

    /// What a change of `state` is judged by: `status` with what changes all the time
    /// (the frame counters, lateness, uptime, memory, and the web and MQTT links) set aside.
    static func steady(_ status: Status) -> Status {
        var steady = status
        steady.frames = 0
        steady.dropped = 0
        steady.stalls = 0
        steady.stallsOwn = 0
        steady.uptime = 0
        steady.lateness = Status.Lateness(p50: 0, p99: 0, max: 0)
        steady.memory = Status.Memory(rss: 0, heap: 0)
        steady.web = nil
        steady.mqtt = nil
        return steady
    }

    private var discovery: HomeAssistantDiscovery {
        HomeAssistantDiscovery(
            nodeID: config.nodeID, topic: config.topic, version: version, playlists: plane.show.playlistNames)
    }

    /// A config an older signd retained (its `unique_id` without the `signd_` prefix) is
    /// removed and published anew: Home Assistant then drops the old entity and its registry
    /// entry, so the new one gets the same entity id rather than one ending in `_2`.
    private func replaceIfOlder(topic: String, payload: [UInt8]) {
        guard let old = try? JSONValue.parse(payload), let id = old["unique_id"]?.stringValue,
            !HomeAssistantDiscovery.isCurrent(uniqueID: id)
        else { return }
        logger.info("mqtt: replacing a Home Assistant config from an older signd", metadata: ["topic": "\(topic)"])
        client.publish(topic, "", qos: 1, retain: true)
        if let current = discovery.configs.first(where: { $0.0 == topic }) {
            client.publish(topic, current.1.jsonString, qos: 1, retain: true)
        }
    }

    private func publishDiscovery() {
        let discovery = self.discovery
        let playlists = discovery.playlists
        for (topic, payload) in discovery.configs {
            client.publish(topic, payload.jsonString, qos: 1, retain: true)
        }
        // An empty retained config removes an entity the sign no longer has.
        for topic in discovery.removed { client.publish(topic, "", qos: 1, retain: true) }
        link.withLock { $0.discovered = playlists }
    }
}

/// Hands the control plane's events to the bridge, until it stops. (It holds the bridge
/// itself, not a closure: an optional closure copied out of a Mutex leaks.)
private final class EventForwarder: EventSubscriber {
    let target = Mutex<MQTTBridge?>(nil)
    private let gone = Mutex<[@Sendable () -> Void]>([])

    func deliver(_ event: ControlEvent) { target.withLock { $0 }?.publishEvent(event) }

    func whenGone(_ body: @escaping @Sendable () -> Void) { gone.withLock { $0.append(body) } }

    func stop() {
        target.withLock { $0 = nil }
        for body in gone.withLock({ $0 }) { body() }
    }
}

/// Hands libmosquitto's events to the bridge until it stops.
private final class Router: Sendable {
    let bridge = Mutex<MQTTBridge?>(nil)

    func handle(_ event: MosquittoClient.Event) { bridge.withLock { $0 }?.handle(event) }
}
