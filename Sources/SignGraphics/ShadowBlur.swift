/// A shadow's alpha: a coverage blurred by a Gaussian and moved by an offset, across then
/// down (the Gaussian is separable), over a board of fixed size. Its buffers are made once
/// for the board and its kernels hold the largest σ, so blurring allocates nothing and its
/// memory does not grow with the radius. The source is any coverage: a layer's composited
/// alpha (`CoverageMask.read(alphaOf:in:)`), or a shape's fill rasterised into a mask.
public struct ShadowBlur: Sendable {
    public typealias Box = (x0: Int, y0: Int, x1: Int, y1: Int)

    public let width: Int
    public let height: Int
    private var across = GaussianKernel()
    private var down = GaussianKernel()
    /// The rows blurred across, before they are blurred down.
    private var rows: [Float]
    /// One output row's sums while it is blurred down.
    private var line: [Float]

    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        rows = [Float](repeating: 0, count: self.width * self.height)
        line = [Float](repeating: 0, count: self.width)
    }

    /// Blurs `alpha` (board-sized, placed at 0, 0), read only inside `box`, by a Gaussian of
    /// standard deviation `sigma` pixels (clamped to `GaussianKernel.maxSigma`), moved by
    /// `offset`, into `shadow` (board-sized, at 0, 0) within `clip`. Returns the box written;
    /// `shadow` outside it is left as it was.
    @discardableResult
    public mutating func blur(
        _ alpha: CoverageMask, in box: Box, sigma: Double, offset: Point, clip: Box, into shadow: inout CoverageMask
    ) -> Box {
        let empty: Box = (0, 0, 0, 0)
        guard alpha.width == width, alpha.height == height, shadow.width == width, shadow.height == height,
            box.x0 < box.x1, box.y0 < box.y1
        else { return empty }
        // Whole pixels of the offset shift the box; the fraction goes into the kernels.
        let limit = Double(4 * (width + height))
        let dx = offset.x.isNaN ? 0 : min(max(offset.x, -limit), limit)
        let dy = offset.y.isNaN ? 0 : min(max(offset.y, -limit), limit)
        let (sx, sy) = (dx.rounded(.down), dy.rounded(.down))
        across.set(sigma: sigma, phase: dx - sx)
        down.set(sigma: sigma, phase: dy - sy)
        let (shiftX, shiftY) = (Int(sx), Int(sy))
        // An output pixel x reads sources x - shift - first - i for i in 0..<count.
        let x0 = max(clip.x0, max(0, box.x0 + shiftX + across.first))
        let x1 = min(clip.x1, min(width, box.x1 + shiftX + across.first + across.count - 1))
        let y0 = max(clip.y0, max(0, box.y0 + shiftY + down.first))
        let y1 = min(clip.y1, min(height, box.y1 + shiftY + down.first + down.count - 1))
        guard x0 < x1, y0 < y1 else { return empty }
        let w = width
        let (acrossFirst, acrossCount, downFirst, downCount) = (across.first, across.count, down.first, down.count)
        // Tap by tap over contiguous columns, so the inner loops are plain multiply-adds the
        // compiler vectorises: each tap adds its weight times the source shifted by it.
        across.weights.withUnsafeBufferPointer { kx in
            alpha.coverage.withUnsafeBufferPointer { src in
                rows.withUnsafeMutableBufferPointer { rows in
                    // Across: the source's rows, at the output's columns.
                    for y in box.y0..<box.y1 {
                        let row = rows.baseAddress! + y &* w
                        row.advanced(by: x0).update(repeating: 0, count: x1 &- x0)
                        let source = src.baseAddress! + y &* w
                        for i in 0..<acrossCount {
                            // Output x reads source x - shift - first - i, inside the box.
                            let lag = shiftX &+ acrossFirst &+ i
                            let from = max(x0, box.x0 &+ lag), to = min(x1, box.x1 &+ lag)
                            guard from < to else { continue }
                            let weight = kx[i]
                            for x in from..<to { row[x] += weight * Float(source[x &- lag]) }
                        }
                    }
                }
            }
        }
        down.weights.withUnsafeBufferPointer { ky in
            rows.withUnsafeBufferPointer { rows in
                line.withUnsafeMutableBufferPointer { line in
                    shadow.coverage.withUnsafeMutableBufferPointer { out in
                        // Down: the output's rows from the rows blurred across.
                        let sum = line.baseAddress!
                        for y in y0..<y1 {
                            sum.advanced(by: x0).update(repeating: 0, count: x1 &- x0)
                            for i in 0..<downCount {
                                let j = y &- shiftY &- downFirst &- i
                                guard j >= box.y0, j < box.y1 else { continue }
                                let weight = ky[i]
                                let source = rows.baseAddress! + j &* w
                                for x in x0..<x1 { sum[x] += weight * source[x] }
                            }
                            let target = out.baseAddress! + y &* w
                            for x in x0..<x1 { target[x] = UInt8(Canvas.rounded(sum[x], atMost: 255)) }
                        }
                    }
                }
            }
        }
        return (x0, y0, x1, y1)
    }
}

