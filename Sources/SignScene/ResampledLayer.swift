import SignGraphics

/// Layers whose transform is more than a translation, or whose superlayer has a
/// `sublayerTransform`: drawn apart, flat and untransformed at their own size (background,
/// content, mask, sublayers, so a mask or a gradient turns with its layer), then placed on
/// the target by the inverse of their projective map, each target pixel sampling the flat
/// drawing with the layer's filter. This is how `CALayer` flattens: a layer's sublayers lie
/// in its plane.
extension Compositor {
    /// The most of its own area a resampled layer is drawn from: 2048 pixels a side and
    /// 2^20 pixels (4 MiB) in all, beyond which the part nearest the middle of what the
    /// target shows is kept. A transform that makes a layer huge on the board is clipped to
    /// the board first, so it costs the board's pixels at most.
    static let maxApartSide = 2048
    static let maxApartArea = 1 << 20

    /// `layer`'s `sublayerTransform` about its anchor point (`anchorPoint`, `anchorPointZ`),
    /// in its own coordinates: what Core Animation applies to each sublayer after the
    /// sublayer's own transform.
    static func sublayerMatrix(of layer: UnsafePointer<Layer>) -> Transform3D {
        let l = layer.pointee
        let a = (x: l.anchorPoint.x * l.size.width, y: l.anchorPoint.y * l.size.height, z: l.anchorPointZ)
        return Transform3D.translation(x: -a.x, y: -a.y, z: -a.z).concatenating(l.sublayerTransform.matrix)
            .concatenating(.translation(x: a.x, y: a.y, z: a.z))
    }

    /// The map from `layer`'s own coordinates (its bounds) to the target's pixels: the layer
    /// moved so its anchor point is at the origin, its transform, then moved to its
    /// position; the superlayer's sublayer transform; the superlayer's place on the target.
    static func placement(of layer: UnsafePointer<Layer>, _ context: DrawContext) -> Transform3D {
        let l = layer.pointee
        var m = Transform3D.translation(
            x: -l.anchorPoint.x * l.size.width, y: -l.anchorPoint.y * l.size.height, z: -l.anchorPointZ
        )
        .concatenating(l.transform.matrix).concatenating(.translation(x: l.position.x, y: l.position.y))
        if let s = context.sublayerTransform { m = m.concatenating(s) }
        return m.concatenating(.translation(x: context.origin.x, y: context.origin.y))
    }

