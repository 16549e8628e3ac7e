import SignGraphics

/// A `CAReplicatorLayer`'s sublayers, drawn once per instance.
extension Compositor {
    /// Draws `prepared`'s sublayers for each of `replicator`'s instances in `base` (the
    /// context the sublayers would be drawn in once): instance i at its time `i * delay`
    /// behind, moved by the instance transform applied i times about the layer's anchor
    /// point (before the layer's own sublayer transform), and tinted by its colour (drawn
    /// apart on the replicator's free scratch canvas, then multiplied and composited within
    /// `area`). An instance moved only by a translation is drawn in place, not resampled.
    func drawInstances(
        _ prepared: PreparedLayer, of layer: UnsafePointer<Layer>, _ replicator: Replicator, _ base: DrawContext,
        area: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        let l = layer.pointee
        let a = (x: l.anchorPoint.x * l.size.width, y: l.anchorPoint.y * l.size.height, z: l.anchorPointZ)
        let step = Transform3D.translation(x: -a.x, y: -a.y, z: -a.z).concatenating(replicator.instanceTransform.matrix)
            .concatenating(.translation(x: a.x, y: a.y, z: a.z))
        var power = Transform3D.identity
        for i in 0..<replicator.instanceCount {
            var context = base
            if i > 0 {
                power = power.concatenating(step)
                context.replica = true
                let m = base.sublayerTransform.map { power.concatenating($0) } ?? power
                if m.isTranslation {
                    context.origin = Point(x: base.origin.x + m.m41, y: base.origin.y + m.m42)
                    context.sublayerTransform = nil
                } else {
                    context.sublayerTransform = m
                }
            }
            context.time = replicator.time(ofInstance: i, at: base.time)
            let color = replicator.color(ofInstance: i)
            if color == SIMD4(1, 1, 1, 1) {
                for sublayer in prepared.sublayers { draw(sublayer, context) }
                continue
            }
            guard color.w > 0 else { continue }
            // The replicator's own mask canvas is free until its sublayers are drawn.
            let s = scratch(base.depth * 2 - 1, clearing: area)
            context.target = s
            context.mask = nil
            for sublayer in prepared.sublayers { draw(sublayer, context) }
            canvases[base.target].composite(canvases[s], tint: SIMD4<Float>(color), in: area)
        }
    }
}
