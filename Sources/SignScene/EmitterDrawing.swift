import SignGraphics

extension Canvas {
    /// Draws the particles `emitter` shows at its layer's local time `t` (NaN: none), the
    /// layer's origin on the canvas at `origin`, each a sprite of its cell's contents, scaled,
    /// turned and coloured, composited (or added, `additive`) in the emitter's render order;
    /// the particles' birth attributes kept in `births` between frames.
    mutating func draw(
        _ emitter: EmitterContent, at t: Double, origin: Point, opacity: Float, clip: Rect, mask: CoverageMask?,
        births: ParticleBirths? = nil
    ) {
        guard !t.isNaN, opacity > 0 else { return }
        guard let births else { return draw(emitter, at: t, origin: origin, opacity: opacity, clip: clip, mask: mask, rings: nil) }
        births.with(emitter) { draw(emitter, at: t, origin: origin, opacity: opacity, clip: clip, mask: mask, rings: $0) }
    }

    private mutating func draw(
        _ emitter: EmitterContent, at t: Double, origin: Point, opacity: Float, clip: Rect, mask: CoverageMask?,
        rings: ParticleBirths.Rings?
    ) {
        let blend: Sprite.Blend = emitter.renderMode == .additive ? .additive : .over
        emitter.cells.withUnsafeBufferPointer { cells in
            let shapesOnly = cells.allSatisfy {
                if case .image = $0.contents.look { return false } else { return true }
            }
            guard shapesOnly else {
                return emitter.forEachParticle(at: t, births: rings) { p in
                    guard let color = Self.color(of: p, opacity: opacity) else { return }
                    let center = Point(x: origin.x + p.position.x, y: origin.y + p.position.y)
                    draw(
                        cells[p.cell].contents, center: center, scale: p.scale, angle: p.angle, color: color,
                        blend: blend, clip: clip, mask: mask)
                }
            }
            // Built-in shapes only: the canvas reached once for all of them, each drawn from
            // its numbers (the cell read in place, no sprite copied). With the rings, the
            // particles are put in a batch and the brush draws a batch in one loop of its own.
            withShapeBrush(clip: clip, mask: mask, blend: blend) { brush in
                guard let rings else {
                    return emitter.forEachParticle(at: t, births: nil) { p in
                        guard let color = Self.color(of: p, opacity: opacity) else { return }
                        let contents = cells.baseAddress! + p.cell
                        brush.draw(
                            round: contents.pointee.contents.look.isCircle, width: contents.pointee.contents.width,
                            height: contents.pointee.contents.height,
                            center: Point(x: origin.x + p.position.x, y: origin.y + p.position.y), scale: p.scale,
                            angle: p.angle, color: color)
                    }
                }
                let shapes = rings.shapes, frameCells = rings.cells
                for i in 0..<min(cells.count, EmitterContent.maxCells) {
                    let cell = cells.baseAddress! + i
                    frameCells[i] = ParticleBirths.CellFrame(paint: .each, table: 0)
                    // A cell with no scale range or speed gives every particle its scale (`birth`
                    // adds a spread of 0, `particle(born:)` a speed of 0 times the age): the brush
                    // told its table once a frame.
                    if cell.pointee.scaleRange == 0, cell.pointee.scaleSpeed == 0 {
                        frameCells[i].table = ShapeBrush.table(
                            round: cell.pointee.contents.look.isCircle, width: cell.pointee.contents.width,
                            height: cell.pointee.contents.height, scale: (cell.pointee.scale + 0) * emitter.scale)
                    }
                    // A cell with no colour range or speed gives every particle its colour at every
                    // age: its pixel worked out once a frame, the same bits as a particle's
                    // (`birth` adds the no range's spread of 0, and `particle(born:)` no speed's).
                    guard cell.pointee.colorRange == .zero, cell.pointee.colorSpeed == .zero else { continue }
                    let color = Self.color(
                        Self.held(cell.pointee.color + SIMD4<Double>() + SIMD4<Double>()), opacity: opacity)
                    frameCells[i].paint = color.map { .same(Canvas.pixel($0)) } ?? .hidden
                }
                var count = 0
                emitter.forEachParticle(at: t, births: rings) { p in
                    let frameCell = frameCells[p.cell]
                    let pixel: Canvas.Pixel
                    switch frameCell.paint {
                    case .same(let same): pixel = same
                    case .hidden: return
                    case .each:
                        guard let color = Self.color(of: p, opacity: opacity) else { return }
                        pixel = Canvas.pixel(color)
                    }
                    let contents = cells.baseAddress! + p.cell
                    if count == ParticleBirths.batch {
                        brush.draw(shapes, count: count)
                        count = 0
                    }
                    (shapes + count).initialize(
                        to: ShapeBrush.Shape(
                            round: contents.pointee.contents.look.isCircle, width: contents.pointee.contents.width,
                            height: contents.pointee.contents.height, x: origin.x + p.position.x,
                            y: origin.y + p.position.y, scale: p.scale, angle: p.angle, pixel: pixel,
                            table: frameCell.table))
                    count &+= 1
                }
                brush.draw(shapes, count: count)
            }
        }
    }

    /// A particle's colour premultiplied and times `opacity`; `nil` when it is transparent.
    @inline(__always)
    static func color(of p: Particle, opacity: Float) -> SIMD4<Float>? { color(p.color, opacity: opacity) }

    /// A straight colour (held to 0...1) premultiplied and times `opacity`; `nil` when it is
    /// transparent.
    @inline(__always)
    static func color(_ c: SIMD4<Double>, opacity: Float) -> SIMD4<Float>? {
        let a = Float(c[3]) * opacity
        guard a > 0 else { return nil }
        return SIMD4(Float(c[0]) * a, Float(c[1]) * a, Float(c[2]) * a, a)
    }

    /// Each lane held to 0...1 as `particle(born:)` holds a particle's colour.
    @inline(__always)
    static func held(_ c: SIMD4<Double>) -> SIMD4<Double> {
        var color = c
        color.replace(with: 0, where: color .< 0)
        color.replace(with: 1, where: color .> 1)
        return color
    }
}
