import SignTiming

/// How a text layer scrolls: MarqueeLabel's continuous mode with Core Animation's motion
/// (a linear, endlessly repeating translation) and a faded-edge mask on the static container.
public struct Marquee: Sendable, Hashable {
    /// When the text scrolls.
    public enum Scroll: String, Sendable, Hashable, CaseIterable {
        /// Always, even when the text would fit.
        case always
        /// Only when the text does not fit between the fades; otherwise it stands still, centred.
        case overflow
    }

    /// How the text moves, as MarqueeLabel's types.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Right to left, repeating after the gap, forever.
        case continuous
        /// Left to right, repeating after the gap, forever.
        case continuousReverse = "continuous-reverse"
        /// Back and forth across the overflow (or the free space), holding at each end.
        case leftRight = "left-right"
    }

    /// How the moving strip meets the pixel grid.
    public enum Motion: String, Sendable, Hashable, CaseIterable {
        /// Fractional positions, box-filtered: even motion at any speed.
        case smooth
        /// Whole-pixel steps: crisp glyphs, stepped motion.
        case pixel
    }

    /// Which way a continuous marquee's text moves.
    public enum ScrollDirection: String, Sendable, Hashable, CaseIterable {
        /// Leftwards, as left-to-right text reads.
        case left
        /// Rightwards, as right-to-left text reads.
        case right
    }

    /// A length along the layer's width.
    public enum Length: Sendable, Hashable {
        case pixels(Double)
        /// A fraction of the layer's width (0.026 is Core Animation seed's fade).
        case fraction(Double)

        public func pixels(ofWidth width: Int) -> Double {
            switch self {
            case .pixels(let p): return p
            case .fraction(let f): return f * Double(width)
            }
        }
    }

    /// Scrolling speed in pixels per second, right to left.
    public var speed: Double
    /// Space between the end of the text and its next repetition; `nil` is a quarter of the
    /// layer's width.
    public var gap: Int?
    /// Length of each faded edge.
    public var fade: Length
    public var scroll: Scroll
    public var motion: Motion
    public var mode: Mode
    /// Seconds held at home each loop (left-right: at each end).
    public var pause: Double
    /// Which way the text moves; `nil` follows its reading direction (right-to-left text
    /// moves rightwards).
    public var scrollDirection: ScrollDirection?

    public init(
        speed: Double = 30, gap: Int? = nil, fade: Length = .fraction(0.026), scroll: Scroll = .always,
        motion: Motion = .smooth, mode: Mode = .continuous, pause: Double = 0
    ) {
        self.speed = speed
        self.gap = gap
        self.fade = fade
        self.scroll = scroll
        self.motion = motion
        self.mode = mode
        self.pause = pause
    }

    /// The gap in pixels for a layer of a given width.
    public func gapPixels(layerWidth: Int) -> Int { gap ?? max(layerWidth / 4, 1) }
}

/// Where the scrolling strip is at a time: the text starts at `home` when it is set and
/// moves by the mode's rule, each loop lasting `period` seconds. Every mode is an
/// animation of `transform.translation.x`, as Core Animation code would write it.
public struct MarqueePath: Sendable, Equatable {
    /// x of the strip's start when the text was set, in layer pixels.
    public let home: Double
    /// How far one loop carries the strip: text width plus gap for the continuous modes
    /// (negative: leftwards), or the bounce's travel for left-right.
    public let travel: Double
    public let speed: Double
    public let mode: Marquee.Mode
    /// Seconds held at home (and, for left-right, at the far end) each loop.
    public let pause: Double
    /// One loop, repeating forever from the moment the text was set.
    public let timing: MediaTiming
    /// The translation; `nil` when the strip stands still.
    public let animation: LayerAnimation?

    /// The distance after which a continuous strip looks the same again.
    public var cycle: Double { abs(travel) }

    public init(
        home: Double, cycle: Double, speed: Double, beginTime: Double, mode: Marquee.Mode = .continuous,
        pause: Double = 0,
        bounce: Double = 0
    ) {
        self.home = home
        self.speed = speed
        self.mode = mode
        self.pause = max(pause, 0)
        switch mode {
        case .continuous: travel = -cycle
        case .continuousReverse: travel = cycle
        case .leftRight: travel = bounce
        }
        let move = speed > 0 ? abs(travel) / speed : .infinity
        let period = mode == .leftRight ? 2 * (move + self.pause) : move + self.pause
        guard move.isFinite, travel != 0 else {
            timing = MediaTiming(
                beginTime: beginTime, duration: .infinity, repeatCount: .infinity, fillMode: .backwards)
            animation = nil
            return
        }
        timing = MediaTiming(beginTime: beginTime, duration: period, repeatCount: .infinity, fillMode: .backwards)
        let motion: LayerPropertyAnimation.Motion
        switch mode {
        case .continuous, .continuousReverse:
            if self.pause == 0 {
                motion = .basic(BasicValues(from: .number(0), to: .number(travel)))
            } else {
                motion = .keyframes(
                    Keyframes(
                        values: [.number(0), .number(0), .number(travel)], keyTimes: [0, self.pause / period, 1]))
            }
        case .leftRight:
            // Out, hold, back, hold; each move eased in and out, as MarqueeLabel's left-right.
            let hold = self.pause / period, out = move / period
            motion = .keyframes(
                Keyframes(
                    values: [.number(0), .number(0), .number(travel), .number(travel), .number(0)],
                    keyTimes: [0, hold, hold + out, 2 * hold + out, 1],
                    timingFunctions: [.linear, .easeInEaseOut, .linear, .easeInEaseOut]))
        }
        animation = .property(PropertyAnimation(keyPath: .translationX, motion: motion, timing: timing))
    }

    /// x of the strip's start at scene time `t` (continuous, no pause:
    /// `home - (speed * (t - beginTime)) mod cycle`).
    public func stripX(at t: Double) -> Double {
        guard case .property(let a)? = animation, case .number(let dx)? = a.value(atParentTime: t, base: .number(0))
        else {
            return home
        }
        return home + dx
    }

    /// Loops completed by scene time `t` (0 during the first).
    public func loops(at t: Double) -> Int {
        guard animation != nil, timing.duration > 0 else { return 0 }
        return Int(max(0, ((t - timing.beginTime) / timing.duration).rounded(.down)))
    }

    /// The first time at or after `t` when a loop ends and the strip is back home.
    public func loopEnd(after t: Double) -> Double {
        guard animation != nil else { return t }
        let elapsed = max(t - timing.beginTime, 0)
        return timing.beginTime + (elapsed / timing.duration).rounded(.up) * timing.duration
    }
}
