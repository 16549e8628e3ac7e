import SignGraphics

/// One output's way from a rendered frame to LED bytes: pixel map, colour correction and
/// temporal dithering, in that order, fused into one pass per LED over the map (see
/// `DriveTable`). Keeps its tables and dither state between frames.
public struct LEDPipeline: Sendable {
    public let map: PixelMap
    public let correction: ColorCorrection
    public let dithering: Bool
    private var dither = TemporalDither()
    private var table: DriveTable
    /// Per channel byte, its linear level weighted by its share of luminance (Rec. 709), for
    /// `grey`: the products a luminance sum adds, computed once.
    private let luminance: [Double]

    public init(map: PixelMap, correction: ColorCorrection, dithering: Bool) {
        self.map = map
        self.correction = correction
        self.dithering = dithering
        let table = DriveTable(correction: correction, dithering: dithering)
        let weights = [0.2126, 0.7152, 0.0722]
        self.table = table
        self.luminance = table.levels.indices.map { weights[$0 >> 8] * Double(table.levels[$0]) }
    }

    /// Bytes `colour` writes for this map: 3 per LED.
    public var colourByteCount: Int { map.ledCount * 3 }

    /// Corrected R, G, B bytes per LED, in LED order, at `scale` (`DisplaySetting.scale`:
    /// 65536 is full brightness) in linear light before dithering.
    public mutating func colour(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        if out.count != colourByteCount { out = [UInt8](repeating: 0, count: colourByteCount) }
        out.withUnsafeMutableBytes { colour(frame, scale: scale, intoBuffer: $0) }
    }

    /// `colour` straight into the first `colourByteCount` bytes of `buffer` (a datagram or
    /// transfer buffer, say).
    public mutating func colour(_ frame: Frame, scale: UInt32 = 65536, intoBuffer buffer: UnsafeMutableRawBufferPointer) {
        let count = map.ledCount
        guard count > 0 else { return }
        precondition(buffer.count >= count * 3, "the buffer has no room for every LED's bytes")
        let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        table.update(scale: scale)
        dither.reserve(count * 3)
        let dithering = dithering
        frame.pixels.withUnsafeBufferPointer { pixels in
            map.source.withUnsafeBufferPointer { source in
                table.entries.withUnsafeBufferPointer { entries in
                    dither.withCarry { carry in
                        Self.colour(
                            pixels: pixels, source: source, entries: entries.baseAddress!,
                            carry: dithering ? carry : nil, out: out)
                    }
                }
            }
        }
    }

    /// The fused pass: per LED, its frame pixel (black when the map has none or it lies past
    /// the frame), each channel's table entry, and with dithering the carry.
    @inline(__always)
    private static func colour(
        pixels: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<Int32>, entries: UnsafePointer<UInt16>,
        carry: UnsafeMutablePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>
    ) {
        // A pixel index i is in the frame when i * 3 + 2 < pixels.count, that is i < count / 3;
        // a negative index (no pixel) fails the same unsigned comparison.
        let inFrame = UInt32(truncatingIfNeeded: pixels.count / 3)
        let base = pixels.baseAddress
        let green = entries + 256, blue = entries + 512
        var o = out
        if let carry {
            var c = carry
            for index in source {
                var r = 0, g = 0, b = 0
                if UInt32(bitPattern: index) < inFrame {
                    let p = base.unsafelyUnwrapped + Int(index) &* 3
                    r = Int(p[0])
                    g = Int(p[1])
                    b = Int(p[2])
                }
                let sr = entries[r] &+ UInt16(c[0])
                let sg = green[g] &+ UInt16(c[1])
                let sb = blue[b] &+ UInt16(c[2])
                c[0] = UInt8(truncatingIfNeeded: sr)
                c[1] = UInt8(truncatingIfNeeded: sg)
                c[2] = UInt8(truncatingIfNeeded: sb)
                o[0] = UInt8(truncatingIfNeeded: sr &>> 8)
                o[1] = UInt8(truncatingIfNeeded: sg &>> 8)
                o[2] = UInt8(truncatingIfNeeded: sb &>> 8)
                c += 3
                o += 3
            }
        } else {
            for index in source {
                var r = 0, g = 0, b = 0
                if UInt32(bitPattern: index) < inFrame {
                    let p = base.unsafelyUnwrapped + Int(index) &* 3
                    r = Int(p[0])
                    g = Int(p[1])
                    b = Int(p[2])
                }
                o[0] = UInt8(truncatingIfNeeded: entries[r])
                o[1] = UInt8(truncatingIfNeeded: green[g])
                o[2] = UInt8(truncatingIfNeeded: blue[b])
                o += 3
            }
        }
    }

    /// One grey byte per LED: the luminance (Rec. 709 weights) of the corrected linear light,
    /// at `scale` as `colour` takes it.
    public mutating func grey(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        let count = map.ledCount
        if out.count != count { out = [UInt8](repeating: 0, count: count) }
        guard count > 0 else { return }
        dither.reserve(count)
        let dithering = dithering
        frame.pixels.withUnsafeBufferPointer { pixels in
            map.source.withUnsafeBufferPointer { source in
                luminance.withUnsafeBufferPointer { luminance in
                    out.withUnsafeMutableBufferPointer { out in
                        dither.withCarry { carry in
                            Self.grey(
                                pixels: pixels, source: source, luminance: luminance.baseAddress!, scale: scale,
                                carry: dithering ? carry : nil, out: out.baseAddress!)
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func grey(
        pixels: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<Int32>, luminance: UnsafePointer<Double>,
        scale: UInt32, carry: UnsafeMutablePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>
    ) {
        let inFrame = UInt32(truncatingIfNeeded: pixels.count / 3)
        let base = pixels.baseAddress
        for led in 0..<source.count {
            let index = source[led]
            var r = 0, g = 0, b = 0
            if UInt32(bitPattern: index) < inFrame {
                let p = base.unsafelyUnwrapped + Int(index) &* 3
                r = Int(p[0])
                g = Int(p[1])
                b = Int(p[2])
            }
            // The same sum, in the same order, as weighting the three levels one by one.
            let y = luminance[r] + luminance[256 + g] + luminance[512 + b]
            // Rounded half away from zero (y is never negative) without a libm call.
            let whole = Int(y)
            let rounded = y - Double(whole) >= 0.5 ? whole + 1 : whole
            let level = DisplaySetting.scaled(UInt16(min(rounded, 65535)), by: scale)
            if let carry {
                let sum = TemporalDither.steps(level) &+ UInt16(carry[led])
                carry[led] = UInt8(truncatingIfNeeded: sum)
                out[led] = UInt8(truncatingIfNeeded: sum &>> 8)
            } else {
                out[led] = TemporalDither.round(level)
            }
        }
    }
}
