/// The timing of an animation with `CAMediaTiming`'s semantics: when it starts, how long
/// one cycle lasts, how fast its clock runs, how often it repeats and what it shows outside
/// its active window.
///
/// Times are in seconds of the parent's clock. A `beginTime` of 0 is resolved by whoever
/// adds the animation (the scene uses the moment it was added), as Core Animation does.
public struct MediaTiming: Sendable, Hashable {
    /// Start of the active window, in parent time.
    public var beginTime: Double
    /// Length of one simple cycle; 0 means Core Animation's default of 0.25 s.
    public var duration: Double
    /// Rate of local time relative to parent time.
    public var speed: Double
    /// Offset added to local time; it wraps around the active duration.
    public var timeOffset: Double
    /// Number of cycles (fractional allowed, `.infinity` for forever); 0 means once.
    public var repeatCount: Double
    /// Total repeating time in local seconds; when non-zero it wins over `repeatCount`.
    public var repeatDuration: Double
    /// Whether every cycle plays forwards and then backwards.
    public var autoreverses: Bool
    /// What is shown outside the active window.
    public var fillMode: FillMode

    public init(
        beginTime: Double = 0, duration: Double = 0, speed: Double = 1, timeOffset: Double = 0,
        repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
        fillMode: FillMode = .removed
    ) {
        self.beginTime = beginTime
        self.duration = duration
        self.speed = speed
        self.timeOffset = timeOffset
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
    }

    /// The duration of one simple cycle after Core Animation's "0 means 0.25 s" rule.
    @inlinable public var simpleDuration: Double { duration > 0 ? duration : 0.25 }

    /// The length of the active window in local time: all repeats, both directions.
    @inlinable public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        return simpleDuration * max(repeatCount, 1) * (autoreverses ? 2 : 1)
    }

    /// The parent time at which the active window ends (infinite for endless repeats and
    /// for a clock that does not run).
    @inlinable public var endTime: Double {
        guard speed != 0 else { return .infinity }
        return beginTime + activeDuration / abs(speed)
    }

    /// Where in its cycles an animation is at a parent time.
    public struct Local: Sendable, Hashable {
        /// Seconds into the simple duration, in [0, simpleDuration], after mirroring the
        /// backward half of an autoreversing cycle.
        public var time: Double
        /// Which repeat (0 for the first), for cumulative animations.
        public var cycle: Int

        @inlinable public init(time: Double, cycle: Int) {
            self.time = time
            self.cycle = cycle
        }
    }

    /// The local time at a time of the parent's clock; `nil` when the animation is not
    /// applied then (outside its active window with no fill in that direction).
    @inlinable public func local(atParentTime parentTime: Double) -> Local? {
        let d = simpleDuration
        let active = activeDuration
        var t = (parentTime - beginTime) * speed
        var atEnd = false
        if t < 0 {
            guard fillMode.holdsBefore else { return nil }
            t = 0
        } else if t >= active {
            guard fillMode.holdsAfter else { return nil }
            t = active
            atEnd = true
        }
        if timeOffset != 0 {
            t += timeOffset
            if active.isFinite {
                t = t.truncatingRemainder(dividingBy: active)
                if t < 0 { t += active }
                atEnd = false
            }
        }
        // Half-cycles of one simple duration; with autoreverses odd ones run backwards.
        var k = (t / d).rounded(.down)
        // A duration too small for the time (t / d beyond any number) has no phase to show:
        // the cycle's start, rather than a trap on converting infinity.
        if !k.isFinite { k = 0 }
        var local = t - k * d
        if atEnd && local == 0 && k > 0 {
            // A last cycle that ends exactly shows its end value, not the next start.
            k -= 1
            local = d
        }
        let backwards = autoreverses && Int64(k.truncatingRemainder(dividingBy: 2)) != 0
        if backwards { local = d - local }
        let cycle = Int(min(autoreverses ? k / 2 : k, Double(Int.max / 2)))
        return Local(time: min(max(local, 0), d), cycle: cycle)
    }

    /// The progress through the simple cycle, in [0, 1], before any timing function;
    /// `nil` when the animation is not applied at that time.
    @inlinable public func progress(atParentTime parentTime: Double) -> Double? {
        local(atParentTime: parentTime).map { $0.time / simpleDuration }
    }
}
