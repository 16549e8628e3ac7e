import SignGraphics
import SignOutput

/// The LED pipeline as it was before gather, correction and dithering were fused into one
/// pass over tables at the current brightness: kept as it was (a modulo, nested tables, a
/// multiply and a division per byte; only the gather's `enumerated()` loop is spelled with
/// indices, which debug builds run far faster) as the reference the fused pipeline must
/// equal byte for byte. Not used by signd.
struct ReferenceLEDPipeline {
    let map: PixelMap
    let correction: ColorCorrection
    let dithering: Bool
    private let tables: [[UInt16]]
    private var dither = ReferenceTemporalDither()
    private var gathered: [UInt8] = []

    init(map: PixelMap, correction: ColorCorrection, dithering: Bool) {
        self.map = map
        self.correction = correction
        self.dithering = dithering
        self.tables = correction.tables()
    }

    mutating func colour(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        Self.gather(map, frame, into: &gathered)
        if out.count != gathered.count { out = [UInt8](repeating: 0, count: gathered.count) }
        dither.reserve(gathered.count)
        for i in 0..<gathered.count {
            let level = Self.scaled(tables[i % 3][Int(gathered[i])], by: scale)
            out[i] = dithering ? dither.quantise(level, slot: i) : ReferenceTemporalDither.round(level)
        }
    }

    mutating func grey(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        Self.gather(map, frame, into: &gathered)
        let count = gathered.count / 3
        if out.count != count { out = [UInt8](repeating: 0, count: count) }
        dither.reserve(count)
        for led in 0..<count {
            let y =
                0.2126 * Double(tables[0][Int(gathered[led * 3])]) + 0.7152
                * Double(tables[1][Int(gathered[led * 3 + 1])]) + 0.0722 * Double(tables[2][Int(gathered[led * 3 + 2])])
            let level = Self.scaled(UInt16(min(y.rounded(), 65535)), by: scale)
            out[led] = dithering ? dither.quantise(level, slot: led) : ReferenceTemporalDither.round(level)
        }
    }

    static func scaled(_ level: UInt16, by scale: UInt32) -> UInt16 {
        scale >= 65536 ? level : UInt16(truncatingIfNeeded: (UInt32(level) * scale + 32768) >> 16)
    }

    static func gather(_ map: PixelMap, _ frame: Frame, into leds: inout [UInt8]) {
        let source = map.source
        if leds.count != source.count * 3 { leds = [UInt8](repeating: 0, count: source.count * 3) }
        frame.pixels.withUnsafeBufferPointer { pixels in
            leds.withUnsafeMutableBufferPointer { out in
                for led in source.indices {
                    let index = source[led]
                    let o = led * 3
                    if index < 0 || Int(index) * 3 + 2 >= pixels.count {
                        out[o] = 0
                        out[o + 1] = 0
                        out[o + 2] = 0
                    } else {
                        let i = Int(index) * 3
                        out[o] = pixels[i]
                        out[o + 1] = pixels[i + 1]
                        out[o + 2] = pixels[i + 2]
                    }
                }
            }
        }
    }
}

/// TemporalDither as it was, for `ReferenceLEDPipeline`.
struct ReferenceTemporalDither {
    private var residual: [UInt8] = []

    mutating func quantise(_ level: UInt16, slot: Int) -> UInt8 {
        let target = (UInt32(level) * 65280 + 32767) / 65535
        let sum = target + UInt32(residual[slot])
        residual[slot] = UInt8(truncatingIfNeeded: sum)
        return UInt8(sum >> 8)
    }

    mutating func reserve(_ slots: Int) {
        if residual.count != slots { residual = [UInt8](repeating: 0, count: slots) }
    }

    static func round(_ level: UInt16) -> UInt8 {
        UInt8((UInt32(level) * 255 + 32767) / 65535)
    }
}
