/// How a strip of text (a plain coverage line or a rich-text image) is sampled at a sub-pixel
/// position, repeating sideways when tiled: pixel (x, y) covers strip column x - baseX by
/// 1 - fx and the column to its left by fx, strip row y - baseY by 1 - fy and the row above by
/// fy. It splits a row of pixels into runs in which neither sampled column wraps, enters or
/// leaves the strip, so the drawing loops need no check per pixel.
struct StripSampler {
    let baseX: Int
    let baseY: Int
    /// The strip's size in columns and rows.
    let width: Int
    let height: Int
    /// The strip's rows that may hold coverage (all of them unless told).
    let inked: Range<Int>
    /// Copies repeat every `period` pixels; 0 draws one copy.
    let period: Int
    /// Weights of the right and left column, of the lower and upper row, in 1/256 steps
    /// (each pair sums to 256).
    let wx0: UInt32
    let wx1: UInt32
    let wy0: UInt32
    let wy1: UInt32

    /// Samples a strip of `width x height` whose top-left corner is at `origin`: there when
    /// `smooth`, else floored to whole pixels; with `tilePeriod`, copies repeat sideways.
    /// Rows outside `inked` are known to be empty.
    init(origin: Point, smooth: Bool, width: Int, height: Int, inked: Range<Int>? = nil, tilePeriod: Double?) {
        let ox = smooth ? origin.x : origin.x.rounded(.down), oy = smooth ? origin.y : origin.y.rounded(.down)
        baseX = Int(pixel: ox, .down)
        baseY = Int(pixel: oy, .down)
        self.width = width
        self.height = height
        self.inked = inked ?? 0..<height
        period = tilePeriod.map { Int(pixel: $0, .toNearestOrAwayFromZero) } ?? 0
        wx1 = UInt32(Canvas.steps(Float(ox - ox.rounded(.down))))
        wx0 = 256 - wx1
        wy1 = UInt32(Canvas.steps(Float(oy - oy.rounded(.down))))
        wy0 = 256 - wy1
    }

    /// The first to the last of `height` rows of `width` values holding one that is not 0:
    /// the rows a strip of them can paint (empty when none).
    static func inkedRows<Value: BinaryInteger>(of values: [Value], width: Int, height: Int) -> Range<Int> {
        func inked(_ y: Int) -> Bool { values[y * width..<(y + 1) * width].contains { $0 != 0 } }
        guard let first = (0..<height).first(where: inked), let last = (0..<height).last(where: inked) else {
            return 0..<0
        }
        return first..<last + 1
    }

    /// The pixels within `bounds` that can touch the strip's inked rows; `nil` when none. The
    /// row (column) past the last, or the first, counts only when its weight is not 0: a strip
    /// on whole pixels paints, and so damages, none of them.
    func reach(within bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard !inked.isEmpty else { return nil }
        let top = baseY + inked.lowerBound + (wy0 == 0 ? 1 : 0)
        let bottom = baseY + inked.upperBound + (wy1 > 0 ? 1 : 0)
        let left = baseX + (wx0 == 0 ? 1 : 0), right = baseX + width + (wx1 > 0 ? 1 : 0)
        let rowStart = max(bounds.y0, top), rowEnd = min(bounds.y1, bottom)
        let columns =
            period > 0
            ? bounds.x0..<max(bounds.x0, bounds.x1)
            : max(bounds.x0, left)..<max(max(bounds.x0, left), min(bounds.x1, right))
        guard rowStart < rowEnd, !columns.isEmpty else { return nil }
        return (columns.lowerBound, rowStart, columns.upperBound, rowEnd)
    }

    /// The two strip rows pixel row `y` samples, as element offsets, with their weights; a
    /// row outside the strip reads row 0 with no weight. `nil` when neither counts.
    @inline(__always)
    func row(_ y: Int) -> (lower: Int, upper: Int, wLower: UInt32, wUpper: UInt32)? {
        let r = y - baseY
        let wLower = r < height ? wy0 : 0, wUpper = r >= 1 ? wy1 : 0
        guard wLower > 0 || wUpper > 0 else { return nil }
        return (r < height ? r * width : 0, r >= 1 ? (r - 1) * width : 0, wLower, wUpper)
    }

    /// The two columns sampled across a run: pixel k of the run reads `column0 + k * step0`
    /// at `weight0` and `column1 + k * step1` at `weight1`. A column outside the strip reads
    /// column 0 with no weight.
    struct Taps {
        let column0: Int
        let step0: Int
        let weight0: UInt32
        let column1: Int
        let step1: Int
        let weight1: UInt32

        /// Whether both columns are in the strip and next to each other.
        var adjacent: Bool { step0 == 1 && step1 == 1 && column1 &+ 1 == column0 }
    }

    /// Calls `body(x, n, taps)` for each run of `n` pixels from `x` across `columns` that
    /// reads the strip: a run in which neither column is inside it (the gap between tiled
    /// copies, or beside one copy) paints nothing and is left out.
    @inline(__always)
    func forEachRun(across columns: Range<Int>, _ body: (_ x: Int, _ n: Int, _ taps: Taps) -> Void) {
        let limit = period > 0 ? period : Int.max
        /// A strip column wrapped into one period (when tiled).
        @inline(__always) func wrapped(_ col: Int) -> Int {
            guard period > 0 else { return col }
            let c = col % period
            return c < 0 ? c + period : c
        }
        /// How many pixels column `c` advances before it enters or leaves the strip or wraps.
        @inline(__always) func run(_ c: Int) -> Int { c < 0 ? -c : c < width ? width - c : limit - c }
        var x = columns.lowerBound, c0 = wrapped(x - baseX), c1 = wrapped(x - baseX - 1)
        while x < columns.upperBound {
            let n = Swift.min(columns.upperBound - x, run(c0), run(c1))
            let in0 = c0 >= 0 && c0 < width, in1 = c1 >= 0 && c1 < width
            if in0 || in1 {
                body(
                    x, n,
                    Taps(
                        column0: in0 ? c0 : 0, step0: in0 ? 1 : 0, weight0: in0 ? wx0 : 0, column1: in1 ? c1 : 0,
                        step1: in1 ? 1 : 0, weight1: in1 ? wx1 : 0))
            }
            x += n
            c0 += n
            if c0 == limit { c0 = 0 }
            c1 += n
            if c1 == limit { c1 = 0 }
        }
    }
}
