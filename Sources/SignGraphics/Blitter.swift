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
            var f = factors
            if let mask {
                let m = UnsafeRawPointer(mask + x).loadUnaligned(as: UInt32.self)
                let t = f &* SIMD4(m & 0xFF, m >> 8 & 0xFF, m >> 16 & 0xFF, m >> 24) &+ 128
                f = (t &+ (t &>> 8)) &>> 8
            }
            let fv = unsafeBitCast(f | f &<< 16, to: SIMD8<UInt16>.self)
            Canvas.over(even: Canvas.product(color.even, fv), odd: Canvas.product(color.odd, fv), at: dst + x)
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
            if f == 255 && color >> 48 == 255 {
                dst[x] = Canvas.pack(color)
                return
            }
            dst[x] = Canvas.over(Canvas.scale(color, by: f), dst[x])
        }
    }

    /// A colour's channels in 16-bit lanes for four pixels at once: r, b (`even`) and g, a
    /// (`odd`) of each pixel, as `Canvas.over(_:_:count:)` splits pixels.
    struct Lanes {
        let even: SIMD8<UInt16>
        let odd: SIMD8<UInt16>

        init(_ spread: UInt64) {
            let (r, b, g, a) = (
                UInt16(spread & 0xFF), UInt16(spread >> 16 & 0xFF), UInt16(spread >> 32 & 0xFF), UInt16(spread >> 48)
            )
            even = SIMD8(r, b, r, b, r, b, r, b)
            odd = SIMD8(g, a, g, a, g, a, g, a)
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
