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
    /// Source-over of `source`'s pixels inside (0, 0)...(`sourceWidth`, `sourceHeight`),
    /// placed by a projective map, at `opacity`, within the rows and columns of `bounds`.
    /// `inverse` takes a pixel centre of this canvas to source coordinates (the inverse of
    /// the map that places the source); each pixel samples the source there with `filter`.
    /// Outside the source everything is transparent, so a linear sample fades across the
    /// source's edge (an anti-aliased edge, as cairo's bilinear filter with no extend
    /// draws). Where the map puts the source at or behind the viewer (w <= 0) nothing is
    /// drawn. Allocates nothing.
    ///
    /// The arithmetic of each sample is fixed (golden frames pin it); what is fast is around
    /// it: a row's pixels that cannot reach the source only step the map, four texels wholly
    /// inside the source are read without bounds checks, four transparent ones are skipped
    /// and four equal ones are their own sample (the weights sum to 1 within far less than
    /// half a level, so the rounded sample is exactly that pixel).
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
        let (fw, fh) = (Float(sw), Float(sh))
        // An affine map (no perspective) keeps w of every pixel its row's first: the span of
        // a row that can reach the source is then found by solving, not by visiting.
        let affine = inverse.m13 == 0
        source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!
                let d = dst.baseAddress!
                @inline(__always) func levels(_ p: Pixel) -> SIMD4<Float> {
                    SIMD4<Float>(
                        (SIMD4<Int32>(repeating: Int32(bitPattern: p)) &>> SIMD4(0, 8, 16, 24)) & SIMD4(repeating: 0xFF))
                }
                // `rounded(.down)` without a call into libm (sampled coordinates lie within
                // (-2, 2050), where truncation is exact).
                @inline(__always) func floor(_ a: Float) -> Float {
                    let t = Float(Int32(a))
                    return t > a ? t - 1 : t
                }
                @inline(__always) func texel(_ i: Int, _ j: Int) -> Pixel {
                    guard i >= 0, j >= 0, i < sw, j < sh else { return 0 }
                    return s[j &* stride &+ i]
                }
                for y in bounds.y0..<bounds.y1 {
                    // The row's first pixel centre mapped; each step right adds the map's first row.
                    var q = inverse.apply(Double(bounds.x0) + 0.5, Double(y) + 0.5)
                    let row = y &* w
                    var start = bounds.x0, end = bounds.x1
                    if affine {
                        guard q.w > 0 else { continue }
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
                        let k0 = Swift.max(0, Swift.min(span, (lo - 1).rounded(.down)))
                        let k1 = Swift.max(0, Swift.min(span, (hi + 2).rounded(.up)))
                        start = bounds.x0 + Int(k0)
                        end = bounds.x0 + Int(k1)
                        // Stepped to the span's first pixel add by add, as the loop would.
                        for _ in bounds.x0..<start {
                            (q.x, q.y, q.w) = (q.x + inverse.m11, q.y + inverse.m12, q.w + inverse.m13)
                        }
                    }
                    guard start < end else { continue }
                    let unit = affine && q.w == 1
                    for x in start..<end {
                        defer { (q.x, q.y, q.w) = (q.x + inverse.m11, q.y + inverse.m12, q.w + inverse.m13) }
                        guard q.w > 0 else { continue }
                        // w is exactly 1 for most affine maps: dividing by it changes nothing.
                        let u: Float, v: Float
                        if unit { (u, v) = (Float(q.x), Float(q.y)) } else { (u, v) = (Float(q.x / q.w), Float(q.y / q.w)) }
                        // Wholly outside (beyond the half pixel a linear sample reaches).
                        guard u > -1, v > -1, u < fw + 1, v < fh + 1 else { continue }
                        let p: Pixel
                        switch filter {
                        case .nearest:
                            guard u >= 0, v >= 0, u < fw, v < fh else { continue }
                            p = texel(Int(u), Int(v))
                        case .linear:
                            let sx = u - 0.5, sy = v - 0.5
                            let fx = floor(sx), fy = floor(sy)
                            let i = Int(fx), j = Int(fy)
                            let p00: Pixel, p10: Pixel, p01: Pixel, p11: Pixel
                            if i >= 0, j >= 0, i &+ 1 < sw, j &+ 1 < sh {
                                let t = s + (j &* stride &+ i)
                                (p00, p10, p01, p11) = (t[0], t[1], t[stride], t[stride &+ 1])
                            } else {
                                (p00, p10) = (texel(i, j), texel(i &+ 1, j))
                                (p01, p11) = (texel(i, j &+ 1), texel(i &+ 1, j &+ 1))
                            }
                            if p00 == p10, p00 == p01, p00 == p11 {
                                p = p00
                            } else {
                                let ax = sx - fx, ay = sy - fy
                                let top = levels(p00) * (1 - ax) + levels(p10) * ax
                                let bottom = levels(p01) * (1 - ax) + levels(p11) * ax
                                p = Canvas.packed(levels: top * (1 - ay) + bottom * ay)
                            }
                        }
                        if p == 0 { continue }
                        d[row &+ x] = Canvas.blend(Canvas.spread(p), factor: f, over: d[row &+ x])
                    }
                }
            }
        }
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
