import Glibc
import SignGraphics
import SignScene

/// Everything `signd run` is configured with, decoded and checked from a TOML file.
public struct DaemonConfig: Sendable, Equatable {
    /// The board: size, frame rate and background.
    public struct Display: Sendable, Equatable {
        public var width = 128
        public var height = 32
        public var fps = 60.0
        public var background = Color.black
        /// Whether outputs show black when signd stops (otherwise the last frame stays).
        public var blankOnStop = true
        /// Every LED output's and the preview's brightness, 0 to 1 in linear light, until
        /// `set-brightness` changes it.
        public var brightness = 1.0
        /// The IANA time zone times of day are read in (`[[brightness]]`); nil: the system's.
        public var timeZone: String?
        /// `canvas = [w, h]`: the whole sign, of which this board shows the `width` x `height`
        /// window at `viewport`; nil: the board is the whole sign.
        public var canvas: Size2?
        /// This board's top-left corner on the canvas.
        public var viewport = Size2(0, 0)

        /// A pair of whole numbers (a size or a position).
        public struct Size2: Sendable, Equatable {
            public var a: Int
            public var b: Int
            public init(_ a: Int, _ b: Int) { (self.a, self.b) = (a, b) }
        }

        /// `timeline = "realtime"`: the epoch (Unix seconds) frame 0 is due at on CLOCK_REALTIME,
        /// so boards with synchronised clocks show the same frame at the same instant; nil:
        /// the monotonic timeline, from when signd started.
        public var realtimeEpoch: Double?
    }

    /// Where run-time changes are saved.
    public struct State: Sendable, Equatable {
        /// The state directory; `$STATE_DIRECTORY` (set by systemd's StateDirectory=) wins.
        public var directory: String?
    }

    /// The control socket, when signd creates it itself.
    public struct Control: Sendable, Equatable {
        public var socket: String?
        /// Permission bits of the socket file.
        public var mode: UInt32 = 0o660
        /// Group owning the socket file.
        public var group: String?
        /// Directories `load-scene` may read from (absolute); empty: the config's directory.
        public var sceneDirs: [String] = []
    }

    /// An output frames are sent to.
    public enum Output: Sendable, Equatable {
        /// A shared-memory framebuffer `/dev/shm/signd.<name>`.
        case sharedMemory(name: String, mode: UInt32, group: String?)
        /// A USB LED controller (Fadecandy, Framework LED Matrix, custom bulk panel).
        case usb(USBOutputConfig)
        /// A network LED controller (DDP, E1.31, Art-Net, OPC).
        case network(NetworkOutputConfig)
        /// An LED strip or DMX universe on a serial port or an SPI device.
        case strip(StripOutputConfig)

        public var name: String {
            switch self {
            case .sharedMemory(let name, _, _): return name
            case .usb(let usb): return usb.name
            case .network(let network): return network.name
            case .strip(let strip): return strip.name
            }
        }
    }

    /// The live terminal preview.
    public struct Preview: Sendable, Equatable {
        /// `terminal = "auto" | "on" | "off"` (or true / false).
        public enum Mode: String, Sendable, CaseIterable {
            /// On when standard output is a terminal.
            case auto
            case on
            case off
        }
        public var terminal = Mode.auto
        /// Most redraws per second.
        public var fps = 30.0
    }

    /// The web page and its API (docs/contracts.md, "The web API").
    public struct Web: Sendable, Equatable {
        /// The numeric IP address to listen on (`127.0.0.1`, `::1`, `0.0.0.0`, `::`).
        public var host: String
        public var port: UInt16
        /// The file holding the token clients must present; nil only on a loopback address.
        public var tokenFile: String?

        public init(host: String, port: UInt16, tokenFile: String? = nil) {
            self.host = host
            self.port = port
            self.tokenFile = tokenFile
        }

        /// `host:port`, with an IPv6 host in brackets.
        public var listen: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

        /// Whether only this machine can connect: 127.0.0.0/8 or ::1.
        public var isLoopback: Bool { Self.isLoopback(host) }

