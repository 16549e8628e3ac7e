import SignOutput
import SignWire

/// A network LED controller output as configured (docs/configuration.md, "Network outputs"): the protocol and
/// its fields, where it sends, how the frame maps onto its LEDs and how colour is corrected.
public struct NetworkOutputConfig: Sendable, Equatable {
    /// The protocol, as `type` names it.
    public enum Wire: String, Sendable, CaseIterable {
        case ddp, e131, artnet, opc
        case flaschenTaschen = "flaschen-taschen"
        /// Raw Ethernet to a Colorlight 5A-75 card: an interface, no host or port.
        case colorlight

        /// The protocol's well-known port.
        public var defaultPort: UInt16 {
            switch self {
            case .ddp: return DDP.port
            case .e131: return E131.port
            case .artnet: return ArtNet.port
            case .opc: return OPC.port
            case .flaschenTaschen: return FlaschenTaschen.port
            case .colorlight: return 0
            }
        }
    }

    public var name: String
    public var wire: Wire
    /// Where to send; nil only for E1.31, which then multicasts each universe to 239.255.hi.lo.
    public var host: String?
    public var port: UInt16
    /// E1.31: the first universe (1...63999); Art-Net: the first port-address (0...32767);
    /// OPC: the channel (0 = every channel).
    public var universe: Int
    /// Channels a universe carries, rounded down to whole pixels.
    public var channelsPerUniverse = 510
    /// E1.31 priority, 0...200.
    public var priority = 100
    /// E1.31: the universe of sync packets (0: none). Art-Net: `artsync` sends ArtSync.
    public var syncUniverse = 0
    public var artSync = false
    /// E1.31 multicast hop limit.
    public var ttl = 1
    /// E1.31 source name; the CID comes from the machine and the output's name.
    public var sourceName: String
    public var maxFPS: Double?
    /// FlaschenTaschen: the picture's width (LEDs are laid on it in rows; 0: the display's),
    /// where its top left lands on the receiver's display, and the layer (0: background).
    public var pictureWidth = 0
    public var offsetX = 0
    public var offsetY = 0
    public var layer = 0
    /// Colorlight: the network interface the card is cabled to; `pictureWidth` is its row
    /// width in pixels.
    public var interface = ""
    /// Empty: the whole display, rows left to right from the top.
    public var panels: [Panel] = []
    public var correction = ColorCorrection()
    public var dithering = true

    public init(name: String, wire: Wire) {
        self.name = name
        self.wire = wire
        self.port = wire.defaultPort
        self.universe = wire == .e131 ? 1 : 0
        self.sourceName = "signd \(name)"
    }

    /// The panels in effect for a display of `width` x `height`.
    public func effectivePanels(width: Int, height: Int) -> [Panel] {
        panels.isEmpty ? [Panel(width: width, height: height)] : panels
    }

    /// LEDs the controller gets: up to the last panel's end.
    public func ledCount(width: Int, height: Int) -> Int {
        effectivePanels(width: width, height: height).map { $0.firstLED + $0.ledCount }.max() ?? 0
    }
}
