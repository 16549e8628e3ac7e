import SignGraphics

/// CALayer's shadow as signd draws it: the layer's composited alpha (background, content,
/// sublayers, border) blurred by a Gaussian of standard deviation `shadowRadius`, moved by
/// `shadowOffset`, coloured `shadowColor` at `shadowOpacity`, beneath the layer; then the
/// layer's mask, rounded clip and opacity apply to both, as Core Animation draws a layer and
/// its shadow as one. A bright colour with no offset is a glow.
enum LayerShadow {
    /// Whether `layer` (a presentation) shows a shadow now.
    @inline(__always)
    static func casts(_ layer: Layer) -> Bool {
        layer.shadowOpacity > 0 && layer.shadowColor.alpha > 0
    }

    /// Whether `layer` (a model) may show a shadow at some time: its opacity is above 0 or
    /// animated.
    static func mayCast(_ layer: Layer) -> Bool {
        layer.shadowOpacity > 0 || layer.animations.contains { $0.keyPaths.contains(.shadowOpacity) }
    }

    /// Key paths whose animation leaves the alpha the shadow is made from as it is (the layer
    /// is drawn apart at full opacity, and the shadow's own properties are not in it).
    static let keepsAlpha: Set<LayerProperty> = [
        .opacity, .shadowColor, .shadowOpacity, .shadowRadius, .shadowOffset, .shadowOffsetWidth, .shadowOffsetHeight,
    ]

    /// Whether the shadow of `layer` (casting one, drawn through a transform) is made from
    /// its projected alpha, in its superlayer's space, as Core Animation makes it: unless
    /// its bounds or a mask (`masked`) clip it, in which case it is made in the layer's
    /// plane and cut with the layer there.
    @inline(__always)
    static func isProjected(_ layer: Layer, masked: Bool) -> Bool {
        !layer.masksToBounds && !masked
    }

