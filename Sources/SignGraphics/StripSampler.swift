/// How a strip of text (a plain coverage line or a rich-text image) is sampled at a sub-pixel
/// horizontal position, repeating sideways when tiled: pixel x covers strip column
/// x - baseX by 1 - fx and the column to its left by fx. It splits a row of pixels into runs
/// in which neither sampled column wraps, enters or leaves the strip, so the drawing loops
/// need no check per pixel.
struct StripSampler {
    /// The strip column under pixel 0's left tap is -baseX.
    let baseX: Int
    /// Columns in the strip.
    let width: Int
    /// Copies repeat every `period` pixels; 0 draws one copy.
    let period: Int

    /// The pixels of `x0..<x1` that can touch the strip.
    func pixels(within x0: Int, _ x1: Int) -> Range<Int> {
        guard period == 0 else { return x0..<max(x0, x1) }
        let start = max(x0, baseX), end = min(x1, baseX + width + 1)
        return start..<max(start, end)
    }

    /// Calls `body(x, n, c0, c1)` for each run of `n` pixels from `x` across `pixels`: `c0` is
    /// the strip column the run's first pixel samples at weight 1 - fx and `c1` the one at
    /// weight fx, each `nil` when it lies outside the strip for the whole run. Both advance by
    /// one column a pixel within the run.
    @inline(__always)
    func forEachRun(across pixels: Range<Int>, _ body: (_ x: Int, _ n: Int, _ c0: Int?, _ c1: Int?) -> Void) {
        let limit = period > 0 ? period : Int.max
        /// A strip column wrapped into one period (when tiled).
        @inline(__always) func wrapped(_ col: Int) -> Int {
            guard period > 0 else { return col }
            let c = col % period
            return c < 0 ? c + period : c
        }
        /// How many pixels column `c` advances before it enters or leaves the strip or wraps.
        @inline(__always) func run(_ c: Int) -> Int { c < 0 ? -c : c < width ? width - c : limit - c }
        var x = pixels.lowerBound, c0 = wrapped(x - baseX), c1 = wrapped(x - baseX - 1)
        while x < pixels.upperBound {
            let n = Swift.min(pixels.upperBound - x, run(c0), run(c1))
            body(x, n, c0 >= 0 && c0 < width ? c0 : nil, c1 >= 0 && c1 < width ? c1 : nil)
            x += n
            c0 += n
            if c0 == limit { c0 = 0 }
            c1 += n
            if c1 == limit { c1 = 0 }
        }
    }
}
