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
            origin: origin, smooth: smooth, width: bitmap.width, height: bitmap.height, inked: bitmap.inkedRows,
            tilePeriod: tilePeriod)
        guard let reach = strip.reach(within: clip.pixelBounds(clippedTo: width, height)) else { return }
        let color = Canvas.spread(Canvas.premultiplied(color, opacity: opacity))
        let lanes = Blitter.Lanes(color)
        bitmap.coverage.withUnsafeBufferPointer { cov in
            paint(within: reach, mask: mask) { blitter, bounds in
                // Every row splits into the same runs: found once, each then drawn down the rows.
                strip.forEachRun(across: bounds.x0..<bounds.x1) { x, n, taps in
                    for y in bounds.y0..<bounds.y1 {
                        guard let row = strip.row(y) else { continue }
                        let lower = cov.baseAddress! + row.lower, upper = cov.baseAddress! + row.upper
                        let oneRow = row.wLower == 256
                        let (wl, wu) = (row.wLower, row.wUpper)
                        let line = blitter.row(y)
                        let (w0, w1) = (taps.weight0, taps.weight1)
                        /// Pixel k's coverage, 0...255.
                        @inline(__always) func coverage(_ k: Int) -> UInt32 {
                            // Coverage bytes weighted in integers: the two columns (and rows)
                            // a sub-pixel position straddles, in 1/256 steps.
                            let j0 = taps.column0 &+ k &* taps.step0, j1 = taps.column1 &+ k &* taps.step1
                            var c = UInt32(lower[j0]) &* w0 &+ UInt32(lower[j1]) &* w1
                            if oneRow {
                                c = (c &+ 128) >> 8
                            } else {
                                let above = UInt32(upper[j0]) &* w0 &+ UInt32(upper[j1]) &* w1
                                c = (c &* wl &+ above &* wu &+ 32768) >> 16
                            }
                            // Blended even where the coverage is 0 (the blend returns at once).
                            return Swift.min(c, 255)
                        }
                        @inline(__always) func pixel(_ k: Int) {
                            line.blend(color, factor: UInt64(coverage(k)), at: x &+ k)
                        }
                        var k = 0
                        if taps.adjacent && oneRow {
                            // Eight pixels' coverage at once, in 16-bit lanes: a byte times a
                            // weight, plus its neighbour times the other, is at most 255 x 256.
                            // The same sums `coverage` makes.
                            let (v1, v0) = (SIMD8<UInt16>(repeating: UInt16(w1)), SIMD8<UInt16>(repeating: UInt16(w0)))
                            /// The coverage of eight pixels from their left (`a`) and right (`b`) bytes.
                            @inline(__always) func eight(_ a: UInt64, _ b: UInt64) -> SIMD8<UInt16> {
                                (Blitter.Row.widened(a) &* v1 &+ Blitter.Row.widened(b) &* v0 &+ SIMD8(repeating: 128))
                                    &>> 8
                            }
                            while k &+ 8 <= n {
                                let at = taps.column1 &+ k
                                let a = UnsafeRawPointer(lower + at).loadUnaligned(as: UInt64.self)
                                let b = UnsafeRawPointer(lower + (at &+ 1)).loadUnaligned(as: UInt64.self)
                                if a | b != 0 {
                                    line.blend(lanes, coverage: eight(a, b), at: x &+ k)
                                }
                                k &+= 8
                            }
                            // The last few the same way, as eight pixels ending inside the
                            // bounds (at the run's end, or where the bounds end): their bytes
                            // copied into place and every other pixel of the eight given no
                            // coverage, which leaves it as it is.
                            let r = n &- k
                            if r > 0 && bounds.x1 &- bounds.x0 >= 8 {
                                let start = Swift.min(x &+ k, bounds.x1 &- 8), off = x &+ k &- start
                                let at = taps.column1 &+ k
                                var bytes: (UInt64, UInt64) = (0, 0)
                                let (a, b) = withUnsafeMutableBytes(of: &bytes) { p in
                                    // Columns at...at + r: the run's last r pixels read them all.
                                    for j in 0...r { p[off &+ j] = lower[at &+ j] }
                                    return (
                                        p.loadUnaligned(as: UInt64.self),
                                        p.loadUnaligned(fromByteOffset: 1, as: UInt64.self)
                                    )
                                }
                                let keep: UInt64 = ((1 << (8 &* UInt64(r))) &- 1) << (8 &* UInt64(off))
                                if (a | b) & keep != 0 {
                                    line.blend(lanes, coverage: eight(a & keep, b & keep), at: start)
                                }
                                k = n
                            }
                        } else if taps.adjacent {
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
                                if any != 0 {
                                    for j in stride(from: k, to: k &+ 8, by: 4) {
                                        let f = SIMD4(coverage(j), coverage(j &+ 1), coverage(j &+ 2), coverage(j &+ 3))
                                        line.blend(lanes, factors: f, at: x &+ j)
                                    }
                                }
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
