import SignGraphics
import SignTiming

/// A layer animation compiled for the frame loop: a property animation's values typed by
/// the kind of property it moves (numbers, points, colours, `locations`), so evaluating it
/// neither wraps each value in `AnimatableValue` nor goes through the layer's key-path
/// table, and reads the animation in place. It presents the same layer as the animation it
/// was compiled from; a group, or values not of the key path's kind, stay as they were.
enum LayerTrack: Sendable {
    case number(Track<Double>)
    case point(Track<Point>)
    case color(Track<SIMD4<Double>>)
    case list(Track<NumberList>)
    case value(LayerAnimation)

    /// A property animation with typed values, held by reference: reading it copies nothing.
    final class Track<Value: LayerValue>: Sendable {
        let animation: PropertyAnimation<Value, LayerProperty>

        init?(_ animation: LayerPropertyAnimation, _ convert: (AnimatableValue) -> Value?) {
            guard let typed = animation.mapValues(convert) else { return nil }
            self.animation = typed
        }

        @inline(__always)
        func apply(atParentTime t: Double, to layer: UnsafeMutablePointer<Layer>) {
            var target = LayerValues<Value>(layer)
            animation.apply(atParentTime: t, to: &target)
        }
    }

    init(_ animation: LayerAnimation) {
        self = .value(animation)
        guard case .property(let a) = animation else { return }
        switch a.keyPath.kind {
        case .number: if let track = Track(a, \.number) { self = .number(track) }
        case .point: if let track = Track(a, \.point) { self = .point(track) }
        case .color:
            if let track = Track(a, { if case .color(let c) = $0 { c } else { nil } }) { self = .color(track) }
        case .numbers: if let track = Track(a, \.numbers) { self = .list(track) }
        default: break
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