        /// Whether the numeric address `host` is a loopback address.
        public static func isLoopback(_ host: String) -> Bool {
            var v4 = in_addr()
            if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
            var v6 = in6_addr()
            if inet_pton(AF_INET6, host, &v6) == 1 {
                return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
            }
            return false
        }

        /// Splits `"host:port"` or `"[v6]:port"` into a numeric address and a port; nil when
        /// it is neither.
        public static func parseListen(_ listen: String) -> (host: String, port: UInt16)? {
            let host: Substring, port: Substring
            if listen.hasPrefix("[") {
                guard let close = listen.firstIndex(of: "]"), listen[listen.index(after: close)...].hasPrefix(":")
                else { return nil }
                host = listen[listen.index(after: listen.startIndex)..<close]
                port = listen[listen.index(close, offsetBy: 2)...]
            } else {
                guard let colon = listen.lastIndex(of: ":"), !listen[..<colon].contains(":") else { return nil }
                host = listen[..<colon]
                port = listen[listen.index(after: colon)...]
            }
            guard let number = UInt16(port), number > 0 else { return nil }
            var v4 = in_addr(), v6 = in6_addr()
            let text = String(host)
            guard inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
            return (text, number)
        }
    }

    /// MQTT (docs/contracts.md, "MQTT").
    public struct MQTT: Sendable, Equatable {
        public var host: String
        public var port: Int
        /// `mqtts://`: TLS.
        public var tls: Bool
        /// This sign's name: the client id, the discovery ids, the default topic.
        public var nodeID: String
        /// The topic prefix: `signd/<node_id>` by default.
        public var topic: String
        public var username: String?
        public var passwordFile: String?
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?
        /// Groups whose `signd/group/<name>/...` topics this sign obeys too.
        public var groups: [String] = []
        /// Home Assistant discovery under `homeassistant/`.
        public var discovery = false

        public init(host: String, port: Int, tls: Bool, nodeID: String) {
            self.host = host
            self.port = port
            self.tls = tls
            self.nodeID = nodeID
            self.topic = "signd/\(nodeID)"
        }

        /// The broker as a URL, without credentials.
        public var url: String {
            "\(tls ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }

        /// The default node id: the host name, lowercased, with only `[a-z0-9_-]`.
        public static var defaultNodeID: String {
            var name = [CChar](repeating: 0, count: 256)
            gethostname(&name, name.count - 1)
            let host = String(cString: name).lowercased().split(separator: ".").first.map(String.init) ?? ""
            let kept = String(host.unicodeScalars.filter { isNameScalar($0) }.map(Character.init))
            return kept.isEmpty ? "signd" : kept
        }

        /// Whether `name` may be a node id or group name: 1 to 64 of `[a-z0-9_-]`.
        public static func isName(_ name: String) -> Bool {
            (1...64).contains(name.unicodeScalars.count) && name.unicodeScalars.allSatisfy(isNameScalar)
        }

        static func isNameScalar(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
        }
    }

    /// `[[brightness]]`: the brightness through the day.
    public var brightnessSchedule: [BrightnessEntry] = []
    /// `[[playlist]]`, in file order.
    public var playlists: [Playlist] = []
    /// `[[schedule]]`, in file order (the first that matches wins).
    public var schedule: [ScheduleEntry] = []
    public var display = Display()
    public var control = Control()
    public var layers: [SceneLayer] = []
    public var outputs: [Output] = []
    /// The inputs of the scene's `stream` layers, each with the feed its layer shows.
    public var streams: [StreamInput] = []
    public var preview = Preview()
    /// `[web]`: nil, no web server.
    public var web: Web?
    /// `[mqtt]`: nil, no MQTT.
    public var mqtt: MQTT?
    public var state = State()
    /// Images text shows inline with `{icon:name}`.
    public var icons: [String: AnimatedImage] = [:]

    public init() {}

    /// The scene the config describes.
    public var scene: Scene {
        let size = display.canvas ?? Display.Size2(display.width, display.height)
        var scene = Scene(width: size.a, height: size.b, background: display.background, layers: layers)
        scene.icons = icons
        return scene
    }
}
