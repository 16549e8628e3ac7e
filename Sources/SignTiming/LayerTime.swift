/// CAMediaTiming as `CALayer` adopts it: a layer's time for its animations, its mask and its
/// sublayers, from its superlayer's time.
///
/// `t_local = (t_parent - beginTime) * speed + timeOffset`, as `convertTime(_:from:)` maps a
/// superlayer's time into a layer's. A layer's `duration` of 0 (its default) means its time
/// runs on without end: no cycles, and before `beginTime` it has no time unless `fillMode`
/// holds backwards (then it reads `timeOffset`). With a `duration`, its time repeats,
/// autoreverses and fills exactly as an animation's does (`local(atParentTime:)`).
extension MediaTiming {
    /// Whether a layer with this timing reads its superlayer's time unchanged (no begin time,
    /// speed 1, no offset, no duration): such a layer costs nothing and is left as it is.
    @inlinable public var isLayerIdentity: Bool {
        beginTime == 0 && speed == 1 && timeOffset == 0 && duration == 0
    }

    /// A layer's local time at its superlayer's time `t`; `nil` when the layer has no time
    /// then (before its begin time or after its active window, with no fill that way, or
    /// when `t` itself is not a time).
    @inlinable public func layerTime(atParentTime t: Double) -> Double? {
        if isLayerIdentity { return t.isFinite ? t : nil }
        guard t.isFinite else { return nil }
        guard duration > 0 else {
            if t < beginTime {
                guard fillMode.holdsBefore else { return nil }
                return timeOffset
            }
            return (t - beginTime) * speed + timeOffset
        }
        return local(atParentTime: t)?.time
    }
}
