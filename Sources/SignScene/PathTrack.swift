import SignGraphics
import SignTiming

/// A `path` animation between SVG paths of the same elements (a morph), compiled for the
/// frame loop: each frame's path is worked out point by point into the path the layer's
/// presentation already holds, where the animation itself makes a new path every frame. A
/// presentation kept between frames (`PresentationStore`) holds storage of its own after
/// the first, so a morph then allocates nothing. Taken only when its values are given (both
/// ends, or keyframes other than cubic), all of one structure, over a model with path data,
/// and it neither adds nor accumulates; any other `path` animation stays as it was.
final class PathTrack: Sendable {
    private let timing: MediaTiming
    private let duration: Double
    /// The parent time from which it no longer applies (infinite when it stays).
    private let removedAt: Double
    private let easing: TimingFunction?
    /// A basic animation's two ends, or the keyframes' values.
    private let values: [Path]
    /// Where each time falls among `values`; `nil` for a basic animation.
    private let keyframes: Keyframes<AnimatableValue>?
    /// The model's path: what shows where the animation shows none.
    private let base: Path

    init?(_ animation: LayerPropertyAnimation, on model: Layer) {
        guard animation.keyPath == .path, !animation.isAdditive, !animation.isCumulative,
            case .shape(let shape) = model.content, let base = shape.pathData
        else { return nil }
        let given: [AnimatableValue]
        switch animation.motion {
        case .basic(let ends):
            guard let from = ends.from, let to = ends.to else { return nil }
            given = [from, to]
            keyframes = nil
        case .keyframes(let k):
            guard k.calculationMode != .cubic, !k.values.isEmpty else { return nil }
            given = k.values
            keyframes = k
        case .spring:
            return nil
        }
        let paths = given.compactMap(\.pathData)
        guard paths.count == given.count, paths.allSatisfy({ $0.hasSameStructure(as: paths[0]) }) else { return nil }
        values = paths
        self.base = base
        timing = animation.timing
        duration = animation.timing.simpleDuration
        removedAt = animation.isRemovedOnCompletion ? animation.timing.endTime : .infinity
        easing = animation.timingFunction
    }

    /// Makes the path of the layer `layer` points to (a presentation of the model in which
    /// only this method changed it) what the animation shows at parent time `t`, or the
    /// model's where it shows none, in the storage that path holds.
    func update(atParentTime t: Double, on layer: UnsafeMutablePointer<Layer>) {
        if !show(atParentTime: t, on: layer) {
            let base = self.base
            layer.pointee.updatePathData { $0.copyElements(of: base) }
        }
    }

    /// Writes what the animation shows at parent time `t` on the layer `layer` points to;
    /// nothing where it shows none.
    func apply(atParentTime t: Double, to layer: UnsafeMutablePointer<Layer>) {
        _ = show(atParentTime: t, on: layer)
    }

    /// The same value `PropertyAnimation.value(atParentTime:base:)` gives, worked out into
    /// the layer's path; `false` (nothing written) when the animation shows none.
    private func show(atParentTime t: Double, on layer: UnsafeMutablePointer<Layer>) -> Bool {
        if t >= removedAt { return false }
        guard let local = timing.local(atParentTime: t) else { return false }
        let fraction = local.time / duration
        let p = easing?.progress(fraction) ?? fraction
        var (i, f): (Int, Double?) = (0, p)
        if let keyframes {
            guard let at = keyframes.blend(at: p) else { return false }
            (i, f) = at
        }
        let values = self.values
        layer.pointee.updatePathData { path in
            if let f {
                path.combine(values[i], values[i + 1]) { a, b in a + (b - a) * f }
            } else {
                path.copyElements(of: values[i])
            }
        }
        return true
    }
}
