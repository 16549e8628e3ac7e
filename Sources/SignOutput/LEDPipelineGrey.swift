import SignGraphics

/// The grey pass: one byte per LED, the luminance of the corrected light, for boards that
/// show one level a pixel (the Framework matrix). The same map, correction, scale and
/// dithering as the colour pass, with a carry of its own.
extension LEDPipeline {
    /// One grey byte per LED: the luminance (Rec. 709 weights) of the corrected linear light,
    /// at `scale` as `colour` takes it.
    public mutating func grey(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        let count = map.ledCount
        if out.count != count { out = [UInt8](repeating: 0, count: count) }
        guard count > 0 else { return }
        if !carry.isEmpty {
            carry = []
            dither = TemporalDither()
        }
        dither.reserve(count)
        let dithering = dithering
        let whole = runs.map { frame.pixels.count / 3 >= $0.pixelsNeeded } ?? false
        let full = scale >= 65536
        frame.pixels.withUnsafeBufferPointer { pixels in
            luminance.withUnsafeBufferPointer { luminance in
                fixedLuminance.withUnsafeBufferPointer { fixed in
                    out.withUnsafeMutableBufferPointer { out in
                        dither.withCarry { carry in
                            let tables = GreyTables(fixed: fixed.baseAddress!, luminance: luminance.baseAddress!)
                            let c = dithering ? carry : nil
                            if whole, let runs {
                                for run in runs.runs {
                                    let o = out.baseAddress! + run.led
                                    let k = c.map { $0 + run.led }
                                    if run.pixel < 0 {
                                        // A black pixel, the same for each.
                                        var zero: (UInt8, UInt8, UInt8) = (0, 0, 0)
                                        withUnsafePointer(to: &zero) { z in
                                            z.withMemoryRebound(to: UInt8.self, capacity: 3) {
                                                Self.grey($0, stride: 0, count: run.count, tables: tables, scale: scale, full: full, carry: k, out: o)
                                            }
                                        }
                                    } else {
                                        Self.grey(
                                            pixels.baseAddress! + run.pixel * 3, stride: run.step * 3, count: run.count,
                                            tables: tables, scale: scale, full: full, carry: k, out: o)
                                    }
                                }
                            } else {
                                map.source.withUnsafeBufferPointer { source in
                                    Self.grey(
                                        pixels: pixels, source: source, tables: tables, scale: scale, carry: c,
                                        out: out.baseAddress!)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `grey`'s two tables of each channel byte's weighted level: in fixed point, and as
    /// the doubles the fixed point stands for.
    struct GreyTables {
        let fixed: UnsafePointer<UInt64>
        let luminance: UnsafePointer<Double>
    }

    /// What `fixedLuminance`'s red entries add: a half, so the sum's integer part is the
    /// rounded level, and 16 units, so a sum whose low 32 bits are at least 32 lies at least
    /// 16 units from every rounding boundary (`fixedGreyLevel`).
    static let greyBias: UInt64 = 0x8000_0000 + 16

    /// The luminance level of a pixel's red, green and blue bytes, rounded half
    /// away from zero: what `greyLevel` makes of the double sum, from integers. Each fixed
    /// entry is within half a unit (2^-32) of its double, so the fixed sum is within 1.5
    /// units of the exact sum of the three doubles; the double sum is within 2^-37 (two
    /// roundings of half an ulp below 65536), so of the fixed sum within 4 units. Away
    /// from a half (the sum's low 32 bits, after the bias, at least 32: the unbiased sum at
    /// least 16 units from a half, on either side), both round the same way and the level
    /// is the high bits. Within 16 units of a half (about 1 triple in 5,000 of the 2^24,
    /// among them the exact halves), the doubles are added and rounded as `greyLevel` does.
    @inline(__always)
    static func fixedGreyLevel(_ red: Int, _ green: Int, _ blue: Int, tables: GreyTables) -> UInt32 {
        let (r, g, b) = (red, 256 &+ green, 512 &+ blue)
        let sum = tables.fixed[r] &+ tables.fixed[g] &+ tables.fixed[b]
        guard _fastPath(UInt32(truncatingIfNeeded: sum) >= 32) else {
            return nearHalf(tables.luminance[r] + tables.luminance[g] + tables.luminance[b])
        }
        return UInt32(truncatingIfNeeded: sum &>> 32)
    }

    /// `greyLevel` at full scale, out of the loop (it is seldom taken).
    @inline(never)
    static func nearHalf(_ y: Double) -> UInt32 { UInt32(greyLevel(y, scale: 65536)) }

    /// One LED's grey byte from its level (`fixedGreyLevel`): scaled (`full`: the scale is
    /// full brightness, nothing to do), then dithered with its carry or rounded.
    @inline(__always)
    private static func greyByte(
        _ level: UInt32, scale: UInt32, full: Bool, carry: UnsafeMutablePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>
    ) {
        let scaled = full ? UInt16(truncatingIfNeeded: level) : DisplaySetting.scaled(UInt16(truncatingIfNeeded: level), by: scale)
        if let carry {
            let sum = TemporalDither.steps(scaled) &+ UInt16(carry.pointee)
            carry.pointee = UInt8(truncatingIfNeeded: sum)
            out.pointee = UInt8(truncatingIfNeeded: sum &>> 8)
        } else {
            out.pointee = TemporalDither.round(scaled)
        }
    }

    /// Grey along one run of the map: the loop made for full brightness or a scale and for
    /// dithering or not (so neither test is in it), four LEDs a turn.
    private static func grey(
        _ first: UnsafePointer<UInt8>, stride: Int, count: Int, tables: GreyTables, scale: UInt32, full: Bool,
        carry: UnsafeMutablePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>
    ) {
        switch (full, carry) {
        case (true, let carry?):
            greyAlong(first, stride: stride, count: count, tables: tables, scale: scale, full: true, carry: carry, out: out)
        case (true, nil):
            greyAlong(first, stride: stride, count: count, tables: tables, scale: scale, full: true, carry: nil, out: out)
        case (false, let carry?):
            greyAlong(first, stride: stride, count: count, tables: tables, scale: scale, full: false, carry: carry, out: out)
        case (false, nil):
            greyAlong(first, stride: stride, count: count, tables: tables, scale: scale, full: false, carry: nil, out: out)
        }
    }

    @inline(__always)
    private static func greyAlong(
        _ first: UnsafePointer<UInt8>, stride: Int, count: Int, tables: GreyTables, scale: UInt32, full: Bool,
        carry: UnsafeMutablePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>
    ) {
        @inline(__always)
        func led(_ p: UnsafePointer<UInt8>, _ i: Int) {
            greyByte(fixedGreyLevel(Int(p[0]), Int(p[1]), Int(p[2]), tables: tables), scale: scale, full: full, carry: carry.map { $0 + i }, out: out + i)
        }
        var p = first
        var i = 0
        while i &+ 4 <= count {
            led(p, i)
            led(p + stride, i &+ 1)
            led(p + 2 &* stride, i &+ 2)
            led(p + 3 &* stride, i &+ 3)
            p += 4 &* stride
            i &+= 4
        }
        while i < count {
            led(p, i)
            p += stride
            i &+= 1
        }
    }

    /// A luminance sum (0 to 65535.0: `luminanceWeights`) rounded half away from zero, at
    /// `scale`. The rounding adds 2^52, which leaves the nearest integer (ties to even) in the
    /// low bits with no conversion instruction and its range checks; the exact difference
    /// from it says whether a tie goes up. Each product is at most its weight times 65535
    /// and the sums round monotonically, so the largest sum is 65535.0 and the result needs
    /// no clamp (the tests check the bound).
    @inline(__always)
    static func greyLevel(_ y: Double, scale: UInt32) -> UInt16 {
        let shifted = y + 4_503_599_627_370_496.0
        let nearest = shifted - 4_503_599_627_370_496.0
        let even = Int(truncatingIfNeeded: shifted.bitPattern & 0x000f_ffff_ffff_ffff)
        let rounded = even &+ (y - nearest >= 0.5 ? 1 : 0)
        return DisplaySetting.scaled(UInt16(truncatingIfNeeded: rounded), by: scale)
    }

    /// Grey LED by LED over the map.
    private static func grey(
        pixels: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<Int32>, tables: GreyTables,
        scale: UInt32, carry: UnsafeMutablePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>
    ) {
        let inFrame = UInt32(truncatingIfNeeded: pixels.count / 3)
        let base = pixels.baseAddress
        let full = scale >= 65536
        for led in 0..<source.count {
            let (r, g, b) = mapped(source[led], in: base, inFrame: inFrame)
            greyByte(fixedGreyLevel(r, g, b, tables: tables), scale: scale, full: full, carry: carry.map { $0 + led }, out: out + led)
        }
    }
}
