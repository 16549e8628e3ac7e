/// The `status` result (CONTRACTS.md section 2): what is shown, how the clock keeps time,
/// how the outputs, streams and links fare. The daemon builds one and encodes it for the
/// socket, HTTP and MQTT; clients decode it. A `@Nullable` optional is written as `null`
/// when unset, a plain one is left out.
public struct Status: Codable, Sendable, Equatable {
    /// The main layer's text, as on screen.
    public var text: String
    /// The main layer's text with its live fields expanded, when that differs from `text`.
    public var shown: String?
    /// A main-layer text waiting for the end of a loop or for its `at`.
    public var pending: Pending?
    public var fps: Double
    public var frames: Int
    public var dropped: Int
    /// Frames that came three or more frame periods late.
    public var stalls: Int
    /// Of the stalls, the ones signd caused.
    public var stallsOwn: Int
    /// signd's release, e.g. `0.9.0`.
    public var version: String
    /// The commit signd was built from, or `unknown`.
    public var commit: String
    /// Seconds since signd started, to the millisecond.
    public var uptime: Double
    /// The board's size (with a window on a larger canvas, the board's own).
    public var width: Int
    public var height: Int
    /// The sign's size, when the board is a window on it.
    public var canvas: [Int]?
    /// Where the board's window starts on the canvas, when it is one.
    public var viewport: [Int]?
    public var lateness: Lateness
    public var layers: [Layer]
    public var outputs: [OutputStatus]
    public var streams: [StreamStatus]
    public var memory: Memory
    /// The path `load-scene` showed; `null` when none.
    @Nullable public var scene: String? = nil
    /// The level the frame now shows, 0 to 1, to three decimals.
    public var brightness: Double
    public var display: DisplayState
    /// Only while a fade runs.
    public var brightnessFade: BrightnessFade?
    /// The notification showing; `null` when none.
    @Nullable public var notification: Notification? = nil
    /// Notifications waiting.
    public var queued: Int
    /// The variables `set-var` set.
    public var vars: [String: String]
    /// The playlist playing; `null` when none.
    @Nullable public var playlist: PlaylistStatus? = nil
    /// The configured playlists' names, in file order.
    public var playlists: [String]
    /// The web page; `null` without `[web]`.
    @Nullable public var web: WebStatus? = nil
    /// The MQTT link; `null` without `[mqtt]`.
    @Nullable public var mqtt: MQTTStatus? = nil
    /// `monotonic` or `realtime`.
    public var timeline: String
    /// On the realtime timeline: the steps of the system clock the frame grid was laid anew for.
    public var clockSteps: Int?
    /// On the realtime timeline: the last such step, in milliseconds.
    public var lastClockStep: Double?

    /// A text waiting to show; `from` in scene seconds, to the millisecond.
    public struct Pending: Codable, Sendable, Equatable {
        public var text: String
        public var from: Double

        public init(text: String, from: Double) {
            self.text = text
            self.from = from
        }
    }

    /// One layer: its id, and what applies of its text, pending text, zone and stop.
    public struct Layer: Codable, Sendable, Equatable {
        public var id: String
        public var text: String?
        /// The text with its live fields expanded, when that differs from `text`.
        public var shown: String?
        public var pending: Pending?
        /// A spotlight's zone: its name, or its index.
        public var zone: String?
        /// `true` while stopped; absent otherwise.
        public var stopped: Bool?

        public init(
            id: String, text: String? = nil, shown: String? = nil, pending: Pending? = nil, zone: String? = nil,
            stopped: Bool? = nil
        ) {
            self.id = id
            self.text = text
            self.shown = shown
            self.pending = pending
            self.zone = zone
            self.stopped = stopped
        }
    }

    /// How late frames came after their deadlines, in milliseconds, to the microsecond.
    public struct Lateness: Codable, Sendable, Equatable {
        public var p50: Double
        public var p99: Double
        public var max: Double

        public init(p50: Double, p99: Double, max: Double) {
            self.p50 = p50
            self.p99 = p99
            self.max = max
        }
    }

    /// signd's memory in MB, to hundredths: resident, and allocated and not freed.
    public struct Memory: Codable, Sendable, Equatable {
        public var rss: Double
        public var heap: Double

        public init(rss: Double, heap: Double) {
            self.rss = rss
            self.heap = heap
        }

        enum CodingKeys: String, CodingKey {
            case rss = "rss_mb"
            case heap = "heap_mb"
        }
    }

    /// A brightness fade running: its target and when it ends, in scene seconds.
    public struct BrightnessFade: Codable, Sendable, Equatable {
        public var to: Double
        public var until: Double

        public init(to: Double, until: Double) {
            self.to = to
            self.until = until
        }
    }

    /// The notification showing.
    public struct Notification: Codable, Sendable, Equatable {
        public var id: Int
        public var layer: String
        public var text: String
        public var priority: Int

        public init(id: Int, layer: String, text: String, priority: Int) {
            self.id = id
            self.layer = layer
            self.text = text
            self.priority = priority
        }
    }

    enum CodingKeys: String, CodingKey {
        case text, shown, pending, fps, frames, dropped, stalls
        case stallsOwn = "stalls_own"
        case version, commit
        case uptime = "uptime_s"
        case width, height, canvas, viewport
        case lateness = "lateness_ms"
        case layers, outputs, streams, memory, scene, brightness, display
        case brightnessFade = "brightness_fade"
        case notification, queued, vars, playlist, playlists, web, mqtt, timeline
        case clockSteps = "clock_steps"
        case lastClockStep = "last_clock_step_ms"
    }

