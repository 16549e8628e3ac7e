import NIOCore
import SignControl
import SignOutput
import SignScene
import SignTiming
import Synchronization

/// Carries out control requests against the running daemon and writes their responses.
/// Each request is handled quickly on the caller's thread; none touches the frame clock's queue.
public final class CommandHandler: Sendable {
    /// What the daemon does beyond the scene: reload its config, note a changed text.
    public struct Hooks: Sendable {
        /// Reloads the config; the problems found (none: applied).
        public var reload: @Sendable () -> [ConfigProblem] = { [] }
        /// Called after a text changed (to save state and tell systemd).
        public var textChanged: @Sendable () -> Void = {}
        /// The outputs now.
        public var outputs: @Sendable () -> [any FrameSink] = { [] }
        /// Where `subscribe` registers a connection.
        public var events: EventBus?
        /// Shows the layers (and background) of another config file; the problems found.
        public var loadScene: @Sendable (String) -> [ConfigProblem] = { _ in [] }

        public init() {}
    }

    let store: SceneStore
    let clock: FrameClock
    let startedAt: UInt64
    private let installed: Mutex<Hooks>
    var hooks: Hooks { installed.withLock { $0 } }

    public init(store: SceneStore, clock: FrameClock, startedAt: UInt64, hooks: Hooks = Hooks()) {
        self.store = store
        self.clock = clock
        self.startedAt = startedAt
        self.installed = Mutex(hooks)
    }

    /// Connects the handler to the daemon that owns it, once the daemon exists.
    public func install(_ hooks: Hooks) { installed.withLock { $0 = hooks } }

    /// The response line (without newline) to one request line; `channel` is the connection
    /// it came on, for `subscribe`.
    public func respond(to line: some Collection<UInt8>, channel: Channel? = nil) -> String {
        let request: ControlMessage.Request
        do {
            request = try ControlMessage.parseRequest(line)
        } catch {
            return ControlMessage.failure(id: error.id, error.error)
        }
        do {
            if request.command == "subscribe" {
                return ControlMessage.success(id: request.id, result: try subscribe(request, channel: channel))
            }
            return ControlMessage.success(id: request.id, result: try execute(request))
        } catch {
            return ControlMessage.failure(id: request.id, error)
        }
    }

    func execute(_ request: ControlMessage.Request) throws(ControlError) -> [String: JSONValue] {
        switch request.command {
        case "ping":
            return [:]
        case "status":
            return status()
        case "outputs":
            let outputs = hooks.outputs()
            return [
                "outputs": .array(outputs.map(Self.describe)),
                "devices": .array(try USBDeviceList.devices(outputs: outputs)),
            ]
        case "set-text":
            let args = request.arguments
            guard let textValue = args["text"] else { throw ControlError(.invalidArgument, "set-text needs \"text\"") }
            guard case .string(let text) = textValue else {
                throw ControlError(.badRequest, "\"text\" must be a string")
            }
            var layer: String?
            if let value = args["layer"] {
                guard case .string(let id) = value else {
                    throw ControlError(.badRequest, "\"layer\" must be a string")
                }
                layer = id
            }
            var when = PreparedScene.When.now
            if let value = args["when"] {
                guard case .string(let w) = value else { throw ControlError(.badRequest, "\"when\" must be a string") }
                guard let parsed = PreparedScene.When(rawValue: w) else {
                    throw ControlError(.invalidArgument, "\"when\" must be \"now\" or \"loop-end\", not \"\(w)\"")
                }
                when = parsed
            }
            try store.setText(text, layer: layer, when: when, now: clock.sceneTime(), transition: try transition(args))
            hooks.textChanged()
            return [:]
        case "select-zone":
            let args = request.arguments
            let zone: String
            switch args["zone"] {
            case .string(let name)?: zone = name
            case .int(let n)?: zone = String(n)
            case nil: throw ControlError(.invalidArgument, "select-zone needs \"zone\" (a name or an index)")
            default: throw ControlError(.badRequest, "\"zone\" must be a string or an integer")
            }
            var layer: String?
            if let value = args["layer"] {
                guard case .string(let id) = value else {
                    throw ControlError(.badRequest, "\"layer\" must be a string")
                }
                layer = id
            }
            try store.selectZone(zone, layer: layer, now: clock.sceneTime())
            hooks.textChanged()
            return [:]
        case "set-property":
            let args = request.arguments
            guard case .string(let layer)? = args["layer"] else {
                throw ControlError(.invalidArgument, "set-property needs \"layer\" (an id)")
            }
            guard case .string(let keyPath)? = args["key_path"] else {
                throw ControlError(.invalidArgument, "set-property needs \"key_path\" (e.g. \"opacity\")")
            }
            guard let value = args["value"] else {
                throw ControlError(.invalidArgument, "set-property needs \"value\"")
            }
            try store.setProperty(keyPath, to: value, layer: layer, now: clock.sceneTime())
            return [:]
        case "stop", "start":
            var layer: String?
            if let value = request.arguments["layer"] {
                guard case .string(let id) = value else {
                    throw ControlError(.badRequest, "\"layer\" must be a string")
                }
                layer = id
            }
            try store.setRunning(request.command == "start", layer: layer, now: clock.sceneTime())
            return [:]
        case "load-scene":
            guard case .string(let path)? = request.arguments["path"] else {
                throw ControlError(.invalidArgument, "load-scene needs \"path\" (a config file)")
            }
            let problems = hooks.loadScene(path)
            guard problems.isEmpty else {
                throw ControlError(
                    .invalidArgument,
                    "the scene was not loaded:\n" + problems.map(\.description).joined(separator: "\n"))
            }
            hooks.textChanged()
            return [:]
        case "reload":
            let problems = hooks.reload()
            guard problems.isEmpty else {
                throw ControlError(
                    .invalidArgument,
                    "the config was not reloaded:\n" + problems.map(\.description).joined(separator: "\n"))
            }
            return [:]
        default:
            throw ControlError(
                .unknownCommand,
                "no command \"\(request.command)\" (commands: ping, status, outputs, set-text, select-zone, set-property, stop, start, load-scene, reload, subscribe)"
            )
        }
    }