    /// Draws `prepared` showing `layer` (at its local time `t`) through its projective map.
    /// A map with no inverse (a scale of 0) draws nothing, as in Core Animation.
    func drawResampled(
        _ prepared: PreparedLayer, showing layer: UnsafePointer<Layer>, at t: Double, _ context: DrawContext
    ) {
        let size = layer.pointee.size
        guard size.width > 0, size.height > 0 else { return }
        let forward = Self.placement(of: layer, context).planar
        guard let inverse = forward.inverted else { return }
        // Where on the target it can land: its corners' box when all are in front of the
        // viewer; otherwise anywhere (each pixel then tells).
        var box = context.clip.intersection(board)
        if let placed = Self.box(forward, Rect(origin: .zero, size: size)) { box = box.intersection(placed) }
        let dest = box.pixelBounds(clippedTo: width, height)
        guard dest.x0 < dest.x1, dest.y0 < dest.y1 else { return }
        // What of the layer those pixels can sample: their box mapped back, with a margin
        // for the filter, within the layer's bounds.
        var source = Rect(origin: .zero, size: size)
        let destRect = Rect(
            x: Double(dest.x0), y: Double(dest.y0), width: Double(dest.x1 - dest.x0), height: Double(dest.y1 - dest.y0))
        if let back = Self.box(inverse, destRect) {
            source = source.intersection(back.grown(by: 2))
        }
        var x0 = Int(pixel: source.minX, .down), y0 = Int(pixel: source.minY, .down)
        var x1 = Int(pixel: source.maxX, .up), y1 = Int(pixel: source.maxY, .up)
        guard x0 < x1, y0 < y1 else { return }
        // Bounded: the middle of what is needed is kept.
        let side = Self.maxApartSide
        if x1 - x0 > side { (x0, x1) = ((x0 + x1) / 2 - side / 2, (x0 + x1) / 2 - side / 2 + side) }
        if y1 - y0 > side { (y0, y1) = ((y0 + y1) / 2 - side / 2, (y0 + y1) / 2 - side / 2 + side) }
        if (x1 - x0) * (y1 - y0) > Self.maxApartArea {
            let rows = max(1, Self.maxApartArea / (x1 - x0))
            (y0, y1) = ((y0 + y1) / 2 - rows / 2, (y0 + y1) / 2 - rows / 2 + rows)
        }
        var region = ApartStore.Region(x0: x0, y0: y0, x1: x1, y1: y1)
        var kept: (index: Int, current: Bool)?
        if prepared.isStillInPlane {
            // The whole layer when it fits, so one drawing serves every placement.
            let whole = ApartStore.Region(
                x0: 0, y0: 0, x1: Int(pixel: size.width, .up), y1: Int(pixel: size.height, .up))
            if whole.x1 <= Self.maxApartSide, whole.y1 <= Self.maxApartSide, whole.x1 * whole.y1 <= ApartStore.maxArea {
                region = whole
            }
            kept = aparts.entry(prepared, size: size, region: region)
        }
        (x0, y0, x1, y1) = (region.x0, region.y0, region.x1, region.y1)
        let (w, h) = (x1 - x0, y1 - y0)
        // A shadow is made from what is projected, in the target's pixels (`drawProjected`);
        // the drawing apart (kept or not) then holds the layer alone.
        let projectsShadow =
            LayerShadow.casts(layer.pointee) && LayerShadow.isProjected(layer.pointee, masked: !prepared.mask.isEmpty)
        let drawing: Canvas
        if let kept, kept.current {
            drawing = aparts.canvas(kept.index)
        } else {
            let apart = apartCompositor(width: w, height: h)
            apart.canvases[0].clear((0, 0, w, h))
            apart.draw(
                prepared, showing: layer, at: t,
                frame: Rect(x: -Double(x0), y: -Double(y0), width: size.width, height: size.height), opacity: 1,
                DrawContext(
                    target: 0, origin: .zero, clip: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), depth: 1,
                    time: t, shadowProjected: projectsShadow))
            if let kept {
                aparts.keep(kept.index, size: size, region: region, from: apart.canvases[0])
                drawing = aparts.canvas(kept.index)
            } else {
                drawing = apart.canvases[0]
            }
        }
        // The inverse map then taken to the drawing's pixels: (u - x0, v - y0).
        var sample = inverse
        sample.m11 -= Double(x0) * inverse.m13
        sample.m21 -= Double(x0) * inverse.m23
        sample.m31 -= Double(x0) * inverse.m33
        sample.m12 -= Double(y0) * inverse.m13
        sample.m22 -= Double(y0) * inverse.m23
        sample.m32 -= Double(y0) * inverse.m33
        let filter = Self.filter(layer, forward)
        if projectsShadow {
            drawProjected(
                drawing, width: w, height: h, inverse: sample, filter: filter, dest: dest, placement: forward,
                prepared, showing: layer, context)
        } else {
            canvases[context.target].draw(
                drawing, width: w, height: h, inverse: sample, filter: filter,
                opacity: Float(layer.pointee.opacity), in: dest)
        }
    }

    /// Draws a transformed layer with its shadow as Core Animation casts it: the layer
    /// projected (through `inverse`, landing inside `dest`) apart, its projected alpha (or
    /// shadow path mapped by `placement`) blurred and offset in the target's pixels beneath
    /// it, so a turned layer casts a turned shadow and the blur reaches past its bounds;
    /// then both at the layer's opacity onto the target, as a layer and its shadow are one.
    private func drawProjected(
        _ drawing: Canvas, width w: Int, height h: Int, inverse: Homography, filter: ResamplingFilter,
        dest: ShadowBlur.Box, placement: Homography, _ prepared: PreparedLayer, showing layer: UnsafePointer<Layer>,
        _ context: DrawContext
    ) {
        let l = layer.pointee
        // Where the shadow can reach: the projection's box moved by the offset and grown by
        // the blur (and a pixel for a fractional offset), within the clip.
        let reach = Double(GaussianKernel.reach(sigma: l.shadowRadius) + 1)
        let limit = Double(4 * (width + height))
        let dx = l.shadowOffset.width.isNaN ? 0 : min(max(l.shadowOffset.width, -limit), limit)
        let dy = l.shadowOffset.height.isNaN ? 0 : min(max(l.shadowOffset.height, -limit), limit)
        var reaches = Rect(
            x: Double(dest.x0), y: Double(dest.y0), width: Double(dest.x1 - dest.x0), height: Double(dest.y1 - dest.y0))
        let moved = reaches.offsetBy(dx: dx, dy: dy).grown(by: reach)
        reaches = Rect(
            x: min(reaches.minX, moved.minX), y: min(reaches.minY, moved.minY),
            width: max(reaches.maxX, moved.maxX) - min(reaches.minX, moved.minX),
            height: max(reaches.maxY, moved.maxY) - min(reaches.minY, moved.minY))
        // A shadow path may reach past what is drawn: the whole clip then.
        let within = context.clip.intersection(board)
        let area = (l.shadowPath == nil ? within.intersection(reaches) : within).pixelBounds(clippedTo: width, height)
        guard area.x0 < area.x1, area.y0 < area.y1 else { return }
        // The scratch of the layer's depth is free: the layer itself was drawn apart.
        let apart = scratch(context.depth * 2, clearing: area)
        canvases[apart].draw(drawing, width: w, height: h, inverse: inverse, filter: filter, opacity: 1, in: dest)
        shadows.draw(
            beneath: &canvases[apart], area: area, drawn: dest, layer: layer, prepared: prepared, placement: placement)
        canvases[context.target].composite(canvases[apart], opacity: Float(l.opacity), in: area)
    }

    /// The magnification filter when the map draws the layer larger than it is (its area
    /// around the layer's middle grows), the minification filter otherwise.
    static func filter(_ layer: UnsafePointer<Layer>, _ forward: Homography) -> ResamplingFilter {
        let l = layer.pointee
        let middle = forward.apply(l.size.width / 2, l.size.height / 2)
        // The area scale of a projective map at a point: det / w^3.
        let areaScale = middle.w > 0 ? forward.determinant.magnitude / (middle.w * middle.w * middle.w) : .infinity
        return areaScale > 1 ? l.magnificationFilter : l.minificationFilter
    }

    /// The box of `rect`'s corners mapped by `map`; `nil` when one is at or behind the viewer.
    static func box(_ map: Homography, _ rect: Rect) -> Rect? {
        var (x0, y0, x1, y1) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        // Corner by corner (no array: a frame allocates nothing).
        func add(_ x: Double, _ y: Double) -> Bool {
            let q = map.apply(x, y)
            guard q.w > 0 else { return false }
            let (px, py) = (q.x / q.w, q.y / q.w)
            guard px.isFinite, py.isFinite else { return false }
            (x0, y0, x1, y1) = (min(x0, px), min(y0, py), max(x1, px), max(y1, py))
            return true
        }
        guard add(rect.minX, rect.minY), add(rect.maxX, rect.minY), add(rect.minX, rect.maxY),
            add(rect.maxX, rect.maxY)
        else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The compositor resampled layers are drawn apart in, at least `width` x `height`:
    /// kept, and made again only to grow.
    private func apartCompositor(width w: Int, height h: Int) -> Compositor {
        if let apart, apart.width >= w, apart.height >= h { return apart }
        // At least the board's size: most layers fit from the first, and do not grow it
        // as more of them shows (a card turning to face the viewer).
        var (nw, nh) = (max(w, apart?.width ?? width), max(h, apart?.height ?? height))
        if nw * nh > Self.maxApartArea { (nw, nh) = (w, h) }
        let made = Compositor(uncachedWidth: nw, height: nh)
        apart = made
        return made
    }
}

