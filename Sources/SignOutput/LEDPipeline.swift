import SignGraphics

/// One output's way from a rendered frame to LED bytes: pixel map, colour correction and
/// temporal dithering, in that order. Keeps its buffers and dither state between frames.
public struct LEDPipeline: Sendable {
    public let map: PixelMap
    public let correction: ColorCorrection
    public let dithering: Bool
    private let tables: [[UInt16]]
    private var dither = TemporalDither()
    private var gathered: [UInt8] = []

    public init(map: PixelMap, correction: ColorCorrection, dithering: Bool) {
        self.map = map
        self.correction = correction
        self.dithering = dithering
        self.tables = correction.tables()
    }

    /// Corrected R, G, B bytes per LED, in LED order, at `scale` (`DisplaySetting.scale`:
    /// 65536 is full brightness) in linear light before dithering.
    public mutating func colour(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        map.gather(frame, into: &gathered)
        if out.count != gathered.count { out = [UInt8](repeating: 0, count: gathered.count) }
        dither.reserve(gathered.count)
        for i in 0..<gathered.count {
            let level = DisplaySetting.scaled(tables[i % 3][Int(gathered[i])], by: scale)
            out[i] = dithering ? dither.quantise(level, slot: i) : TemporalDither.round(level)
        }
    }

    /// One grey byte per LED: the luminance (Rec. 709 weights) of the corrected linear light,
    /// at `scale` as `colour` takes it.
    public mutating func grey(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        map.gather(frame, into: &gathered)
        let count = gathered.count / 3
        if out.count != count { out = [UInt8](repeating: 0, count: count) }
        dither.reserve(count)
        for led in 0..<count {
            let y =
                0.2126 * Double(tables[0][Int(gathered[led * 3])]) + 0.7152
                * Double(tables[1][Int(gathered[led * 3 + 1])]) + 0.0722 * Double(tables[2][Int(gathered[led * 3 + 2])])
            let level = DisplaySetting.scaled(UInt16(min(y.rounded(), 65535)), by: scale)
            out[led] = dithering ? dither.quantise(level, slot: led) : TemporalDither.round(level)
        }
    }
}
