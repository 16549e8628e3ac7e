/// An animation of one property by key path: `CABasicAnimation`, `CAKeyframeAnimation` or
/// `CASpringAnimation`, with its timing and its additive and cumulative switches.
public struct PropertyAnimation<Value: Interpolatable>: Sendable {
    /// How the value moves.
    public enum Motion: Sendable {
        case basic(BasicValues<Value>)
        case keyframes(Keyframes<Value>)
        case spring(BasicValues<Value>, Spring)
    }

    /// The animated property, e.g. `locations`, `opacity`, `position.x`.
    public var keyPath: String
    public var motion: Motion
    public var timing: MediaTiming
    /// Applied to the whole animation (for keyframes, before each segment's own); `nil` is linear.
    public var timingFunction: TimingFunction?
    /// The animated value is added to the value beneath instead of replacing it.
    public var isAdditive: Bool
    /// Each repeat carries on from where the previous one ended.
    public var isCumulative: Bool

    public init(
        keyPath: String, motion: Motion, timing: MediaTiming = MediaTiming(), timingFunction: TimingFunction? = nil,
        isAdditive: Bool = false, isCumulative: Bool = false
    ) {
        self.keyPath = keyPath
        self.motion = motion
        self.timing = timing
        self.timingFunction = timingFunction
        self.isAdditive = isAdditive
        self.isCumulative = isCumulative
    }

    /// The value at a parent time over `base`, the value beneath (the model value or what
    /// earlier animations made of it); `nil` when the animation is not applied then.
    public func value(atParentTime t: Double, base: Value) -> Value? {
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

/// `CAAnimationGroup`: animations that share a timeline. The group's local time is its
/// children's parent time, so a child's `beginTime` counts from the group's start, and
/// nothing of a child shows outside the group's own active window.
public struct AnimationGroup<Value: Interpolatable>: Sendable {
    public var timing: MediaTiming
    public var animations: [Animation<Value>]

    public init(timing: MediaTiming, animations: [Animation<Value>]) {
        self.timing = timing
        self.animations = animations
    }
}

/// An animation attached to a layer: one property's, or a group of them.
public indirect enum Animation<Value: Interpolatable>: Sendable {
    case property(PropertyAnimation<Value>)
    case group(AnimationGroup<Value>)

    /// Applies the animation at parent time `t`: reads the value beneath each animated
    /// property with `get` and writes the animated value with `set`.
    public func apply(atParentTime t: Double, get: (String) -> Value?, set: (String, Value) -> Void) {
        switch self {
        case .property(let animation):
            guard let base = get(animation.keyPath),
                let value = animation.value(atParentTime: t, base: base)
            else { return }
            set(animation.keyPath, value)
        case .group(let group):
            guard let local = group.timing.local(atParentTime: t) else { return }
            for child in group.animations { child.apply(atParentTime: local.time, get: get, set: set) }
        }
    }

    /// The latest parent time at which the animation still changes anything: the end of its
    /// active window (infinite for endless repeats).
    public var endTime: Double {
        switch self {
        case .property(let a): return a.timing.beginTime + a.timing.activeDuration / max(abs(a.timing.speed), 1e-9)
        case .group(let g): return g.timing.beginTime + g.timing.activeDuration / max(abs(g.timing.speed), 1e-9)
        }
    }
}
