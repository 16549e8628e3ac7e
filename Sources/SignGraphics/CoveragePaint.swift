extension Canvas {
    /// Paints `paint` where `coverage` covers (a path's fill or stroke as `PathRasterizer`
    /// left it), scaled by `opacity`, by the clip and by `mask`. A gradient spans `box`.
    public mutating func fill(
        coverage: CoverageMask, paint source: Paint, box: Rect, opacity: Float, clip: Rect, mask: CoverageMask? = nil
    ) {
        let area = Rect(
            x: Double(coverage.x0), y: Double(coverage.y0), width: Double(coverage.width),
            height: Double(coverage.height)
        ).intersection(clip)
        guard area.width > 0, area.height > 0 else { return }
        var solid: UInt64 = 0, gradient: Gradient?
        switch source {
        case .color(let c): solid = Canvas.spread(Canvas.premultiplied(c, opacity: opacity))
        case .gradient(let g): gradient = g
        }
        (gradient?.ramp ?? ColorRamp(colors: [Color]())).withReader { ramp in
            coverage.coverage.withUnsafeBufferPointer { levels in
                paint(within: area.pixelBounds(clippedTo: width, height), mask: mask) { blitter, b in
                    for y in b.y0..<b.y1 {
                        let clipY = Canvas.overlap(y, clip.minY, clip.maxY), line = blitter.row(y)
                        let row = (y - coverage.y0) * coverage.width - coverage.x0
                        for x in b.x0..<b.x1 {
                            let level = levels[row + x]
                            guard level > 0 else { continue }
                            let c = Float(clipY * Canvas.overlap(x, clip.minX, clip.maxX)) * Float(level) / 255
                            var color = solid
                            if let g = gradient {
                                let u = (Double(x) + 0.5 - box.minX) / max(box.width, 1e-9)
                                let v = (Double(y) + 0.5 - box.minY) / max(box.height, 1e-9)
                                color = Canvas.spread(
                                    Canvas.premultiplied(ramp.color(at: g.location(u: u, v: v)), opacity: opacity))
                            }
                            line.blend(color, coverage: c, at: x)
                        }
                    }
                }
            }
        }
    }
}