    /// The rectangle a tree whose own drawing stays inside `drawn` draws in, its shadow
    /// included; `nil` when not known (the shadow's radius or offset animates).
    static func extent(of layer: Layer, drawing drawn: Rect?) -> Rect? {
        guard let drawn, mayCast(layer), !layer.masksToBounds else { return drawn }
        // A shadow path may reach past what the layer draws: no fixed extent then.
        guard layer.shadowPath == nil else { return nil }
        let moves: Set<LayerProperty> = [.shadowRadius, .shadowOffset, .shadowOffsetWidth, .shadowOffsetHeight]
        guard layer.animations.allSatisfy({ moves.isDisjoint(with: $0.keyPaths) }) else { return nil }
        // The kernel reaches ceil(3σ) pixels and one more for a fractional offset.
        let reach = Double(GaussianKernel.reach(sigma: layer.shadowRadius) + 1)
        let (dx, dy) = (layer.shadowOffset.width, layer.shadowOffset.height)
        guard dx.isFinite, dy.isFinite else { return nil }
        let x0 = min(drawn.minX, drawn.minX + dx - reach), y0 = min(drawn.minY, drawn.minY + dy - reach)
        let x1 = max(drawn.maxX, drawn.maxX + dx + reach), y1 = max(drawn.maxY, drawn.maxY + dy + reach)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// The shadows a compositor draws, one entry per shadowed layer (its identity the key): the
/// blurred alpha is kept, and when the layer's alpha cannot change (nothing in it animates
/// but its shadow and opacity) and it is drawn at the same place with the same shadow, it
/// is not blurred again. Entries are board-sized and at most `limit`; a layer no frame has
/// drawn since the frame before last gives its storage to the next, so a steady frame
/// allocates nothing.
final class ShadowStore {
    private struct Kept {
        /// Held so its identity is not reused while kept.
        var layer: PreparedLayer
        /// Whether the layer's alpha is the same at every time (`LayerShadow.keepsAlpha`).
        var alphaIsStill: Bool
        /// What the kept shadow was blurred for: the layer's frame origin, σ, offset, clip.
        var key: Key?
        var shadow: CoverageMask
        var box: ShadowBlur.Box
        var lastUsed: UInt64
    }

    private struct Key: Equatable {
        var origin: Point
        var sigma: Double
        var offset: Size
        var x0, y0, x1, y1: Int
        /// The map that placed a transformed layer whose projected alpha was blurred.
        var placement: Homography?
    }

    private let width: Int
    private let height: Int
    private let limit: Int
    private var kept: [Kept] = []
    private var blur: ShadowBlur
    /// The alpha of the layer being shadowed.
    private var alpha: CoverageMask
    /// Fills a `shadowPath` into `alpha`, its buffers sized for the board once.
    private let rasterizer = PathRasterizer()
    private var frame: UInt64 = 0
    /// Shadows blurred since the frame began (kept ones reused are not counted).
    private(set) var blurs = 0

    init(width: Int, height: Int, limit: Int = 16) {
        (self.width, self.height, self.limit) = (max(width, 1), max(height, 1), limit)
        blur = ShadowBlur(width: width, height: height)
        alpha = CoverageMask(width: self.width, height: self.height)
        rasterizer.reserve(width: self.width, height: self.height)
    }

    func beginFrame() {
        frame &+= 1
        blurs = 0
    }

    /// Draws the shadow of `layer` (the presentation of `prepared`, placed at `origin` on
    /// the board) beneath what `canvas` holds inside `area`, where the layer was drawn apart.
    func draw(
        beneath canvas: inout Canvas, area: ShadowBlur.Box, layer: UnsafePointer<Layer>, prepared: PreparedLayer,
        origin: Point
    ) {
        draw(beneath: &canvas, area: area, drawn: area, layer: layer, prepared: prepared, origin: origin, placement: nil)
    }

    /// Draws the shadow of a transformed `layer` (the presentation of `prepared`), which
    /// `canvas` holds projected by `placement` (from its own coordinates to the canvas's
    /// pixels) inside `drawn`, beneath it inside `area`: made from the projected alpha (or
    /// the shadow path mapped by `placement`), offset and blurred in the canvas's pixels.
    /// Kept while the layer's drawing in its plane and its placement stay the same.
    func draw(
        beneath canvas: inout Canvas, area: ShadowBlur.Box, drawn: ShadowBlur.Box, layer: UnsafePointer<Layer>,
        prepared: PreparedLayer, placement: Homography
    ) {
        draw(
            beneath: &canvas, area: area, drawn: drawn, layer: layer, prepared: prepared, origin: .zero,
            placement: placement)
    }

    private func draw(
        beneath canvas: inout Canvas, area: ShadowBlur.Box, drawn: ShadowBlur.Box, layer: UnsafePointer<Layer>,
        prepared: PreparedLayer, origin: Point, placement: Homography?
    ) {
        let opacity = Float(min(max(layer.pointee.shadowOpacity, 0), 1))
        let key = Key(
            origin: origin, sigma: GaussianKernel.clamped(layer.pointee.shadowRadius),
            offset: layer.pointee.shadowOffset, x0: area.x0, y0: area.y0, x1: area.x1, y1: area.y1,
            placement: placement)
        let i = index(prepared)
        // A projected alpha is also still while the layer's drawing in its plane is: only
        // its placement (in the key) and opacity (not in the alpha) change.
        let still = placement != nil && prepared.isStillInPlane
        let (shadow, box) = kept.withUnsafeMutableBufferPointer { kept -> (CoverageMask, ShadowBlur.Box) in
            if !((kept[i].alphaIsStill || still) && kept[i].key == key) {
                // `shadowPath` stands for the layer's alpha when set: the path filled
                // (non-zero, as Core Animation fills it) in the layer's coordinates.
                var source = drawn
                if let shadowPath = layer.pointee.shadowPath {
                    if let placement {
                        if !rasterizer.fill(shadowPath, rule: .nonZero, mappedBy: placement, into: &alpha) {
                            // Partly behind the viewer: the projected alpha stands for it.
                            source = alpha.read(alphaOf: canvas, in: drawn)
                        } else {
                            source = area
                        }
                    } else {
                        rasterizer.fill(shadowPath, rule: .nonZero, offset: origin, into: &alpha)
                        source = area
                    }
                } else {
                    source = alpha.read(alphaOf: canvas, in: drawn)
                }
                let offset = Point(x: key.offset.width, y: key.offset.height)
                kept[i].box = blur.blur(
                    alpha, in: source, sigma: key.sigma, offset: offset, clip: area, into: &kept[i].shadow)
                kept[i].key = key
                blurs += 1
            }
            return (kept[i].shadow, kept[i].box)
        }
        canvas.drawShadow(shadow, color: layer.pointee.shadowColor, opacity: opacity, in: box)
    }

    /// The entry for `layer`, made (or taken over from a layer no longer drawn) if needed.
    private func index(_ layer: PreparedLayer) -> Int {
        let frame = self.frame
        let found = kept.withUnsafeMutableBufferPointer { kept -> Int? in
            guard let i = kept.firstIndex(where: { $0.layer === layer }) else { return nil }
            kept[i].lastUsed = frame
            return i
        }
        if let found { return found }
        let still = Self.alphaIsStill(layer)
        let oldest = kept.indices.min { kept[$0].lastUsed < kept[$1].lastUsed }
        if let oldest, kept.count >= limit || kept[oldest].lastUsed &+ 1 < frame {
            kept[oldest].layer = layer
            kept[oldest].alphaIsStill = still
            kept[oldest].key = nil
            kept[oldest].lastUsed = frame
            return oldest
        }
        kept.append(
            Kept(
                layer: layer, alphaIsStill: still, key: nil, shadow: CoverageMask(width: width, height: height),
                box: (0, 0, 0, 0), lastUsed: frame))
        return kept.count - 1
    }

    /// Whether what `layer` draws has the same alpha at every time: it has a shadow path, or
    /// its animations move only its shadow and opacity, its sublayers are static, and it
    /// shows no stream.
    private static func alphaIsStill(_ layer: PreparedLayer) -> Bool {
        let model = layer.model
        // A shadow path is the alpha, whatever the layer draws (it is not animatable).
        if model.shadowPath != nil { return true }
        if case .stream = model.content { return false }
        return layer.sublayers.allSatisfy(\.isStatic)
            && model.animations.allSatisfy { $0.keyPaths.allSatisfy(LayerShadow.keepsAlpha.contains) }
    }
}