extension CoverageMask {
    /// A transparent board-sized mask at 0, 0.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, coverage: [UInt8](repeating: 0, count: width * height))
    }

    /// Writes the alpha of `canvas` (the mask's size) inside `box` into this mask, and
    /// returns the box of what is not transparent there (empty when nothing is).
    public mutating func read(alphaOf canvas: Canvas, in box: (x0: Int, y0: Int, x1: Int, y1: Int)) -> (
        x0: Int, y0: Int, x1: Int, y1: Int
    ) {
        guard canvas.width == width, canvas.height == height, box.x0 < box.x1, box.y0 < box.y1 else {
            return (0, 0, 0, 0)
        }
        var found = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        let w = width
        canvas.pixels.withUnsafeBufferPointer { src in
            coverage.withUnsafeMutableBufferPointer { dst in
                for y in box.y0..<box.y1 {
                    var any: UInt32 = 0
                    for i in (y &* w &+ box.x0)..<(y &* w &+ box.x1) {
                        let a = src[i] >> 24
                        dst[i] = UInt8(truncatingIfNeeded: a)
                        if a != 0 {
                            let x = i &- y &* w
                            if x < found.x0 { found.x0 = x }
                            if x >= found.x1 { found.x1 = x &+ 1 }
                        }
                        any |= a
                    }
                    if any != 0 {
                        if y < found.y0 { found.y0 = y }
                        found.y1 = y &+ 1
                    }
                }
            }
        }
        return found.x0 < found.x1 ? found : (0, 0, 0, 0)
    }
}

extension Canvas {
    /// Paints `color` at `opacity`, with `shadow`'s coverage (board-sized, at 0, 0), beneath
    /// what the canvas holds inside `box`: each pixel becomes itself over the shadow, as a
    /// layer is drawn over its shadow.
    public mutating func drawShadow(
        _ shadow: CoverageMask, color: Color, opacity: Float, in box: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        guard shadow.width == width, shadow.height == height, box.x0 < box.x1, box.y0 < box.y1 else { return }
        let paint = Canvas.spread(Canvas.premultiplied(color, opacity: opacity))
        guard paint >> 48 != 0 else { return }
        damage.add(box)
        let w = width
        shadow.coverage.withUnsafeBufferPointer { m in
            pixels.withUnsafeMutableBufferPointer { p in
                for y in box.y0..<box.y1 {
                    for i in (y &* w &+ box.x0)..<(y &* w &+ box.x1) {
                        let f = UInt64(m[i])
                        guard f != 0 else { continue }
                        let under = Canvas.pack(Canvas.scale(paint, by: f))
                        p[i] = Canvas.over(Canvas.spread(p[i]), under)
                    }
                }
            }
        }
    }
}
