import SignGraphics
import SignTiming

/// A layer animation compiled for the frame loop: a property animation's values typed by
/// the kind of property it moves (numbers, points, colours, `locations`, paths), so evaluating it
/// neither wraps each value in `AnimatableValue` nor goes through the layer's key-path
/// table, and reads the animation in place. It presents the same layer as the animation it
/// was compiled from; a group, or values not of the key path's kind, stay as they were.
enum LayerTrack: Sendable {
    case number(Track<Double>)
    case point(Track<Point>)
    case color(Track<SIMD4<Double>>)
    case list(Track<NumberList>)
    /// A morph between paths of one structure, worked out in place (`PathTrack`).
    case path(PathTrack)
    case value(LayerAnimation)

    /// A property animation with typed values, held by reference: reading it copies nothing.
    final class Track<Value: LayerValue>: @unchecked Sendable {
        let animation: PropertyAnimation<Value, LayerProperty>
        /// The animation taken apart, when its value needs nothing of the layer beneath it
        /// (its ends are given, or it has keyframes, and it neither adds to the value nor
        /// accumulates): its parts are read where they are, and the layer's value is not.
        /// Held where it was made, never changed after `init`: reading its parts through the
        /// pointer borrows them, where reading a stored value copies it (its lists retained).
        private let direct: UnsafeMutablePointer<Direct>?
        /// The model's value at the key path (`nil`: the layer lacks the property): what
        /// `update(atParentTime:on:)` writes where the animation shows no value.
        private let base: Value?

        deinit {
            direct?.deinitialize(count: 1)
            direct?.deallocate()
        }

        /// What a direct track reads each frame.
        private struct Direct {
            let key: LayerProperty
            let timing: MediaTiming
            let duration: Double
            /// The parent time from which it no longer applies (infinite when it stays).
            let removedAt: Double
            let easing: TimingFunction?
            let ends: (from: Value, to: Value)?
            let keyframes: Keyframes<Value>?
        }

        init?(_ animation: LayerPropertyAnimation, on model: Layer, _ convert: (AnimatableValue) -> Value?) {
            guard let typed = animation.mapValues(convert) else { return nil }
            self.animation = typed
            // A property the layer lacks (a text colour on a gradient) is never written; no
            // animation adds or removes one, so the model tells once for every frame.
            var model = model
            base = Value.read(typed.keyPath, of: &model)
            var ends: (Value, Value)?
            var keyframes: Keyframes<Value>?
            switch typed.motion {
            case .basic(let values):
                if let from = values.from, let to = values.to { ends = (from, to) }
            case .keyframes(let k):
                if !k.values.isEmpty { keyframes = k }
            case .spring:
                break
            }
            if (ends != nil || keyframes != nil) && !typed.isAdditive && !typed.isCumulative && base != nil {
                let d = UnsafeMutablePointer<Direct>.allocate(capacity: 1)
                d.initialize(
                    to: Direct(
                        key: typed.keyPath, timing: typed.timing, duration: typed.timing.simpleDuration,
                        removedAt: typed.isRemovedOnCompletion ? typed.timing.endTime : .infinity,
                        easing: typed.timingFunction, ends: ends, keyframes: keyframes))
                direct = d
            } else {
                direct = nil
            }
        }

        /// Whether `update(atParentTime:on:)` can present the property in place: not when
        /// the model has no value there to write back (a shape's fill colour animated over
        /// a gradient fill is written, but reads as none).
        var updates: Bool { base != nil }

        @inline(__always)
        func apply(atParentTime t: Double, to layer: UnsafeMutablePointer<Layer>) {
            guard let d = direct else {
                var target = LayerValues<Value>(layer)
                animation.apply(atParentTime: t, to: &target)
                return
            }
            if let value = Self.value(d, atParentTime: t) { Value.write(value, to: d.pointee.key, of: &layer.pointee) }
        }

        /// Makes the property on `layer` (a presentation of the model in which only this
        /// method changed it) what the animation shows at parent time `t`: its value, or the
        /// model's where it shows none. A direct track writes the property once.
        @inline(__always)
        func update(atParentTime t: Double, on layer: UnsafeMutablePointer<Layer>) {
            let key = animation.keyPath
            guard let d = direct else {
                // The model's value first: the animation may read it (an additive one adds to it).
                if let base { Value.write(base, to: key, of: &layer.pointee) }
                var target = LayerValues<Value>(layer)
                animation.apply(atParentTime: t, to: &target)
                return
            }
            if let value = Self.value(d, atParentTime: t) ?? base { Value.write(value, to: key, of: &layer.pointee) }
        }

        /// A direct track's value at parent time `t`, the same as
        /// `PropertyAnimation.value(atParentTime:base:)` gives; `nil` when it shows none.
        @inline(__always)
        private static func value(_ d: UnsafeMutablePointer<Direct>, atParentTime t: Double) -> Value? {
            if t >= d.pointee.removedAt { return nil }
            guard let local = d.pointee.timing.local(atParentTime: t) else { return nil }
            let fraction = local.time / d.pointee.duration
            let p = d.pointee.easing?.progress(fraction) ?? fraction
            if d.pointee.ends != nil {
                return d.pointee.ends!.from.interpolated(to: d.pointee.ends!.to, fraction: p)
            }
            return d.pointee.keyframes?.value(at: p)
        }
    }

    init(_ animation: LayerAnimation, on model: Layer) {
        self = .value(animation)
        guard case .property(let a) = animation else { return }
        switch a.keyPath.kind {
        case .number: if let track = Track(a, on: model, \.number) { self = .number(track) }
        case .point: if let track = Track(a, on: model, \.point) { self = .point(track) }
        case .color:
            if let track = Track(a, on: model, { if case .color(let c) = $0 { c } else { nil } }) {
                self = .color(track)
            }
        case .numbers: if let track = Track(a, on: model, \.numbers) { self = .list(track) }
        case .path: if let track = PathTrack(a, on: model) { self = .path(track) }
        default: break
        }
    }

