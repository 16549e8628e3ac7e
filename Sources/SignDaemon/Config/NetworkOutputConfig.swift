import Foundation
import SignOutput
import SignWire

/// A network LED controller output as configured (docs/configuration.md, "Network outputs"): the protocol and
/// its fields, where it sends, how the frame maps onto its LEDs and how colour is corrected.
public struct NetworkOutputConfig: Sendable, Equatable {
    public enum Wire: String, Sendable, CaseIterable {
        case ddp, e131, artnet, opc

        /// The protocol's well-known port.
        public var defaultPort: UInt16 {
            switch self {
            case .ddp: return DDP.port
            case .e131: return E131.port
            case .artnet: return ArtNet.port
            case .opc: return OPC.port
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

    /// What a reload compares: an output whose config and display are unchanged keeps its
    /// socket, sequence numbers and counters.
    public func identity(width: Int, height: Int, fps: Double) -> String { "\(self) \(width)x\(height)@\(fps)" }

    /// The output's sink for a display of `width` x `height` at `fps`.
    public func sink(width: Int, height: Int, fps: Double, log: @escaping @Sendable (String) -> Void) -> any FrameSink {
        let panels = effectivePanels(width: width, height: height)
        let map = PixelMap(panels: panels, frameWidth: width, frameHeight: height)
        let pipeline = LEDPipeline(map: map, correction: correction, dithering: dithering)
        let cap = FrameRateCap(maxFPS: maxFPS, displayFPS: fps)
        let identity = identity(width: width, height: height, fps: fps)
        switch wire {
        case .ddp:
            return DatagramSink(
                name: name, identity: identity, framer: DDPFramer(), pipeline: pipeline, host: host, port: port,
                cap: cap, log: log)
        case .e131:
            let framer = E131Framer(
                source: E131.Source(cid: Self.componentID(name: name), name: sourceName),
                firstUniverse: UInt16(universe), channelsPerUniverse: channelsPerUniverse, priority: UInt8(priority),
                syncUniverse: UInt16(syncUniverse), multicast: host == nil, ledCount: map.ledCount)
            return DatagramSink(
                name: name, identity: identity, framer: framer, pipeline: pipeline, host: host, port: port,
                ttl: Int32(ttl), cap: cap, log: log)
        case .artnet:
            let framer = ArtNetFramer(
                firstPortAddress: UInt16(universe), channelsPerUniverse: channelsPerUniverse, sync: artSync)
            return DatagramSink(
                name: name, identity: identity, framer: framer, pipeline: pipeline, host: host, port: port, cap: cap,
                log: log)
        case .opc:
            return OPCSink(
                name: name, identity: identity, pipeline: pipeline, host: host ?? "127.0.0.1", port: port,
                channel: UInt8(universe), cap: cap, log: log)
        }
    }

    /// A CID that stays the same for this machine and output name across restarts (E1.31
    /// receivers track sources by it): 128 bits hashed from /etc/machine-id (or the host
    /// name) and the name, marked as a UUID version 8.
    public static func componentID(name: String) -> [UInt8] {
        let machine =
            (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? ProcessInfo.processInfo.hostName
        let seed = Array("signd e131 \(machine) \(name)".utf8)
        var bytes: [UInt8] = []
        for salt: UInt64 in [0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4] {
            var hash = salt
            for byte in seed {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: hash >> (56 - 8 * $0)) }
        }
        bytes[6] = 0x80 | bytes[6] & 0x0f
        bytes[8] = 0x80 | bytes[8] & 0x3f
        return bytes
    }
}
