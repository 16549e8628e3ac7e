/// How a path's inside is decided where it crosses itself (`CAShapeLayerFillRule`).
public enum FillRule: String, Sendable, Hashable, CaseIterable {
    case nonZero = "non-zero"
    case evenOdd = "even-odd"
}

/// A scanline rasteriser with exact area coverage: each line adds the signed area it
/// sweeps to the cells it crosses, and a running sum along a row gives each pixel the
/// share of it the shape covers (the method of libart and font-rs). Fills follow a fill
/// rule; strokes are turned into polygons (`PathStroker`) and filled non-zero. It keeps
/// its buffers: once they are large enough, rasterising allocates nothing.
///
/// Coverage is written into a `CoverageMask`: every pixel of the mask's rectangle (canvas
/// pixels, from `x0, y0`) is given the share of it the shape covers, 0...255.
public final class PathRasterizer {
    /// Curves are cut into lines straying at most this far (pixels).
    public static let tolerance = 0.1

    /// Signed area per cell, `width + 2` cells a row (the two past the edge take what lies
    /// right of the mask).
    private var cells: [Float] = []
    private var width = 0
    private var height = 0
    /// Where the mask's top-left pixel lies, in the coordinates lines are given in.
    private var origin = Point.zero
    /// The path flattened, and scratch for the stroker.
    var polylines = Polylines()
    var scratch: [Point] = []

    public init() {}

    /// Covers `mask` with the fill of `path` (moved by `offset`) under `rule`.
    public func fill(_ path: Path, rule: FillRule, offset: Point = .zero, into mask: inout CoverageMask) {
        begin(mask)
        polylines.flatten(path, offset: offset, tolerance: Self.tolerance)
        fillPolylines(rule, into: &mask)
    }

    /// Covers `mask` with the fill of `path` mapped by `map` (a transformed layer's path, in
    /// its coordinates, placed on the board), under `rule`; curves are flattened before they
    /// are mapped. Returns false, leaving `mask` as it was, when a point of the path lands at
    /// or behind the viewer.
    public func fill(_ path: Path, rule: FillRule, mappedBy map: Homography, into mask: inout CoverageMask) -> Bool {
        begin(mask)
        polylines.flatten(path, tolerance: Self.tolerance)
        guard polylines.project(by: map) else { return false }
        fillPolylines(rule, into: &mask)
        return true
    }

    private func fillPolylines(_ rule: FillRule, into mask: inout CoverageMask) {
        polylines.points.withUnsafeBufferPointer { points in
            // A fill closes every subpath.
            for s in polylines.subpaths where s.count > 1 {
                for i in 0..<s.count {
                    line(points[s.start + i], points[s.start + (i + 1) % s.count])
                }
            }
        }
        finish(rule, into: &mask)
    }

    /// Covers `mask` with the stroke of `path` (moved by `offset`) drawn with `style`.
    public func stroke(_ path: Path, style: StrokeStyle, offset: Point = .zero, into mask: inout CoverageMask) {
        begin(mask)
        polylines.flatten(path, offset: offset, tolerance: Self.tolerance)
        // A part of the path (a dash, a cut end) never holds more than its points and two ends.
        scratch.reserveCapacity(polylines.points.count + 2)
        var stroker = PathStroker(style: style, rasterizer: self)
        stroker.stroke()
        finish(.nonZero, into: &mask)
    }

    /// Makes the buffers large enough for masks of up to `width` x `height` pixels, so no
    /// later path within them allocates.
    public func reserve(width: Int, height: Int) {
        let count = (width + 2) * height
        if cells.count < count { cells = [Float](repeating: 0, count: count) }
    }

    private func begin(_ mask: CoverageMask) {
        (width, height) = (mask.width, mask.height)
        origin = Point(x: Double(mask.x0), y: Double(mask.y0))
        let count = (width + 2) * height
        if cells.count < count {
            cells = [Float](repeating: 0, count: count)
        }
    }