    /// The property the track writes when it can present it in place
    /// (`update(atParentTime:on:)`); `nil` for a group or an untyped animation, which may
    /// write others.
    var updatedProperty: LayerProperty? {
        switch self {
        case .number(let track): track.updates ? track.animation.keyPath : nil
        case .point(let track): track.updates ? track.animation.keyPath : nil
        case .color(let track): track.updates ? track.animation.keyPath : nil
        case .list(let track): track.updates ? track.animation.keyPath : nil
        case .path: .path
        case .value: nil
        }
    }

    /// Makes the property it animates on the layer `layer` points to what it shows at parent
    /// time `t` (the model's value where the animation shows none). `layer` is a
    /// presentation of the model in which only the layer's tracks' updates changed
    /// anything. Only for a track with an `updatedProperty`.
    @inline(__always)
    func update(atParentTime t: Double, on layer: UnsafeMutablePointer<Layer>) {
        switch self {
        case .number(let track): track.update(atParentTime: t, on: layer)
        case .point(let track): track.update(atParentTime: t, on: layer)
        case .color(let track): track.update(atParentTime: t, on: layer)
        case .list(let track): track.update(atParentTime: t, on: layer)
        case .path(let track): track.update(atParentTime: t, on: layer)
        case .value: break
        }
    }

    /// Applies the animation at parent time `t` to the layer `layer` points to, in place.
    @inline(__always)
    func apply(atParentTime t: Double, to layer: UnsafeMutablePointer<Layer>) {
        switch self {
        case .number(let track): track.apply(atParentTime: t, to: layer)
        case .point(let track): track.apply(atParentTime: t, to: layer)
        case .color(let track): track.apply(atParentTime: t, to: layer)
        case .list(let track): track.apply(atParentTime: t, to: layer)
        case .path(let track): track.apply(atParentTime: t, to: layer)
        case .value(let a): a.apply(atParentTime: t, to: &layer.pointee)
        }
    }
}

/// A layer's properties of one value type, as an animation's target: reads and writes go
/// straight to the layer.
struct LayerValues<Value: LayerValue>: AnimationTarget {
    let layer: UnsafeMutablePointer<Layer>

    init(_ layer: UnsafeMutablePointer<Layer>) { self.layer = layer }

    subscript(key: LayerProperty) -> Value? {
        get { Value.read(key, of: &layer.pointee) }
        nonmutating set { if let newValue { Value.write(newValue, to: key, of: &layer.pointee) } }
    }
}

/// A type a layer property's value takes, read and written by key path. The layer is passed
/// `inout` to be read where it is, never copied.
protocol LayerValue: Interpolatable {
    static func read(_ property: LayerProperty, of layer: inout Layer) -> Self?
    static func write(_ value: Self, to property: LayerProperty, of layer: inout Layer)
}

extension Double: LayerValue {
    static func read(_ property: LayerProperty, of layer: inout Layer) -> Double? { layer[number: property] }
    static func write(_ value: Double, to property: LayerProperty, of layer: inout Layer) {
        layer[number: property] = value
    }
}

extension Point: LayerValue {
    static func read(_ property: LayerProperty, of layer: inout Layer) -> Point? { layer[point: property] }
    static func write(_ value: Point, to property: LayerProperty, of layer: inout Layer) {
        layer[point: property] = value
    }
}

extension SIMD4: LayerValue where Scalar == Double {
    static func read(_ property: LayerProperty, of layer: inout Layer) -> SIMD4<Double>? { layer[color: property] }
    static func write(_ value: SIMD4<Double>, to property: LayerProperty, of layer: inout Layer) {
        layer[color: property] = value
    }
}

extension NumberList: LayerValue {
    static func read(_ property: LayerProperty, of layer: inout Layer) -> NumberList? { layer[numbers: property] }
    static func write(_ value: NumberList, to property: LayerProperty, of layer: inout Layer) {
        layer[numbers: property] = value
    }
}

/// Points move along a straight line, both coordinates at once.
extension Point: Interpolatable {
    public func interpolated(to other: Point, fraction f: Double) -> Point {
        Point(x: x + (other.x - x) * f, y: y + (other.y - y) * f)
    }
    public func adding(_ other: Point) -> Point { Point(x: x + other.x, y: y + other.y) }
    public func subtracting(_ other: Point) -> Point { Point(x: x - other.x, y: y - other.y) }
    public func scaled(by k: Double) -> Point { Point(x: x * k, y: y * k) }
    public func distance(to other: Point) -> Double {
        let (dx, dy) = (other.x - x, other.y - y)
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// `locations` move number by number. Lists of different lengths cannot blend: the nearer
/// end wins, as for any animatable value.
extension NumberList: Interpolatable {
    public func interpolated(to other: NumberList, fraction f: Double) -> NumberList {
        combined(with: other) { a, b in a + (b - a) * f } ?? (f < 0.5 ? self : other)
    }
    public func adding(_ other: NumberList) -> NumberList { combined(with: other, +) ?? self }
    public func subtracting(_ other: NumberList) -> NumberList { combined(with: other, -) ?? self }
    public func scaled(by k: Double) -> NumberList { NumberList(count: count) { self[$0] * k } }
    public func distance(to other: NumberList) -> Double {
        guard count == other.count else { return 0 }
        return indices.reduce(0) { sum, i in sum + (other[i] - self[i]) * (other[i] - self[i]) }.squareRoot()
    }
}
