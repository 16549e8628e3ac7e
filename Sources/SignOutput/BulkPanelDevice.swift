import SignGraphics

/// A custom panel on a plain bulk endpoint: one transfer per frame made of an optional
/// header, the LEDs' colour bytes in the panel's channel order, an optional footer, and
/// zero padding to a whole number of packets.
public struct BulkPanelDevice: LEDController {
    public let kind = "bulk"
    public let match: USBMatch
    public let interface: Int32
    public let endpoint: UInt8
    public let detachesKernelDriver = false
    /// The channel order on the wire, e.g. "GRB": indices into R, G, B per output byte.
    public let order: [Int]
    public let header: [UInt8]
    public let footer: [UInt8]
    /// Frames are padded with zeros to a multiple of this (0: no padding).
    public let packetSize: Int
    private var pipeline: LEDPipeline

    /// Pixel orders a panel may use.
    public static let orders = ["RGB", "RBG", "GRB", "GBR", "BRG", "BGR"]

    public init(
        match: USBMatch, interface: Int32, endpoint: UInt8, order: String, header: [UInt8], footer: [UInt8],
        packetSize: Int, map: PixelMap, correction: ColorCorrection, dithering: Bool
    ) {
        self.match = match
        self.interface = interface
        self.endpoint = endpoint
        self.order = order.uppercased().map { ["R": 0, "G": 1, "B": 2][$0] ?? 0 }
        self.header = header
        self.footer = footer
        self.packetSize = packetSize
        self.pipeline = LEDPipeline(
            map: map, correction: correction, dithering: dithering, order: ColourOrder(order) ?? .rgb)
    }

    public func connectTransfers() -> [[UInt8]] { [] }

    /// The transfer `message` gives, with the LEDs coloured straight into it in the panel's
    /// order (no copy of them between).
    public mutating func encode(_ frame: Frame, display: DisplaySetting, into transfers: inout [[UInt8]]) {
        if transfers.count != 1 { transfers = [[]] }
        let leds = pipeline.colourByteCount
        let body = header.count + leds + footer.count
        let total = packetSize > 0 ? (body + packetSize - 1) / packetSize * packetSize : body
        if transfers[0].count != total { transfers[0] = [UInt8](repeating: 0, count: total) }
        transfers[0].withUnsafeMutableBytes { out in
            header.withUnsafeBytes { out.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            pipeline.colour(frame, scale: display.scale, intoBuffer: UnsafeMutableRawBufferPointer(rebasing: out[header.count...]))
            footer.withUnsafeBytes {
                (out.baseAddress! + header.count + leds).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
            }
            (out.baseAddress! + body).initializeMemory(as: UInt8.self, repeating: 0, count: total - body)
        }
    }

    /// header + reordered LED bytes + footer, zero-padded to a multiple of `packetSize`.
    public static func message(
        leds: [UInt8], order: [Int], header: [UInt8], footer: [UInt8], packetSize: Int, into out: inout [UInt8]
    ) {
        let body = header.count + leds.count + footer.count
        let total = packetSize > 0 ? (body + packetSize - 1) / packetSize * packetSize : body
        if out.count != total { out = [UInt8](repeating: 0, count: total) }
        precondition(order.count == 3 && order.allSatisfy { (0...2).contains($0) }, "a channel order is R, G, B indices")
        out.withUnsafeMutableBufferPointer { out in
            leds.withUnsafeBufferPointer { leds in
                var o = 0
                for b in header {
                    out[o] = b
                    o += 1
                }
                let (r, g, b) = (order[0], order[1], order[2])
                var led = 0
                while led + 2 < leds.count {
                    out[o] = leds[led + r]
                    out[o + 1] = leds[led + g]
                    out[o + 2] = leds[led + b]
                    o += 3
                    led += 3
                }
                for b in footer {
                    out[o] = b
                    o += 1
                }
                while o < out.count {
                    out[o] = 0
                    o += 1
                }
            }
        }
    }
}
