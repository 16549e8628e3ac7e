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

    /// How the moving strip meets the pixel grid.
    public enum Motion: String, Sendable, Hashable, CaseIterable {
        /// Fractional positions, box-filtered: even motion at any speed.
        case smooth
        /// Whole-pixel steps: crisp glyphs, stepped motion.
        case pixel
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

    public init(
        speed: Double = 30, gap: Int? = nil, fade: Length = .fraction(0.026), scroll: Scroll = .always,
        motion: Motion = .smooth
    ) {
        self.speed = speed
        self.gap = gap
        self.fade = fade
        self.scroll = scroll
        self.motion = motion
    }

    /// The gap in pixels for a layer of a given width.
    public func gapPixels(layerWidth: Int) -> Int { gap ?? max(layerWidth / 4, 1) }
}

/// Where the scrolling strip is at a time: the text starts at `home` (just inside the left
/// fade) when the text is set and moves left at `speed`, wrapping every `cycle` pixels.
public struct MarqueePath: Sendable, Hashable {
    /// x of the strip's start when the text was set, in layer pixels.
    public let home: Double
    /// Text width plus gap: the distance after which the strip looks the same again.
    public let cycle: Double
    public let speed: Double
    /// The repeating linear translation, as `CABasicAnimation` with repeatCount infinity.
    public let timing: MediaTiming

    public init(home: Double, cycle: Double, speed: Double, beginTime: Double) {
        self.home = home
        self.cycle = cycle
        self.speed = speed
        let duration = speed > 0 && cycle > 0 ? cycle / speed : .infinity
        self.timing = MediaTiming(
            beginTime: beginTime, duration: duration, repeatCount: .infinity, fillMode: .backwards)
    }

    /// x of the strip's start at scene time `t`: `home - (speed * (t - beginTime)) mod cycle`.
    public func stripX(at t: Double) -> Double {
        guard timing.duration.isFinite else { return home }
        return home - (timing.progress(atParentTime: t) ?? 0) * cycle
    }

    /// The first time at or after `t` when a cycle ends and the strip is back home.
    public func loopEnd(after t: Double) -> Double {
        guard timing.duration.isFinite else { return t }
        let elapsed = max(t - timing.beginTime, 0)
        return timing.beginTime + (elapsed / timing.duration).rounded(.up) * timing.duration
    }
}
