/// Where every paint lands: a canvas's pixels and the coverage mask of the call, if any.
/// Source-over is written here once; the paints (solid, gradient, text strip, image,
/// rounded rectangle) only say which colour goes where with what coverage.
struct Blitter {
    let pixels: UnsafeMutablePointer<Canvas.Pixel>
    let width: Int
    let mask: CoverageMask?
    let maskBase: UnsafePointer<UInt8>?

    /// One row of the canvas: pixel `x` of it is blended at `x` (canvas columns).
    struct Row {
        let dst: UnsafeMutablePointer<Canvas.Pixel>
        let mask: UnsafePointer<UInt8>?

        /// Premultiplied source-over of `color` (spread: `Canvas.spread`) scaled by `coverage`
        /// and the mask at column `x`.
        @inline(__always)
        func blend(_ color: UInt64, coverage: Float, at x: Int) {
            blend(color, factor: Canvas.factor(coverage), at: x)
        }

        /// `color` at four pixels from column `x`, each scaled by its factor (0...255) and the
        /// mask: the same arithmetic as `blend(_:factor:at:)`, in 16-bit lanes.
        @inline(__always)
        func blend(_ color: Lanes, factors: SIMD4<UInt32>, at x: Int) {
            blend(color, factors: Self.lanes(factors), at: x)
        }

        /// The same with the factors as `lanes` gives them.
        @inline(__always)
        func blend(_ color: Lanes, factors: SIMD8<UInt16>, at x: Int) {
            var fv = factors
            if let mask {
                // In 16-bit lanes: SSE2 has no 32-bit multiply, and 255 x 255 + 128 fits. A
                // mask of 0 paints nothing; one of 255 (inside an edge fade) scales nothing.
                let m = UnsafeRawPointer(mask + x).loadUnaligned(as: UInt32.self)
                if m == 0 { return }
                if m != .max { fv = Canvas.product(fv, Self.lanes(m)) }
            }
            over(color, factors: fv, at: x)
        }

        /// `color` at four factors (the mask already in them) on four pixels from `x`: mixed
        /// when opaque, else scaled and composited (`Canvas.blend`, four at a time).
        @inline(__always)
        private func over(_ color: Lanes, factors f: SIMD8<UInt16>, at x: Int) {
            if color.opaque {
                Canvas.mix(even: color.even, odd: color.odd, factors: f, at: dst + x)
            } else {
                Canvas.over(even: Canvas.product(color.even, f), odd: Canvas.product(color.odd, f), at: dst + x)
            }
        }

        /// `color` at eight pixels from column `x`, each scaled by its coverage (0...255, a
        /// 16-bit lane each) and the mask: `blend(_:factors:at:)` for each four, with the
        /// mask's eight bytes read and multiplied at once. Four pixels left with no coverage
        /// are passed over (source-over of nothing changes nothing).
        @inline(__always)
        func blend(_ color: Lanes, coverage: SIMD8<UInt16>, at x: Int) {
            var c = coverage
            if let mask {
                let m = UnsafeRawPointer(mask + x).loadUnaligned(as: UInt64.self)
                if m == 0 { return }
                if m != .max { c = Canvas.product(c, Self.widened(m)) }
            }
            let words = unsafeBitCast(c, to: SIMD2<UInt64>.self)
            if words[0] != 0 { over(color, factors: Self.pairs(c.lowHalf), at: x) }
            if words[1] != 0 { over(color, factors: Self.pairs(c.highHalf), at: x &+ 4) }
        }

        /// Eight bytes (the first in the low byte) in eight 16-bit lanes.
        @inline(__always)
        static func widened(_ bytes: UInt64) -> SIMD8<UInt16> {
            SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(bytes, to: SIMD8<UInt8>.self))
        }

