import SignGraphics
import SignOutput
import SignScene
import SignWire

/// A `stream` layer's input as configured (docs/configuration.md, "Stream layers"): what it listens for,
/// how the incoming pixel order maps onto the layer's rectangle, and the feed the layer
/// shows.
public struct StreamInput: Sendable, Equatable {
    /// The layer's key path in the config, for messages.
    public var layer: String
    /// The layer's `id` (its key path when it has none), for `status` and events.
    public var layerID: String
    public var wire: StreamAssembler.Wire
    public var listen = "127.0.0.1"
    public var port: UInt16
    /// E1.31: the first universe (default 1); Art-Net: the first port-address (default 0).
    public var universe: Int
    public var channelsPerUniverse = 510
    /// Empty: the layer's rectangle, rows left to right from the top.
    public var panels: [Panel] = []
    /// Seconds without a frame after which the layer is transparent.
    public var timeout = 2.5
    /// The layer's size in pixels.
    public var width: Int
    public var height: Int
    public var feed: StreamFeed

    public init(
        layer: String, id: String = "", wire: StreamAssembler.Wire, width: Int, height: Int, feed: StreamFeed
    ) {
        self.layer = layer
        self.layerID = id.isEmpty ? layer : id
        self.wire = wire
        self.width = width
        self.height = height
        self.feed = feed
        switch wire {
        case .ddp: port = DDP.port
        case .e131: port = E131.port
        case .artnet: port = ArtNet.port
        }
        universe = wire == .e131 ? 1 : 0
    }

    /// For each incoming pixel, the layer pixel it lands on (-1: none).
    public var pixelMap: PixelMap {
        PixelMap(
            panels: panels.isEmpty ? [Panel(width: width, height: height)] : panels, frameWidth: width,
            frameHeight: height)
    }

    /// Equal inputs listen alike and map alike: a reload keeps the receiver (the feeds
    /// may differ).
    public static func == (a: StreamInput, b: StreamInput) -> Bool {
        a.layer == b.layer && a.layerID == b.layerID && a.wire == b.wire && a.listen == b.listen && a.port == b.port
            && a.universe == b.universe
            && a.channelsPerUniverse == b.channelsPerUniverse && a.panels == b.panels && a.timeout == b.timeout
            && a.width == b.width && a.height == b.height
    }
}

extension ConfigReader {
    static let streamKeys: Set<String> = [
        "protocol", "listen", "port", "universe", "channels_per_universe", "panel", "timeout",
    ]

    /// A `stream` layer's input keys; the layer shows the returned input's feed.
    mutating func streamInput(_ t: ConfigTable, at path: String, id: String, size: Size) -> StreamInput? {
        let choices = StreamAssembler.Wire.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let name = string(t, "protocol", at: path) else {
            problem("\(path).protocol", "missing: what the layer listens for (\(choices))")
            return nil
        }
        guard let wire = StreamAssembler.Wire(rawValue: name) else {
            problem("\(path).protocol", "\"\(name)\" is not a stream protocol (\(choices))")
            return nil
        }
        let width = Int(size.width.rounded()), height = Int(size.height.rounded())
        guard width >= 1, height >= 1 else {
            problem(path, "a stream layer needs a width and height of at least one pixel")
            return nil
        }
        var input = StreamInput(layer: path, id: id, wire: wire, width: width, height: height, feed: StreamFeed())
        if let listen = string(t, "listen", at: path) {
            if case .failure = IPEndpoint.resolve(host: listen, port: 1, numericOnly: true) {
                problem("\(path).listen", "\"\(listen)\" is not an IP address (e.g. \"127.0.0.1\" or \"0.0.0.0\")")
            } else {
                input.listen = listen
            }
        }
        if let port = int(t, "port", at: path, in: 1...65535) { input.port = UInt16(port) }
        switch wire {
        case .ddp:
            if t["universe"] != nil { problem("\(path).universe", "DDP has no universes (it addresses bytes)") }
        case .e131: input.universe = int(t, "universe", at: path, in: 1...63999) ?? 1
        case .artnet: input.universe = int(t, "universe", at: path, in: 0...Int(ArtNet.maxPortAddress)) ?? 0
        }
        input.channelsPerUniverse = int(t, "channels_per_universe", at: path, in: 3...512) ?? 510
        input.timeout = number(t, "timeout", at: path, in: 0.1...3600) ?? 2.5
        input.panels = ConfigLoader.readPanels(t, at: path, &self)
        refuseUniversesPastTheEnd(of: input, at: path)
        streams.append(input)
        return input
    }

    /// A frame whose universes run past the protocol's last (E1.31's 63999, Art-Net's
    /// port-address 32767) could never complete: refused, naming the last universe it needs.
    private mutating func refuseUniversesPastTheEnd(of input: StreamInput, at path: String) {
        let last: Int
        switch input.wire {
        case .ddp: return
        case .e131: last = Int(E131.universes.upperBound)
        case .artnet: last = Int(ArtNet.maxPortAddress)
        }
        // Whole pixels to a universe, as the receiver counts them.
        let pixels = input.pixelMap.ledCount
        let perUniverse = max(1, min(input.channelsPerUniverse, 512) / 3)
        let universes = max(1, (pixels + perUniverse - 1) / perUniverse)
        let needed = input.universe + universes - 1
        guard needed > last else { return }
        let name = input.wire == .e131 ? "universe" : "port-address"
        let lowest = input.wire == .e131 ? Int(E131.universes.lowerBound) : 0
        guard last - universes + 1 >= lowest else {
            problem(
                "\(path).universe",
                "\(pixels) pixels take \(universes) universes, more than \(input.wire.rawValue) numbers: "
                    + "raise channels_per_universe or make the layer smaller")
            return
        }
        problem(
            "\(path).universe",
            "\(pixels) pixels take \(universes) universes, \(input.universe) to \(needed), past \(name) \(last), "
                + "the protocol's last: start at \(last - universes + 1) or lower")
    }
}
