/// How a transformed layer's pixels are sampled: Core Animation's `magnificationFilter` and
/// `minificationFilter` values. `trilinear` (mipmapped) is read as `linear`: a sign's
/// layers are small and seldom shrunk far.
public enum ResamplingFilter: String, Sendable, Hashable, CaseIterable {
    /// Bilinear: the four nearest pixels weighted by distance (`kCAFilterLinear`).
    case linear
    /// The nearest pixel (`kCAFilterNearest`): hard pixel edges, as pixel art wants.
    case nearest
}

extension Canvas {
    /// Bits of a sampling weight: a texel's share is a multiple of 1/128 each way, as
    /// pixman's bilinear filter weighs (and so cairo's).
    public static let samplingWeightBits = 7

    /// A source coordinate in 32.32 fixed point, rounded to nearest (half away from zero,
    /// added and truncated: no call into libm); `nil` at 2^28 pixels and beyond (or not a
    /// number), which no sample reaches. (pixman's 16.16 would put a layer enlarged 100,000
    /// times a texel off at its seam.)
    @inlinable @inline(__always)
    public static func fixed(_ a: Double) -> Int? {
        guard a.magnitude < 268_435_456 else { return nil }
        let x = a * 4_294_967_296
        return Int(x < 0 ? x - 0.5 : x + 0.5)
    }