    public init(
        text: String, fps: Double, frames: Int, dropped: Int, stalls: Int, stallsOwn: Int, version: String,
        commit: String, uptime: Double, width: Int, height: Int, lateness: Lateness, layers: [Layer],
        outputs: [OutputStatus], streams: [StreamStatus], memory: Memory, brightness: Double, display: DisplayState,
        queued: Int, timeline: String
    ) {
        self.text = text
        self.fps = fps
        self.frames = frames
        self.dropped = dropped
        self.stalls = stalls
        self.stallsOwn = stallsOwn
        self.version = version
        self.commit = commit
        self.uptime = uptime
        self.width = width
        self.height = height
        self.lateness = lateness
        self.layers = layers
        self.outputs = outputs
        self.streams = streams
        self.memory = memory
        self.brightness = brightness
        self.display = display
        self.queued = queued
        self.vars = [:]
        self.playlists = []
        self.timeline = timeline
    }
}

/// An output in `status` and `outputs`: name, type, state, and the counters of outputs
/// that keep them.
public struct OutputStatus: Codable, Sendable, Equatable {
    /// Whether an output or a stream delivers: `ok`, `waiting` (for a device or an
    /// address) or `error`.
    public enum State: String, Codable, Sendable, CaseIterable {
        case ok, waiting, error
    }

    public var name: String
    public var type: String
    public var state: State
    /// Absent for outputs that keep none.
    public var counters: Counters?

    /// What USB, network and shm outputs count.
    public struct Counters: Codable, Sendable, Equatable {
        public var framesSent: Int
        public var dropped: Int
        public var errors: Int
        public var reconnects: Int
        @Nullable public var lastError: String?
        /// The device in use: a USB device, a protocol and address, or the shm object's path.
        @Nullable public var device: String?

        public init(
            framesSent: Int, dropped: Int, errors: Int, reconnects: Int, lastError: String?, device: String?
        ) {
            self.framesSent = framesSent
            self.dropped = dropped
            self.errors = errors
            self.reconnects = reconnects
            self.lastError = lastError
            self.device = device
        }

        enum CodingKeys: String, CodingKey {
            case framesSent = "frames_sent"
            case dropped, errors, reconnects
            case lastError = "last_error"
            case device
        }
    }

    public init(name: String, type: String, state: OutputStatus.State, counters: Counters? = nil) {
        self.name = name
        self.type = type
        self.state = state
        self.counters = counters
    }

    enum CodingKeys: String, CodingKey { case name, type, state }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        type = try c.decode(String.self, forKey: .type)
        state = try c.decode(State.self, forKey: .state)
        let counted = try decoder.container(keyedBy: Counters.CodingKeys.self).contains(.framesSent)
        counters = counted ? try Counters(from: decoder) : nil
    }

    /// The counters sit beside the name, in the same object.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(type, forKey: .type)
        try c.encode(state, forKey: .state)
        try counters?.encode(to: encoder)
    }
}

/// A stream layer's receiver in `status`: its layer, where it listens, its state and what came.
public struct StreamStatus: Codable, Sendable, Equatable {
    /// The layer's id.
    public var layer: String
    /// `ddp`, `e131` or `artnet`.
    public var `protocol`: String
    /// `address:port`.
    public var listen: String
    public var state: OutputStatus.State
    /// Whether the layer shows frames now (else it is transparent).
    public var showing: Bool
    public var packets: Int
    public var frames: Int
    /// Packets refused, by reason: `short`, `oversized`, `wrong-vector`, `invalid`,
    /// `wrong-universe`, `low-priority`.
    public var rejected: [String: Int]
    /// Seconds since the last whole frame, to the millisecond; `null` before the first.
    @Nullable public var lastFrame: Double?
    @Nullable public var lastError: String?

    public init(
        layer: String, protocol: String, listen: String, state: OutputStatus.State, showing: Bool, packets: Int,
        frames: Int,
        rejected: [String: Int], lastFrame: Double?, lastError: String?
    ) {
        self.layer = layer
        self.protocol = `protocol`
        self.listen = listen
        self.state = state
        self.showing = showing
        self.packets = packets
        self.frames = frames
        self.rejected = rejected
        self.lastFrame = lastFrame
        self.lastError = lastError
    }

    enum CodingKeys: String, CodingKey {
        case layer, `protocol`, listen, state, showing, packets, frames, rejected
        case lastFrame = "last_frame_s"
        case lastError = "last_error"
    }
}

/// The playlist playing: its name, its item's text or scene path, the index from 0.
public struct PlaylistStatus: Codable, Sendable, Equatable {
    public var name: String
    public var item: String
    public var index: Int
    public var paused: Bool

    public init(name: String, item: String, index: Int, paused: Bool) {
        self.name = name
        self.item = item
        self.index = index
        self.paused = paused
    }
}

/// The web page's address and its live viewers now.
public struct WebStatus: Codable, Sendable, Equatable {
    public var listen: String
    public var viewers: Int

    public init(listen: String, viewers: Int) {
        self.listen = listen
        self.viewers = viewers
    }
}

/// The MQTT link: its state, the broker's URL, the topic, and the last error (`null` when none).
public struct MQTTStatus: Codable, Sendable, Equatable {
    /// `ok` while connected.
    public enum State: String, Codable, Sendable, CaseIterable {
        case ok, waiting
    }

    public var state: State
    public var broker: String
    public var topic: String
    @Nullable public var lastError: String?

    public init(state: State, broker: String, topic: String, lastError: String?) {
        self.state = state
        self.broker = broker
        self.topic = topic
        self.lastError = lastError
    }

    enum CodingKeys: String, CodingKey {
        case state, broker, topic
        case lastError = "last_error"
    }
}
