/// Drawing a line of text (its rasterised coverage) in one colour.
extension Canvas {
    /// Draws coverage (a rasterised text) at a fractional position in one colour. `smooth`
    /// box-filters sub-pixel positions; otherwise the position is floored to whole pixels.
    /// With `tilePeriod`, copies repeat every that many pixels to the right and left.
    public mutating func draw(
        _ bitmap: AlphaBitmap, at origin: Point, color: Color, opacity: Float, smooth: Bool, tilePeriod: Double? = nil,
        clip: Rect, mask: CoverageMask? = nil
    ) {
        guard bitmap.width > 0, bitmap.height > 0 else { return }
        let strip = StripSampler(
            origin: origin, smooth: smooth, width: bitmap.width, height: bitmap.height, tilePeriod: tilePeriod)
        guard let reach = strip.reach(within: clip.pixelBounds(clippedTo: width, height)) else { return }
        let color = Canvas.premultiplied(color, opacity: opacity)
        Canvas.unitCoverage.withUnsafeBufferPointer { unit in
            bitmap.coverage.withUnsafeBufferPointer { cov in
                paint(within: reach, mask: mask) { blitter, b in
                    for y in b.y0..<b.y1 {
                        guard let row = strip.row(y) else { continue }
                        let lower = cov.baseAddress! + row.lower, upper = cov.baseAddress! + row.upper
                        let oneRow = row.wLower == 1
                        let line = blitter.row(y)
                        strip.forEachRun(across: b.x0..<b.x1) { x, n, taps in
                            @inline(__always) func pixel(_ k: Int) {
                                let j0 = taps.column0 &+ k &* taps.step0, j1 = taps.column1 &+ k &* taps.step1
                                var c = unit[Int(lower[j0])] * taps.weight0 + unit[Int(lower[j1])] * taps.weight1
                                if !oneRow {
                                    c =
                                        c * row.wLower
                                        + (unit[Int(upper[j0])] * taps.weight0 + unit[Int(upper[j1])] * taps.weight1)
                                        * row.wUpper
                                }
                                // Blended even where the coverage is 0 (which leaves the pixel as
                                // it was): a branch per pixel on glyph shapes mispredicts.
                                line.blend(color, coverage: c, at: x &+ k)
                            }
                            var k = 0
                            if taps.adjacent {
                                // Eight pixels read nine neighbouring bytes a row: where they are
                                // all 0 (between letters, in the gap) nothing is drawn.
                                while k &+ 8 <= n {
                                    let at = taps.column1 &+ k
                                    var any =
                                        UnsafeRawPointer(lower + at).loadUnaligned(as: UInt64.self)
                                        | UInt64(lower[at &+ 8])
                                    if !oneRow {
                                        any |=
                                            UnsafeRawPointer(upper + at).loadUnaligned(as: UInt64.self)
                                            | UInt64(upper[at &+ 8])
                                    }
                                    if any != 0 { for j in k..<(k &+ 8) { pixel(j) } }
                                    k &+= 8
                                }
                            }
                            while k < n {
                                pixel(k)
                                k &+= 1
                            }
                        }
                    }
                }
            }
        }
    }
}

extension Canvas {
    /// Coverage byte to 0...1.
    static let unitCoverage: [Float] = (0...255).map { Float($0) / 255 }
}