        /// Four factors, each in both 16-bit lanes of its pixel's 32-bit word.
        @inline(__always)
        static func pairs(_ f: SIMD4<UInt16>) -> SIMD8<UInt16> {
            let w = SIMD4<UInt32>(truncatingIfNeeded: f)
            return unsafeBitCast(w | w &<< 16, to: SIMD8<UInt16>.self)
        }

        /// Four factors (0...255), each in both 16-bit lanes of its pixel's 32-bit word.
        @inline(__always)
        static func lanes(_ f: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(f | f &<< 16, to: SIMD8<UInt16>.self) }

        /// Four bytes (a mask's, a coverage's; the first in the low byte) as `lanes` of four
        /// factors, spread in two 64-bit words: a byte per pixel pair, then each copied into
        /// the lane above it (a multiply by 0x10001, no carry between lanes). Building the
        /// vector lane by lane costs twice the instructions on SSE2.
        @inline(__always)
        static func lanes(_ m: UInt32) -> SIMD8<UInt16> {
            let x = UInt64(m)
            let low = ((x & 0xFF) | (x & 0xFF00) << 24) &* 0x1_0001
            let high = ((x >> 16 & 0xFF) | (x & 0xFF00_0000) << 8) &* 0x1_0001
            return unsafeBitCast(SIMD2<UInt64>(low, high), to: SIMD8<UInt16>.self)
        }

        /// `count` premultiplied pixels from `colors` at as many columns from `x`, each scaled
        /// by `factor` (0...255) and the mask: `blend(_:factor:at:)` for each, eight columns'
        /// mask read and widened at once and then four columns at a time in 16-bit lanes (the
        /// same sums) when the four are all opaque or none is (a four of both, at the edge of
        /// a translucent part, pixel by pixel); columns the mask leaves out (a text mask's
        /// gaps, between its letters) are passed over.
        @inline(__always)
        func blend(_ colors: UnsafePointer<Canvas.Pixel>, count: Int, factor: UInt64, at x: Int) {
            if factor == 0 { return }
            let scale = SIMD8<UInt16>(repeating: UInt16(factor))
            var k = 0
            while k &+ 8 <= count {
                var f = scale
                if let mask {
                    let m = UnsafeRawPointer(mask + (x &+ k)).loadUnaligned(as: UInt64.self)
                    if m == 0 {
                        k &+= 8
                        continue
                    }
                    if m != .max { f = factor == 255 ? Self.widened(m) : Canvas.product(Self.widened(m), scale) }
                }
                let words = unsafeBitCast(f, to: SIMD2<UInt64>.self)
                if words[0] != 0 { four(colors + k, factors: Self.pairs(f.lowHalf), at: x &+ k) }
                if words[1] != 0 { four(colors + (k &+ 4), factors: Self.pairs(f.highHalf), at: x &+ k &+ 4) }
                k &+= 8
            }
            if k &+ 4 <= count {
                var fv = scale
                if let mask {
                    let m = UnsafeRawPointer(mask + (x &+ k)).loadUnaligned(as: UInt32.self)
                    fv = factor == 255 ? Self.lanes(m) : Canvas.product(Self.lanes(m), scale)
                }
                if unsafeBitCast(fv, to: SIMD2<UInt64>.self) != .zero { four(colors + k, factors: fv, at: x &+ k) }
                k &+= 4
            }
            while k < count {
                blend(Canvas.spread(colors[k]), factor: factor, at: x &+ k)
                k &+= 1
            }
        }