extension Compositor {
    /// Key paths whose animation can make a layer more than translated.
    private static let resampling: Set<LayerProperty> = [
        .scale, .scaleX, .scaleY, .scaleZ, .rotation, .rotationX, .rotationY, .rotationZ,
    ]

    /// Whether `prepared` may draw a layer apart to resample it at some time: a transform
    /// (its own or a superlayer's sublayer transform) that is more than a translation, one
    /// that animates to be, or a replicator.
    static func mayResample(_ prepared: PreparedLayer) -> Bool {
        let l = prepared.stored.pointee
        if l.isResampled || !l.sublayerTransform.isTranslation || l.replicator != nil { return true }
        if l.animations.contains(where: { !resampling.isDisjoint(with: $0.keyPaths) }) { return true }
        return prepared.sublayers.contains(where: mayResample) || prepared.mask.contains(where: mayResample)
    }

    /// Makes the compositor resampled layers are drawn apart in, at the board's size with
    /// the scratch of a first nesting level, when `trees` may need it: called when the
    /// frame's trees change, so the first frame that turns a layer allocates nothing.
    func prepareApart(for trees: [(tree: PreparedLayer, time: Double)]) {
        guard apart == nil, trees.contains(where: { Self.mayResample($0.tree) }) else { return }
        let made = Compositor(uncachedWidth: width, height: height)
        _ = made.scratch(3, clearing: (0, 0, 0, 0))
        apart = made
    }
}

extension Rect {
    /// The rectangle grown by `d` on every side.
    func grown(by d: Double) -> Rect { Rect(x: minX - d, y: minY - d, width: width + 2 * d, height: height + 2 * d) }
}
