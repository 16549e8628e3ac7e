import SignGraphics

extension Canvas {
    /// Draws the particles `emitter` shows at its layer's local time `t` (NaN: none), the
    /// layer's origin on the canvas at `origin`, each a sprite of its cell's contents, scaled,
    /// turned and coloured, composited (or added, `additive`) in the emitter's render order.
    mutating func draw(
        _ emitter: EmitterContent, at t: Double, origin: Point, opacity: Float, clip: Rect, mask: CoverageMask?
    ) {
        guard !t.isNaN, opacity > 0 else { return }
        let blend: Sprite.Blend = emitter.renderMode == .additive ? .additive : .over
        emitter.cells.withUnsafeBufferPointer { cells in
            emitter.forEachParticle(at: t) { p in
                let a = Float(p.color[3]) * opacity
                guard a > 0 else { return }
                let color = SIMD4(Float(p.color[0]) * a, Float(p.color[1]) * a, Float(p.color[2]) * a, a)
                let center = Point(x: origin.x + p.position.x, y: origin.y + p.position.y)
                let cell = cells.baseAddress! + p.cell
                // A built-in shape is drawn from its numbers, the sprite read in place rather
                // than copied for each particle.
                switch cell.pointee.contents.look {
                case .circle, .square:
                    let round: Bool
                    if case .circle = cell.pointee.contents.look { round = true } else { round = false }
                    drawShape(
                        round: round, width: cell.pointee.contents.width, height: cell.pointee.contents.height,
                        center: center, scale: p.scale, angle: p.angle, color: color, blend: blend, clip: clip,
                        mask: mask)
                case .image:
                    draw(
                        cell.pointee.contents, center: center, scale: p.scale, angle: p.angle, color: color,
                        blend: blend, clip: clip, mask: mask)
                }
            }
        }
    }
}
