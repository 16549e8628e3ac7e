import SignGraphics

/// A Fadecandy board (1d50:607a): 512 LEDs on 8 strands of 64, 64-byte packets on bulk
/// endpoint 1. The board interpolates between frames, dithers, and applies a colour
/// look-up table that signd uploads on every connect from the output's correction, and
/// again whenever the display's brightness changes: the board applies it in linear light
/// with its own 16-bit dithering, so a dimmed board stays smooth.
public struct FadecandyDevice: LEDController {
    public static let vendorID: UInt16 = 0x1d50
    public static let productID: UInt16 = 0x607a
    /// LEDs per board.
    public static let ledCount = 512
    /// Pixels per framebuffer packet, packets per frame.
    static let pixelsPerPacket = 21, packetsPerFrame = 25

    public let kind = "fadecandy"
    public let match: USBMatch
    public let interface: Int32 = 0
    public let endpoint: UInt8 = 0x01
    public let detachesKernelDriver = false
    public let map: PixelMap
    public let correction: ColorCorrection
    public let dithering: Bool
    public let interpolation: Bool
    private var leds: [UInt8] = []
    /// The brightness scale the board's table was last built for.
    private var tableScale: UInt32 = 65536

    public init(
        serial: String?, map: PixelMap, correction: ColorCorrection, dithering: Bool = true, interpolation: Bool = true
    ) {
        self.match = USBMatch(vendorID: Self.vendorID, productID: Self.productID, serial: serial)
        self.map = map
        self.correction = correction
        self.dithering = dithering
        self.interpolation = interpolation
    }

    public func connectTransfers() -> [[UInt8]] {
        [
            Self.colorTablePackets(correction.fadecandyTable(scale: tableScale)),
            Self.configPacket(dithering: dithering, interpolation: interpolation),
        ]
    }

    public mutating func encode(_ frame: Frame, display: DisplaySetting, into transfers: inout [[UInt8]]) {
        map.gather(frame, into: &leds)
        let scale = display.scale
        if scale != tableScale {
            // A new table first, then the frame: the board shows the frame through it.
            tableScale = scale
            transfers = [Self.colorTablePackets(correction.fadecandyTable(scale: scale)), []]
        } else if transfers.count != 1 {
            transfers = [[]]
        }
        Self.framebufferPackets(leds, into: &transfers[transfers.count - 1])
    }

    /// 25 framebuffer packets (1600 bytes) from up to 512 RGB LEDs; the last packet is
    /// marked final, which makes the board show the frame.
    public static func framebufferPackets(_ leds: [UInt8], into out: inout [UInt8]) {
        if out.count != packetsPerFrame * 64 { out = [UInt8](repeating: 0, count: packetsPerFrame * 64) }
        let valid = min(leds.count, ledCount * 3)
        for packet in 0..<packetsPerFrame {
            let base = packet * 64
            out[base] = UInt8(packet) | (packet == packetsPerFrame - 1 ? 0x20 : 0)
            for i in 0..<(pixelsPerPacket * 3) {
                let source = packet * pixelsPerPacket * 3 + i
                out[base + 1 + i] = source < valid ? leds[source] : 0
            }
        }
    }

    /// The colour LUT (3 x 257 little-endian u16, red then green then blue) as 25 packets
    /// of 31 entries after a control byte and a zero byte.
    public static func colorTablePackets(_ table: [UInt16]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: packetsPerFrame * 64)
        for packet in 0..<packetsPerFrame {
            let base = packet * 64
            out[base] = 0x40 | UInt8(packet) | (packet == packetsPerFrame - 1 ? 0x20 : 0)
            for j in 0..<31 {
                let entry = packet * 31 + j
                guard entry < table.count else { break }
                out[base + 2 + j * 2] = UInt8(table[entry] & 0xff)
                out[base + 3 + j * 2] = UInt8(table[entry] >> 8)
            }
        }
        return out
    }

    /// The configuration packet: byte 1 bit 0 turns dithering off, bit 1 interpolation.
    public static func configPacket(dithering: Bool, interpolation: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        out[0] = 0x80
        out[1] = (dithering ? 0 : 0x01) | (interpolation ? 0 : 0x02)
        return out
    }
}