    /// The optional `transition` (with `duration` and `timing_function`) of a `set-text`.
    func transition(_ args: [String: JSONValue]) throws(ControlError) -> Transition? {
        guard let value = args["transition"] else { return nil }
        guard case .string(let name) = value else { throw ControlError(.badRequest, "\"transition\" must be a string") }
        guard let kind = Transition.Kind(rawValue: name) else {
            throw ControlError(
                .invalidArgument,
                "\"transition\" must be one of \(Transition.Kind.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\""
            )
        }
        var transition = Transition(kind: kind)
        if let duration = args["duration"] {
            guard let seconds = duration.doubleValue else {
                throw ControlError(.badRequest, "\"duration\" must be a number")
            }
            guard (0...60).contains(seconds) else {
                throw ControlError(.invalidArgument, "\"duration\" must be from 0 to 60 seconds")
            }
            transition.duration = seconds
        }
        if let timing = args["timing_function"] {
            guard case .string(let text) = timing else {
                throw ControlError(.badRequest, "\"timing_function\" must be a string")
            }
            guard let function = TimingFunction(parsing: text) else {
                throw ControlError(.invalidArgument, "\"\(text)\" is not a timing function")
            }
            transition.timingFunction = function
        }
        return transition
    }

    /// `subscribe`: event lines for `events` (default: all) on this connection from now on.
    func subscribe(_ request: ControlMessage.Request, channel: Channel?) throws(ControlError) -> [String: JSONValue] {
        guard let bus = hooks.events, let channel else {
            throw ControlError(.internal, "events are not available here")
        }
        var events = EventBus.names
        if let value = request.arguments["events"] {
            guard let list = value.arrayValue?.compactMap(\.stringValue), list.count == value.arrayValue?.count else {
                throw ControlError(.badRequest, "\"events\" must be an array of event names")
            }
            let unknown = Set(list).subtracting(EventBus.names)
            guard unknown.isEmpty else {
                throw ControlError(
                    .invalidArgument,
                    "no event \(unknown.sorted().joined(separator: ", ")) (events: \(EventBus.names.sorted().joined(separator: ", ")))"
                )
            }
            events = Set(list)
        }
        bus.subscribe(channel, to: events)
        return ["events": .array(events.sorted().map { .string($0) })]
    }

    /// An output in `status`: name, type, state, and the counters of outputs that keep them.
    static func describe(_ output: any FrameSink) -> JSONValue {
        var entry: [String: JSONValue] = [
            "name": .string(output.name), "type": .string(output.kind), "state": .string(output.state.rawValue),
        ]
        if let c = output.counters {
            entry["frames_sent"] = .int(Int64(c.framesSent))
            entry["dropped"] = .int(Int64(c.dropped))
            entry["errors"] = .int(Int64(c.errors))
            entry["reconnects"] = .int(Int64(c.reconnects))
            entry["last_error"] = c.lastError.map { .string($0) } ?? .null
            entry["device"] = c.device.map { .string($0) } ?? .null
        }
        return .object(entry)
    }

    /// The `status` result: what is shown, how the clock keeps time, how the outputs fare.
    func status() -> [String: JSONValue] {
        let scene = store.scene
        let now = clock.sceneTime()
        let stats = clock.stats
        let layers: [JSONValue] = scene.scene.layers.indices.map { i in
            var entry: [String: JSONValue] = ["id": .string(scene.scene.layers[i].id)]
            if scene.scene.layers[i].text != nil { entry["text"] = .string(scene.text(ofLayer: i, at: now)) }
            if case .spotlight(let s) = scene.scene.layers[i] {
                entry["zone"] = .string(s.zones[s.selected].name ?? String(s.selected))
            }
            return .object(entry)
        }
        func ms(_ ns: UInt64) -> JSONValue { .double((Double(ns) / 1e3).rounded() / 1e3) }
        return [
            "text": .string(
                scene.scene.mainLayerID.flatMap(scene.slotIndex(of:)).map { scene.text(ofLayer: $0, at: now) } ?? ""),
            "fps": .double(clock.fps),
            "frames": .int(Int64(stats.frames)),
            "dropped": .int(Int64(stats.dropped)),
            "uptime_s": .double((Double(MonotonicClock.now() - startedAt) / 1e6).rounded() / 1e3),
            "width": .int(Int64(scene.scene.width)),
            "height": .int(Int64(scene.scene.height)),
            "lateness_ms": [
                "p50": ms(stats.lateness.quantile(0.5)), "p99": ms(stats.lateness.quantile(0.99)),
                "max": ms(stats.lateness.max),
            ],
            "layers": .array(layers),
            "outputs": .array(hooks.outputs().map(Self.describe)),
        ]
    }
}
