import SignGraphics
import Synchronization

/// A path shape's coverage, kept with its prepared layer: the fill and the stroke are
/// rasterised when the path, its style, its place or the clip change, and otherwise
/// painted from what was kept, so a still shape is rasterised once and a shape whose
/// colours or opacity animate not at all. Its buffers grow to the largest area drawn and
/// are reused, so an animated path (`strokeEnd`, `lineDashPhase`, `lineWidth`, `path`) is
/// rasterised every frame without allocating. Locked: a prepared tree may be drawn by
/// more than one compositor.
final class ShapeRaster: Sendable {
    private struct Kept {
        let rasterizer = PathRasterizer()
        var fill = CoverageMask(width: 0, height: 0, coverage: [])
        var stroke = CoverageMask(width: 0, height: 0, coverage: [])
        var fillKey: Key?
        var strokeKey: Key?
        /// The paths the coverages were made from, copied into storage of their own: a
        /// morphing path's storage is the presentation's, rewritten in place each frame
        /// (`PathTrack`), and must not be shared from here.
        var fillPath = Path()
        var strokePath = Path()
    }

    /// What a coverage was made from, besides its path.
    private struct Key: Equatable {
        var origin: Point
        var clip: Rect
        var rule: FillRule
        var style: StrokeStyle?
    }

    private let kept = Mutex(Kept())

    init() {}

    /// Paints `shape`'s path (its `pathData`) with its layer's top-left corner at `origin`.
    func draw(
        _ shape: ShapeContent, origin: Point, opacity: Float, clip: Rect, mask: CoverageMask?, on canvas: inout Canvas
    ) {
        guard let path = shape.pathData, let bounds = path.controlBounds else { return }
        let box = bounds.offsetBy(dx: origin.x, dy: origin.y)
        kept.withLock { kept in
            if let fill = shape.fill {
                let key = Key(origin: origin, clip: clip, rule: shape.fillRule, style: nil)
                if kept.fillKey != key || kept.fillPath != path {
                    kept.rasterizer.reserve(width: canvas.width, height: canvas.height)
                    Self.reshape(&kept.fill, box, reach: 1, clip: clip, canvas)
                    kept.rasterizer.fill(path, rule: shape.fillRule, offset: origin, into: &kept.fill)
                    kept.fillKey = key
                    kept.fillPath.copyElements(of: path)
                }
                canvas.fill(coverage: kept.fill, paint: fill, box: box, opacity: opacity, clip: clip, mask: mask)
            }
            if let stroke = shape.stroke, shape.lineWidth > 0 {
                let style = shape.strokeStyle
                let key = Key(origin: origin, clip: clip, rule: .nonZero, style: style)
                if kept.strokeKey != key || kept.strokePath != path {
                    kept.rasterizer.reserve(width: canvas.width, height: canvas.height)
                    Self.reshape(&kept.stroke, box, reach: style.reach + 1, clip: clip, canvas)
                    kept.rasterizer.stroke(path, style: style, offset: origin, into: &kept.stroke)
                    kept.strokeKey = key
                    kept.strokePath.copyElements(of: path)
                }
                canvas.fill(coverage: kept.stroke, paint: stroke, box: box, opacity: opacity, clip: clip, mask: mask)
            }
        }
    }

    /// `mask` made to cover the path's box grown by `reach`, within the clip and canvas. Its
    /// storage is first made large enough for the whole canvas, so no later shape of the
    /// path on this canvas needs more.
    private static func reshape(_ mask: inout CoverageMask, _ box: Rect, reach: Double, clip: Rect, _ canvas: Canvas) {
        if mask.coverage.capacity < canvas.width * canvas.height {
            mask.coverage.reserveCapacity(canvas.width * canvas.height)
        }
        let grown = Rect(
            x: box.minX - reach, y: box.minY - reach, width: box.width + 2 * reach, height: box.height + 2 * reach)
        let b = grown.intersection(clip).pixelBounds(clippedTo: canvas.width, canvas.height)
        mask.reshape(x0: b.x0, y0: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0)
    }
}