    /// Source-over of `source`'s pixels inside (0, 0)...(`sourceWidth`, `sourceHeight`),
    /// placed by a projective map, at `opacity`, within the rows and columns of `bounds`.
    /// `inverse` takes a pixel centre of this canvas to source coordinates (the inverse of
    /// the map that places the source); each pixel samples the source there with `filter`.
    /// Outside the source everything is transparent, so a linear sample fades across the
    /// source's edge (an anti-aliased edge, as cairo's bilinear filter with no extend
    /// draws). Where the map puts the source at or behind the viewer (w <= 0) nothing is
    /// drawn. Allocates nothing.
    ///
    /// The arithmetic is pixman's, in integers: a sample's coordinates are fixed point
    /// (`fixed`), found per pixel for a projective map and, for an affine one, from the
    /// row's first pixel by adding the map's fixed step (a row whose step across it reaches
    /// 2^28 pixels draws nothing); a linear sample weighs the four
    /// texels' 16-bit lanes by 7-bit weights (columns, then across), rounded once; the
    /// nearest takes the texel the coordinate falls in. Around it: a row's pixels that
    /// cannot reach the source only step the map, four texels wholly inside are read without
    /// bounds checks, four equal ones are their own sample and two equal columns or rows are
    /// weighed one way (exactly what the weighing gives).
    public mutating func draw(
        _ source: Canvas, width sourceWidth: Int, height sourceHeight: Int, inverse: Homography,
        filter: ResamplingFilter, opacity: Float, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        guard bounds.x0 < bounds.x1, bounds.y0 < bounds.y1 else { return }
        let sw = Swift.min(sourceWidth, source.width), sh = Swift.min(sourceHeight, source.height)
        guard sw > 0, sh > 0 else { return }
        damage.add(bounds)
        let f = Canvas.factor(opacity)
        let stride = source.width, w = width
        let linear = filter == .linear
        // An affine map (no perspective) keeps w of every pixel its row's first: the span of
        // a row that can reach the source is then found by solving, not by visiting.
        let affine = inverse.m13 == 0
        source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!
                let d = dst.baseAddress!
                // Texels inside the source; the four of a linear sample at texel (i, j) are
                // read unchecked when i < sw - 1 and j < sh - 1.
                let (uw, uh) = (UInt(sw), UInt(sh))
                let (iw, ih) = (UInt(sw &- 1), UInt(sh &- 1))
                @inline(__always) func texel(_ i: Int, _ j: Int) -> Pixel {
                    guard UInt(bitPattern: i) < uw, UInt(bitPattern: j) < uh else { return 0 }
                    return s[j &* stride &+ i]
                }
                /// The sample at fixed (sx, sy) (source coordinates less half a texel), as a
                /// spread pixel; 0 when transparent.
                @inline(__always) func sample(_ sx: Int, _ sy: Int) -> UInt64 {
                    let i = sx &>> 32, j = sy &>> 32
                    if !linear {
                        let (n, m) = ((sx &+ 0x8000_0000) &>> 32, (sy &+ 0x8000_0000) &>> 32)
                        return Canvas.spread(texel(n, m))
                    }
                    // Reaching the source: one of texels i and i + 1 (j and j + 1) inside.
                    guard UInt(bitPattern: i &+ 1) <= uw, UInt(bitPattern: j &+ 1) <= uh else { return 0 }
                    let p00: Pixel, p10: Pixel, p01: Pixel, p11: Pixel
                    if UInt(bitPattern: i) < iw, UInt(bitPattern: j) < ih {
                        let t = s + (j &* stride &+ i)
                        (p00, p10, p01, p11) = (t[0], t[1], t[stride], t[stride &+ 1])
                    } else {
                        (p00, p10) = (texel(i, j), texel(i &+ 1, j))
                        (p01, p11) = (texel(i, j &+ 1), texel(i &+ 1, j &+ 1))
                    }
                    let wx = UInt64(truncatingIfNeeded: sx &>> 25) & 0x7F
                    let wy = UInt64(truncatingIfNeeded: sy &>> 25) & 0x7F
                    // Equal columns (a flat colour, a gradient along y) or equal rows weigh
                    // one way only: the same result, in one word.
                    if p00 == p10, p01 == p11 {
                        return p00 == p01 ? Canvas.spread(p00) : Canvas.between(p00, p01, y: wy)
                    }
                    if p00 == p01, p10 == p11 { return Canvas.between(p00, p10, y: wx) }
                    return Canvas.weighed(p00, p10, p01, p11, x: wx, y: wy)
                }
                for y in bounds.y0..<bounds.y1 {
                    // The row's first pixel centre mapped; each step right adds the map's first row.
                    var q = inverse.apply(Double(bounds.x0) + 0.5, Double(y) + 0.5)
                    let row = y &* w
                    if affine {
                        guard q.w > 0 else { continue }
                        let across = Double(bounds.x1 - bounds.x0)
                        guard let u0 = Canvas.fixed(q.x / q.w - 0.5), let v0 = Canvas.fixed(q.y / q.w - 0.5),
                            let du = Canvas.fixed(inverse.m11 / q.w), let dv = Canvas.fixed(inverse.m12 / q.w),
                            Canvas.fixed(inverse.m11 / q.w * across) != nil,
                            Canvas.fixed(inverse.m12 / q.w * across) != nil
                        else { continue }
                        // Where u and v (linear in x along the row) are within (-1, size + 1),
                        // widened by a pixel each way: the per-pixel test still decides.
                        var lo = -Double.infinity, hi = Double.infinity
                        func within(_ a: Double, _ da: Double, _ limit: Double) {
                            let (a0, a1) = (-1 * q.w, limit * q.w)
                            if da == 0 {
                                if !(a > a0 - 1e-6 * q.w && a < a1 + 1e-6 * q.w) { (lo, hi) = (1, 0) }
                                return
                            }
                            let (k0, k1) = ((a0 - a) / da, (a1 - a) / da)
                            lo = Swift.max(lo, Swift.min(k0, k1))
                            hi = Swift.min(hi, Swift.max(k0, k1))
                        }
                        within(q.x, inverse.m11, Double(sw) + 1)
                        within(q.y, inverse.m12, Double(sh) + 1)
                        guard lo <= hi else { continue }
                        let span = Double(bounds.x1 - bounds.x0)
                        let k0 = Int(Swift.max(0, Swift.min(span, (lo - 1).rounded(.down))))
                        let k1 = Int(Swift.max(0, Swift.min(span, (hi + 2).rounded(.up))))
                        guard k0 < k1 else { continue }
                        var (sx, sy) = (u0 &+ k0 &* du, v0 &+ k0 &* dv)
                        for x in (bounds.x0 &+ k0)..<(bounds.x0 &+ k1) {
                            let c = sample(sx, sy)
                            sx &+= du
                            sy &+= dv
                            if c == 0 { continue }
                            d[row &+ x] = Canvas.blend(c, factor: f, over: d[row &+ x])
                        }
                    } else {
                        for x in bounds.x0..<bounds.x1 {
                            defer { (q.x, q.y, q.w) = (q.x + inverse.m11, q.y + inverse.m12, q.w + inverse.m13) }
                            guard q.w > 0, let sx = Canvas.fixed(q.x / q.w - 0.5),
                                let sy = Canvas.fixed(q.y / q.w - 0.5)
                            else { continue }
                            let c = sample(sx, sy)
                            if c == 0 { continue }
                            d[row &+ x] = Canvas.blend(c, factor: f, over: d[row &+ x])
                        }
                    }
                }
            }
        }
    }

    /// `weighed` of two equal columns (or rows, `y` then the right column's share):
    /// `(c0 (128 - y) + c1 y + 64) >> 7`, exactly what the four-texel weighing gives, all in
    /// the 16-bit lanes of one word.
    @inlinable @inline(__always)
    public static func between(_ p0: Pixel, _ p1: Pixel, y: UInt64) -> UInt64 {
        (spread(p0) &* (128 &- y) &+ spread(p1) &* y &+ 0x0040_0040_0040_0040) &>> 7 & 0x00FF_00FF_00FF_00FF
    }

    /// The bilinear weighing of four premultiplied texels (top left, top right, bottom left,
    /// bottom right) by 7-bit weights `x` and `y` (0...127, the share of the right and the
    /// bottom texels in 128ths), as a spread pixel: each channel
    /// `((c00 (128 - y) + c01 y) (128 - x) + (c10 (128 - y) + c11 y) x + 2^13) >> 14`.
    /// The columns are weighed in the 16-bit lanes of a spread pixel (at most 255 * 128),
    /// across in two words of 32-bit lanes.
    @inlinable @inline(__always)
    public static func weighed(_ p00: Pixel, _ p10: Pixel, _ p01: Pixel, _ p11: Pixel, x: UInt64, y: UInt64) -> UInt64 {
        let left = spread(p00) &* (128 &- y) &+ spread(p01) &* y
        let right = spread(p10) &* (128 &- y) &+ spread(p11) &* y
        let lanes: UInt64 = 0x0000_FFFF_0000_FFFF, half: UInt64 = 0x0000_2000_0000_2000
        let low: UInt64 = 0x0000_00FF_0000_00FF
        let even = ((left & lanes) &* (128 &- x) &+ (right & lanes) &* x &+ half) &>> 14 & low
        let odd = ((left &>> 16 & lanes) &* (128 &- x) &+ (right &>> 16 & lanes) &* x &+ half) &>> 14 & low
        return even | odd &<< 16
    }

    /// A premultiplied pixel from levels in 0...255, each rounded to nearest (as `pixel(_:)`
    /// rounds, without going through 0...1, so whole levels come back exact).
    @inlinable @inline(__always)
    static func packed(levels: SIMD4<Float>) -> Pixel {
        let q = unsafeBitCast(levels + SIMD4(repeating: 8_388_608), to: SIMD4<UInt32>.self)
        let v = (q & SIMD4(repeating: 0x7F_FFFF)).replacing(with: 255, where: q & SIMD4(repeating: 0x7F_FFFF) .> 255)
        return v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24
    }
}
