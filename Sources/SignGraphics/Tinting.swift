extension Canvas {
    /// Source-over of another canvas of the same size within the rows and columns of
    /// `bounds`, each of its colours multiplied first by `tint` (straight RGBA in 0...1): a
    /// premultiplied pixel's colour channels by the tint's colour times its alpha, its alpha
    /// by the tint's alpha (a `CAReplicatorLayer` instance's colour). Transparent source
    /// pixels are skipped.
    public mutating func composite(
        _ other: Canvas, tint: SIMD4<Float>, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        guard other.width == width, other.height == height, bounds.x0 < bounds.x1, bounds.y0 < bounds.y1 else {
            return
        }
        damage.add(bounds)
        let k = SIMD4(tint.x * tint.w, tint.y * tint.w, tint.z * tint.w, tint.w)
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in bounds.y0..<bounds.y1 {
                    for i in (y &* width &+ bounds.x0)..<(y &* width &+ bounds.x1) {
                        let p = src[i]
                        if p >> 24 == 0 { continue }
                        let v = SIMD4(Float(p & 0xFF), Float(p >> 8 & 0xFF), Float(p >> 16 & 0xFF), Float(p >> 24))
                        let q = Canvas.packed(levels: v * k)
                        if q == 0 { continue }
                        dst[i] = Canvas.blend(Canvas.spread(q), factor: 255, over: dst[i])
                    }
                }
            }
        }
    }
}
