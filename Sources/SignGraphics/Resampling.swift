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
        source.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!
                @inline(__always) func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
                    guard i >= 0, j >= 0, i < sw, j < sh else { return .zero }
                    let p = s[j &* stride &+ i]
                    if p == 0 { return .zero }
                    return SIMD4(Float(p & 0xFF), Float(p >> 8 & 0xFF), Float(p >> 16 & 0xFF), Float(p >> 24))
                }
                for y in bounds.y0..<bounds.y1 {
                    // The row's first pixel centre mapped; each step right adds the map's first row.
                    var q = inverse.apply(Double(bounds.x0) + 0.5, Double(y) + 0.5)
                    let row = y &* w
                    for x in bounds.x0..<bounds.x1 {
                        defer { (q.x, q.y, q.w) = (q.x + inverse.m11, q.y + inverse.m12, q.w + inverse.m13) }
                        guard q.w > 0 else { continue }
                        let u = Float(q.x / q.w), v = Float(q.y / q.w)
                        // Wholly outside (beyond the half pixel a linear sample reaches).
                        guard u > -1, v > -1, u < fw + 1, v < fh + 1 else { continue }
                        let sample: SIMD4<Float>
                        switch filter {
                        case .nearest:
                            guard u >= 0, v >= 0, u < fw, v < fh else { continue }
                            sample = texel(Int(u), Int(v))
                        case .linear:
                            let sx = u - 0.5, sy = v - 0.5
                            let fx = sx.rounded(.down), fy = sy.rounded(.down)
                            let i = Int(fx), j = Int(fy)
                            let ax = sx - fx, ay = sy - fy
                            let top = texel(i, j) * (1 - ax) + texel(i &+ 1, j) * ax
                            let bottom = texel(i, j &+ 1) * (1 - ax) + texel(i &+ 1, j &+ 1) * ax
                            sample = top * (1 - ay) + bottom * ay
                        }
                        let p = Canvas.packed(levels: sample)
                        if p == 0 { continue }
                        dst[row &+ x] = Canvas.blend(Canvas.spread(p), factor: f, over: dst[row &+ x])
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