        /// Four pixels from `colors` at their factors (each in both lanes of its pixel, the mask
        /// already in them) on the four from column `x`: `Canvas.blend` for each.
        @inline(__always)
        private func four(_ colors: UnsafePointer<Canvas.Pixel>, factors fv: SIMD8<UInt16>, at x: Int) {
            let low = SIMD8<UInt16>(repeating: 0xFF)
            let s = UnsafeRawPointer(colors).loadUnaligned(as: SIMD8<UInt16>.self)
            let words = unsafeBitCast(s, to: SIMD2<UInt64>.self), alphas: UInt64 = 0xFF00_0000_FF00_0000
            if words[0] & words[1] & alphas == alphas {
                Canvas.mix(even: s & low, odd: s &>> 8, factors: fv, at: dst + x)
            } else if Self.anyOpaque(words[0]) || Self.anyOpaque(words[1]) {
                for j in 0..<4 {
                    dst[x &+ j] = Canvas.blend(Canvas.spread(colors[j]), factor: UInt64(fv[j &* 2]), over: dst[x &+ j])
                }
            } else {
                Canvas.over(even: Canvas.product(s & low, fv), odd: Canvas.product(s &>> 8, fv), at: dst + x)
            }
        }

        /// The same with the coverage as a factor of 0...255.
        @inline(__always)
        func blend(_ color: UInt64, factor: UInt64, at x: Int) {
            if factor == 0 { return }
            var f = factor
            if let mask {
                f = Canvas.product(f, UInt64(mask[x]))
                if f == 0 { return }
            }
            dst[x] = Canvas.blend(color, factor: f, over: dst[x])
        }

        /// Whether either of two pixels in a 64-bit word is opaque.
        @inline(__always)
        static func anyOpaque(_ pair: UInt64) -> Bool { pair & 0xFF00_0000 == 0xFF00_0000 || pair >> 56 == 0xFF }
    }

    /// A colour's channels in 16-bit lanes for four pixels at once: r, b (`even`) and g, a
    /// (`odd`) of each pixel, as `Canvas.over(_:_:count:)` splits pixels.
    struct Lanes {
        let even: SIMD8<UInt16>
        let odd: SIMD8<UInt16>
        /// Alpha 255: mixed in one rounding (`Canvas.mix`).
        let opaque: Bool

        @inline(__always)
        init(_ spread: UInt64) {
            // r, b and g, a are the spread's two 32-bit halves: each copied to the four pixels.
            even = unsafeBitCast(SIMD4<UInt32>(repeating: UInt32(truncatingIfNeeded: spread)), to: SIMD8<UInt16>.self)
            odd = unsafeBitCast(SIMD4<UInt32>(repeating: UInt32(truncatingIfNeeded: spread >> 32)), to: SIMD8<UInt16>.self)
            opaque = spread >> 48 == 255
        }
    }

    /// Row `y`, which must lie within the bounds the blitter was made for.
    @inline(__always)
    func row(_ y: Int) -> Row {
        let dst = pixels + y &* width
        guard let mask, let maskBase else { return Row(dst: dst, mask: nil) }
        // Shifted so that canvas column x reads mask column x - x0 (only columns inside the
        // mask are ever read: the bounds were cut to it).
        return Row(dst: dst, mask: maskBase + ((y &- mask.y0) &* mask.width &- mask.x0))
    }
}

extension Canvas {
    /// Calls `body` with a blitter and `bounds` cut to the canvas and to `mask`; nothing when
    /// that leaves no pixel.
    mutating func paint(
        within bounds: (x0: Int, y0: Int, x1: Int, y1: Int), mask: CoverageMask?,
        _ body: (Blitter, _ bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Void
    ) {
        var b = (
            x0: Swift.max(bounds.x0, 0), y0: Swift.max(bounds.y0, 0), x1: Swift.min(bounds.x1, width),
            y1: Swift.min(bounds.y1, height)
        )
        if let mask { b = mask.clip(b) }
        guard b.x0 < b.x1, b.y0 < b.y1 else { return }
        damage.add(b)
        let w = width
        pixels.withUnsafeMutableBufferPointer { dst in
            if let mask {
                mask.coverage.withUnsafeBufferPointer { m in
                    body(Blitter(pixels: dst.baseAddress!, width: w, mask: mask, maskBase: m.baseAddress!), b)
                }
            } else {
                body(Blitter(pixels: dst.baseAddress!, width: w, mask: nil, maskBase: nil), b)
            }
        }
    }
}
