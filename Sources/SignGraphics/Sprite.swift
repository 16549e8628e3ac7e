/// A small picture drawn centred on a point, scaled and turned: a particle. Its pixels are
/// found by taking each board pixel's centre back into the sprite (the inverse rotation),
/// so any size and angle samples cleanly without a transformed copy.
public struct Sprite: Sendable, Equatable {
    /// What the sprite shows before its colour multiplies it.
    public enum Look: Sendable, Equatable {
        /// A disc as wide as the sprite, with analytic coverage at its edge.
        case circle
        /// A square as wide as the sprite (turned with it), with analytic coverage.
        case square
        /// An image stretched over the sprite, sampled bilinearly; outside it is transparent.
        case image(ImageBitmap)

        /// Whether the look is a disc (a round shape to `ShapeBrush`).
        public var isCircle: Bool {
            if case .circle = self { return true } else { return false }
        }
    }

    /// How the sprite's pixels join what is under them.
    public enum Blend: Sendable, Equatable {
        /// Premultiplied source-over.
        case over
        /// Added, each channel held at full (Core Animation's additive render mode).
        case additive
    }

    public var look: Look
    /// The sprite's size in pixels before `scale` (an image's own size; a shape's width).
    public var width: Double
    public var height: Double

    public init(look: Look, width: Double, height: Double) {
        self.look = look
        self.width = width
        self.height = height
    }
}

extension Canvas {
    /// The largest sprite drawn, in pixels across: a larger one is drawn this size.
    public static let largestSprite = 100_000.0

    /// Draws `sprite` centred at `center`, scaled by `scale`, turned by `angle` radians
    /// (clockwise on the board, whose y runs down), multiplied by `color` (premultiplied,
    /// 0...1), clipped to `clip` and scaled by `mask`.
    public mutating func draw(
        _ sprite: Sprite, center: Point, scale: Double, angle: Double, color: SIMD4<Float>, blend: Sprite.Blend,
        clip: Rect, mask: CoverageMask? = nil
    ) {
        switch sprite.look {
        case .circle, .square:
            let round: Bool
            if case .circle = sprite.look { round = true } else { round = false }
            drawShape(
                round: round, width: sprite.width, height: sprite.height, center: center, scale: scale, angle: angle,
                color: color, blend: blend, clip: clip, mask: mask)
        case .image(let image):
            draw(
                image, width: sprite.width, height: sprite.height, center: center, scale: scale, angle: angle,
                color: color, blend: blend, clip: clip, mask: mask)
        }
    }

    /// The same for a circle (`round`) or a square `width` x `height` pixels before `scale`:
    /// what a particle of a built-in shape draws, with nothing to copy but numbers (a
    /// `Sprite` read from an array is copied, its picture retained, for each call). Many
    /// shapes are drawn faster through one `withShapeBrush`.
    public mutating func drawShape(
        round: Bool, width spriteWidth: Double, height spriteHeight: Double, center: Point, scale: Double,
        angle: Double, color: SIMD4<Float>, blend: Sprite.Blend, clip: Rect, mask: CoverageMask? = nil
    ) {
        withShapeBrush(clip: clip, mask: mask, blend: blend) { brush in
            brush.draw(
                round: round, width: spriteWidth, height: spriteHeight, center: center, scale: scale, angle: angle,
                color: color)
        }
    }

    /// An image sprite: each board pixel's centre taken back into the image (the inverse
    /// turn), sampled bilinearly.
    private mutating func draw(
        _ image: ImageBitmap, width spriteWidth: Double, height spriteHeight: Double, center: Point, scale: Double,
        angle: Double, color: SIMD4<Float>, blend: Sprite.Blend, clip: Rect, mask: CoverageMask?
    ) {
        // Far larger than any board is as large as that: every sum below stays finite.
        let w = min(spriteWidth * scale, Self.largestSprite), h = min(spriteHeight * scale, Self.largestSprite)
        guard w > 0, h > 0, w.isFinite, h.isFinite, color[3] > 0, center.x.isFinite, center.y.isFinite,
            angle.isFinite, image.width > 0, image.height > 0
        else { return }
        let hw = Float(w / 2), hh = Float(h / 2)
        let turn = sineCosine(angle)
        let c = Float(turn.cos), s = Float(turn.sin)
        // Half the extent of the turned rectangle as far as any coverage reaches: the image's
        // outer texels, blended half a texel out (a quarter pixel more where it is turned).
        let ox = hw * (1 + 1 / Float(image.width)), oy = hh * (1 + 1 / Float(image.height))
        let ex = Double(abs(c) * ox + abs(s) * oy) + 0.25, ey = Double(abs(s) * ox + abs(c) * oy) + 0.25
        let box = Rect(x: center.x - ex, y: center.y - ey, width: 2 * ex, height: 2 * ey).intersection(clip)
        guard box.width > 0, box.height > 0 else { return }
        let bounds = box.pixelBounds(clippedTo: width, height)
        let cx = Float(center.x), cy = Float(center.y)
        let add = blend == .additive
        let iw = image.width, ih = image.height
        // Texels per sprite pixel, across and down.
        let sx = Float(iw) / (2 * hw), sy = Float(ih) / (2 * hh)
        image.pixels.withUnsafeBufferPointer { src in
            @inline(__always) func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
                guard i >= 0, j >= 0, i < iw, j < ih else { return .zero }
                return src[j &* iw &+ i]
            }
            paint(within: bounds, mask: mask) { blitter, b in
                for y in b.y0..<b.y1 {
                    let dy = Float(y) + 0.5 - cy
                    let line = blitter.row(y)
                    for x in b.x0..<b.x1 {
                        let dx = Float(x) + 0.5 - cx
                        let u = (c * dx + s * dy + hw) * sx - 0.5, v = (c * dy - s * dx + hh) * sy - 0.5
                        guard u > -1, v > -1, u < Float(iw), v < Float(ih) else { continue }
                        let i = Int(u.rounded(.down)), j = Int(v.rounded(.down))
                        let tx = u - Float(i), ty = v - Float(j)
                        let top = texel(i, j) * (1 - tx) + texel(i + 1, j) * tx
                        let bottom = texel(i, j + 1) * (1 - tx) + texel(i + 1, j + 1) * tx
                        let p = (top * (1 - ty) + bottom * ty) * color
                        guard p[3] > 0 || (add && p != .zero) else { continue }
                        line.put(Canvas.spread(Canvas.pixel(p)), factor: 255, additive: add, at: x)
                    }
                }
            }
        }
    }
}

extension Blitter.Row {
    /// `color` (spread) at `factor / 255` and the mask at column `x`: composited
    /// (`blend`), or added with each channel held at 255.
    @inline(__always)
    func put(_ color: UInt64, factor: UInt64, additive: Bool, at x: Int) {
        guard additive else { return blend(color, factor: factor, at: x) }
        var f = factor
        if let mask { f = Canvas.product(f, UInt64(mask[x])) }
        if f == 0 { return }
        let sum = Canvas.scale(color, by: f) &+ Canvas.spread(dst[x])
        // A lane past 255 has its bit 8 set: that lane becomes 255.
        let over = (sum >> 8) & 0x0001_0001_0001_0001
        dst[x] = Canvas.pack((sum | over &* 0xFF) & 0x00FF_00FF_00FF_00FF)
    }
}
