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

        public var name: String {
            switch self {
            case .sharedMemory(let name, _, _): return name
            case .usb(let usb): return usb.name
            case .network(let network): return network.name
            }
        }
    }

    /// The live terminal preview.
    public struct Preview: Sendable, Equatable {
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

    /// `[[brightness]]`: the brightness through the day.
    public var brightnessSchedule: [BrightnessSchedule.Entry] = []
    /// `[[playlist]]`, in file order.
    public var playlists: [Playlist] = []
    /// `[[schedule]]`, in file order (the first that matches wins).
    public var schedule: [ShowSchedule.Entry] = []
    public var display = Display()
    public var control = Control()
    public var layers: [SceneLayer] = []
    public var outputs: [Output] = []
    /// The inputs of the scene's `stream` layers, each with the feed its layer shows.
    public var streams: [StreamInput] = []
    public var preview = Preview()
    public var state = State()
    /// Images text shows inline with `{icon:name}`.
    public var icons: [String: ImageBitmap] = [:]

    public init() {}

    /// The scene the config describes.
    public var scene: Scene {
        var scene = Scene(width: display.width, height: display.height, background: display.background, layers: layers)
        scene.icons = icons
        return scene
    }
}
