/// An animation of one property by key path: `CABasicAnimation`, `CAKeyframeAnimation` or
/// `CASpringAnimation`, with its timing and its additive and cumulative switches. `Key`
/// names the animated property: a layer's own property type, so a key path is resolved (and
/// a typo refused) once, when the animation is made, never when it runs.
public struct PropertyAnimation<Value: Interpolatable, Key: Hashable & Sendable>: Sendable, Equatable {
    /// How the value moves.
    public enum Motion: Sendable, Equatable {
        case basic(BasicValues<Value>)
        case keyframes(Keyframes<Value>)
        case spring(BasicValues<Value>, Spring)
    }

    /// The animated property, e.g. `locations`, `opacity`, `position.x`.
    public var keyPath: Key
    public var motion: Motion
    public var timing: MediaTiming
    /// Applied to the whole animation (for keyframes, before each segment's own); `nil` is linear.
    public var timingFunction: TimingFunction?
    /// The animated value is added to the value beneath instead of replacing it.
    public var isAdditive: Bool
    /// Each repeat carries on from where the previous one ended.
    public var isCumulative: Bool
    /// Once its active window is over the animation is removed, so `fillMode` forwards only
    /// holds when this is false (Core Animation's default is true). Only for animations
    /// attached to a layer; a group decides for its children.
    public var isRemovedOnCompletion: Bool

    public init(
        keyPath: Key, motion: Motion, timing: MediaTiming = MediaTiming(), timingFunction: TimingFunction? = nil,
        isAdditive: Bool = false, isCumulative: Bool = false, isRemovedOnCompletion: Bool = true
    ) {
        self.keyPath = keyPath
        self.motion = motion
        self.timing = timing
        self.timingFunction = timingFunction
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
        self.isRemovedOnCompletion = isRemovedOnCompletion
    }

    /// The value at a parent time over `base`, the value beneath (the model value or what
    /// earlier animations made of it); `nil` when the animation is not applied then.
    @inlinable public func value(atParentTime t: Double, base: Value) -> Value? {
        guard let local = timing.local(atParentTime: t) else { return nil }
        let duration = timing.simpleDuration
        var p = local.time / duration
        if let timingFunction { p = timingFunction(p) }
        var value: Value
        let start: Value, end: Value
        switch motion {
        case .basic(let values):
            (start, end) = values.ends(model: base)
            value = start.interpolated(to: end, fraction: p)
        case .keyframes(let keyframes):
            guard let first = keyframes.values.first, let last = keyframes.values.last else { return nil }
            (start, end) = (first, last)
            value = keyframes.value(at: p) ?? base
        case .spring(let values, let spring):
            (start, end) = values.ends(model: base)
            value = start.interpolated(to: end, fraction: spring.fraction(at: p * duration))
        }
        if isCumulative && local.cycle > 0 {
            value = value.adding(end.subtracting(start).scaled(by: Double(local.cycle)))
        }
        return isAdditive ? base.adding(value) : value
    }
}

extension PropertyAnimation {
    /// Applies the animation, attached to a layer, at parent time `t` to `target`, as
    /// `Animation.apply` does: nothing once its active window is over if it is removed on
    /// completion.
    @inlinable public func apply<Target: AnimationTarget>(atParentTime t: Double, to target: inout Target)
    where Target.Key == Key, Target.Value == Value {
        if isRemovedOnCompletion && t >= timing.endTime { return }
        write(atParentTime: t, to: &target)
    }

    /// Reads the value beneath the animated property and writes the animated value in its place.
    @inlinable func write<Target: AnimationTarget>(atParentTime t: Double, to target: inout Target)
    where Target.Key == Key, Target.Value == Value {
        guard let base = target[keyPath], let value = value(atParentTime: t, base: base) else { return }
        target[keyPath] = value
    }

    /// The same animation with its values converted to another type (a layer's values typed
    /// by the kind of property); `nil` when one does not convert.
    @inlinable public func mapValues<T>(_ convert: (Value) -> T?) -> PropertyAnimation<T, Key>? {
        let converted: PropertyAnimation<T, Key>.Motion
        switch motion {
        case .basic(let values):
            guard let v = values.mapValues(convert) else { return nil }
            converted = .basic(v)
        case .keyframes(let keyframes):
            guard let k = keyframes.mapValues(convert) else { return nil }
            converted = .keyframes(k)
        case .spring(let values, let spring):
            guard let v = values.mapValues(convert) else { return nil }
            converted = .spring(v, spring)
        }
        return PropertyAnimation<T, Key>(
            keyPath: keyPath, motion: converted, timing: timing, timingFunction: timingFunction,
            isAdditive: isAdditive, isCumulative: isCumulative, isRemovedOnCompletion: isRemovedOnCompletion)
    }
}

/// `CAAnimationGroup`: animations that share a timeline. The group's local time is its
/// children's parent time, so a child's `beginTime` counts from the group's start, and
/// nothing of a child shows outside the group's own active window.
public struct AnimationGroup<Value: Interpolatable, Key: Hashable & Sendable>: Sendable, Equatable {
    public var timing: MediaTiming
    public var animations: [Animation<Value, Key>]
    /// As for a property animation.
    public var isRemovedOnCompletion: Bool

    public init(timing: MediaTiming, animations: [Animation<Value, Key>], isRemovedOnCompletion: Bool = true) {
        self.timing = timing
        self.animations = animations
        self.isRemovedOnCompletion = isRemovedOnCompletion
    }
}

/// What animations are applied to: animatable values by key (a layer's properties by key
/// path). Written in place, so applying an animation neither copies the target nor calls
/// through closures.
public protocol AnimationTarget {
    associatedtype Key
    associatedtype Value
    /// The value under `key`; `nil` when the target has no such property. Setting `nil`
    /// changes nothing.
    subscript(key: Key) -> Value? { get set }
}

/// An animation attached to a layer: one property's, or a group of them.
public indirect enum Animation<Value: Interpolatable, Key: Hashable & Sendable>: Sendable, Equatable {
    case property(PropertyAnimation<Value, Key>)
    case group(AnimationGroup<Value, Key>)

    /// Applies the animation, attached to a layer, at parent time `t` to `target`: reads the
    /// value beneath each animated property and writes the animated value in its place. An
    /// animation removed on completion does nothing once its active window is over.
    @inlinable public func apply<Target: AnimationTarget>(atParentTime t: Double, to target: inout Target)
    where Target.Key == Key, Target.Value == Value {
        if isRemovedOnCompletion && t >= endTime { return }
        applyInGroup(atParentTime: t, to: &target)
    }

    /// Whether the animation is dropped once it completes.
    @inlinable public var isRemovedOnCompletion: Bool {
        switch self {
        case .property(let a): return a.isRemovedOnCompletion
        case .group(let g): return g.isRemovedOnCompletion
        }
    }

    @inlinable func applyInGroup<Target: AnimationTarget>(atParentTime t: Double, to target: inout Target)
    where Target.Key == Key, Target.Value == Value {
        switch self {
        case .property(let animation):
            animation.write(atParentTime: t, to: &target)
        case .group(let group):
            guard let local = group.timing.local(atParentTime: t) else { return }
            for child in group.animations { child.applyInGroup(atParentTime: local.time, to: &target) }
        }
    }

    /// The parent time at which the active window ends (infinite for endless repeats and
    /// for a clock that does not run).
    @inlinable public var endTime: Double {
        switch self {
        case .property(let a): return a.timing.endTime
        case .group(let g): return g.timing.endTime
        }
    }
}
