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

        /// Premultiplied source-over of `color` scaled by `coverage` and the mask at column `x`.
        @inline(__always)
        func blend(_ color: Canvas.Pixel, coverage: Float, at x: Int) {
            let c = mask.map { coverage * (Float($0[x]) * (1 / 255)) } ?? coverage
            let s = color * c
            dst[x] = s + dst[x] * (1 - s.w)
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