    /// Turns the summed areas into coverage under `rule`, clearing the cells as it goes.
    private func finish(_ rule: FillRule, into mask: inout CoverageMask) {
        let (w, h) = (width, height)
        cells.withUnsafeMutableBufferPointer { cells in
            mask.coverage.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let row = y * (w + 2)
                    var sum: Float = 0
                    for x in 0..<w {
                        sum += cells[row + x]
                        cells[row + x] = 0
                        var c = abs(sum)
                        if rule == .evenOdd {
                            c = c.truncatingRemainder(dividingBy: 2)
                            if c > 1 { c = 2 - c }
                        } else if c > 1 {
                            c = 1
                        }
                        out[y * w + x] = UInt8(c * 255 + 0.5)
                    }
                    cells[row + w] = 0
                    cells[row + w + 1] = 0
                }
            }
        }
    }

    /// Adds the line from `a` to `b` (the caller's coordinates), clipped to the mask: what
    /// lies left of it still counts (it covers the mask's left edge), what lies right of it
    /// does not.
    func line(_ a: Point, _ b: Point) {
        let (ax, ay, bx, by) = (a.x - origin.x, a.y - origin.y, b.x - origin.x, b.y - origin.y)
        guard ay != by, ax.isFinite, bx.isFinite, ay.isFinite, by.isFinite else { return }
        let h = Double(height), w = Double(width)
        // Clipped to the rows first.
        var (x0, y0, x1, y1, dir): (Double, Double, Double, Double, Float) =
            ay < by ? (ax, ay, bx, by, 1) : (bx, by, ax, ay, -1)
        guard y1 > 0, y0 < h else { return }
        let dxdy = (x1 - x0) / (y1 - y0)
        if y0 < 0 {
            x0 += dxdy * -y0
            y0 = 0
        }
        if y1 > h {
            x1 = x0 + dxdy * (h - y0)
            y1 = h
        }
        // Then cut where it crosses the left and right edges, each piece clamped to them.
        var ys = (y0, y0, y1)
        if dxdy != 0 {
            let yAt0 = y0 + (0 - x0) / dxdy, yAtW = y0 + (w - x0) / dxdy
            let lo = Swift.min(yAt0, yAtW), hi = Swift.max(yAt0, yAtW)
            ys = (Swift.min(Swift.max(lo, y0), y1), Swift.min(Swift.max(hi, y0), y1), y1)
        }
        var from = y0
        for k in 0..<3 {
            let to = k == 0 ? ys.0 : k == 1 ? ys.1 : ys.2
            guard to > from else { continue }
            let xa = Swift.min(Swift.max(x0 + dxdy * (from - y0), 0), w)
            let xb = Swift.min(Swift.max(x0 + dxdy * (to - y0), 0), w)
            accumulate(xa, from, xb, to, dir)
            from = to
        }
    }

    /// The area the line from (x0, y0) down to (x1, y1) adds to each cell it crosses.
    private func accumulate(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Float) {
        let stride = width + 2
        let dxdy = (x1 - x0) / (y1 - y0)
        var x = x0
        let first = Int(y0.rounded(.down)), last = Swift.min(Int(y1.rounded(.up)), height)
        cells.withUnsafeMutableBufferPointer { cells in
            for y in Swift.max(first, 0)..<last {
                let row = y * stride
                let dy = Swift.min(Double(y + 1), y1) - Swift.max(Double(y), y0)
                let xnext = x + dxdy * dy
                let d = Float(dy) * dir
                let (l, r) = x < xnext ? (x, xnext) : (xnext, x)
                let lFloor = l.rounded(.down), li = Int(lFloor)
                let rCeil = r.rounded(.up), ri = Int(rCeil)
                if ri <= li + 1 {
                    // Within one cell: the share right of the line's middle goes to the next.
                    let xm = Float(0.5 * (x + xnext) - lFloor)
                    cells[row + li] += d - d * xm
                    cells[row + li + 1] += d * xm
                } else {
                    let s = 1 / (r - l)
                    let lf = l - lFloor
                    let a0 = Float(0.5 * s * (1 - lf) * (1 - lf))
                    let rf = r - rCeil + 1
                    let am = Float(0.5 * s * rf * rf)
                    cells[row + li] += d * a0
                    if ri == li + 2 {
                        cells[row + li + 1] += d * (1 - a0 - am)
                    } else {
                        let a1 = Float(s * (1.5 - lf))
                        cells[row + li + 1] += d * (a1 - a0)
                        let step = Float(s)
                        for xi in (li + 2)..<(ri - 1) { cells[row + xi] += d * step }
                        let a2 = a1 + Float(ri - li - 3) * step
                        cells[row + ri - 1] += d * (1 - a2 - am)
                    }
                    cells[row + ri] += d * am
                }
                x = xnext
            }
        }
    }
}
