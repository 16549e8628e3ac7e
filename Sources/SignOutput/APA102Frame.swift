import SignGraphics

/// APA102 and SK9822 LED strips on SPI (two wires, clock and data): a start frame of 32
/// zero bits; per LED a frame of `0b111` and a 5-bit global brightness, then three colour
/// bytes (blue, green, red on most strips); then clock edges that push the last LED's bits
/// through the chain (each LED delays the data by half a clock, so a chain of n LEDs needs
/// n/2 more edges).
///
/// The two chips differ at the end. An APA102 takes its end frame as the datasheet gives it:
/// 32 one bits, lengthened to n/2 bits for longer chains. An SK9822 latches the new colours
/// only on a reset frame of 32 zero bits, so it gets that, then n/2 zero bits.
public enum APA102Frame {
    /// The chip, for its end frame.
    public enum Chip: String, Sendable, CaseIterable {
        case apa102, sk9822
    }

    /// The largest 5-bit global brightness.
    public static let fullBrightness: UInt8 = 31

    /// Bytes after the LED frames for a chain of `leds`.
    public static func tailSize(leds: Int, chip: Chip) -> Int {
        let pushBytes = (leds + 15) / 16
        switch chip {
        case .apa102: return max(4, pushBytes)
        case .sk9822: return 4 + max(1, pushBytes)
        }
    }

    /// The size of a frame for `leds`.
    public static func size(leds: Int, chip: Chip) -> Int { 4 + 4 * leds + tailSize(leds: leds, chip: chip) }

    /// The global brightness and the colour scale that together give `scale` (16.16, as
    /// `DisplaySetting.scale`): the dimming goes into the 5-bit global brightness first, so
    /// a dim sign keeps all 256 levels of its colour bytes instead of the few at the bottom
    /// of the range. Black (scale 0) is brightness 0.
    public static func split(scale: UInt32) -> (brightness: UInt8, colourScale: UInt32) {
        let s = min(scale, 65536)
        guard s > 0 else { return (0, 0) }
        let brightness = (s * 31 + 65535) / 65536
        return (UInt8(brightness), min(65536, (s * 31 + brightness / 2) / brightness))
    }

    /// Writes a frame for `rgb` (R, G, B per LED) at global `brightness` (0...31) in
    /// `order` into `out`, reusing its storage.
    public static func encode(
        _ rgb: [UInt8], brightness: UInt8, order: ColourOrder, chip: Chip, into out: inout [UInt8]
    ) {
        let leds = rgb.count / 3
        let size = size(leds: leds, chip: chip)
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        let global = 0xe0 | min(brightness, fullBrightness)
        let (a, b, c) = (order.first, order.second, order.third)
        out.withUnsafeMutableBufferPointer { o in
            o[0] = 0
            o[1] = 0
            o[2] = 0
            o[3] = 0
            rgb.withUnsafeBufferPointer { source in
                var at = 4
                for led in 0..<leds {
                    let p = led * 3
                    o[at] = global
                    o[at + 1] = source[p + a]
                    o[at + 2] = source[p + b]
                    o[at + 3] = source[p + c]
                    at += 4
                }
            }
            let tail = 4 + 4 * leds
            switch chip {
            case .apa102:
                for i in tail..<size { o[i] = 0xff }
            case .sk9822:
                for i in tail..<size { o[i] = 0 }
            }
        }
    }

    /// A frame straight from `frame` through `pipeline`, which writes the strip's channel
    /// order (`LEDPipeline.ordered`): each LED's frame written whole, with no copy of the
    /// coloured bytes between; the bytes `encode(_:brightness:order:chip:into:)` writes for
    /// the same colours. `scale` goes to the pipeline, `brightness` (0...31) to the LEDs.
    public static func encode(
        _ frame: Frame, scale: UInt32, brightness: UInt8, chip: Chip, through pipeline: inout LEDPipeline,
        into out: inout [UInt8]
    ) {
        let leds = pipeline.map.ledCount
        let size = size(leds: leds, chip: chip)
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        let layout = APA102Layout(global: 0xe0 | min(brightness, fullBrightness))
        out.withUnsafeMutableBytes { o in
            o.storeBytes(of: 0, as: UInt32.self)
            pipeline.colour(frame, scale: scale, leds: 0..<leds, as: layout, into: o.baseAddress! + 4)
            let tail = 4 + 4 * leds
            (o.baseAddress! + tail).initializeMemory(
                as: UInt8.self, repeating: chip == .apa102 ? 0xff : 0, count: size - tail)
        }
    }
}
