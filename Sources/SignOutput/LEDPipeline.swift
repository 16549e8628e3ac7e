import SignGraphics

/// One output's way from a rendered frame to LED bytes: pixel map, colour correction and
/// temporal dithering, in that order, fused into one pass per LED over the map (see
/// `DriveTable`, `PixelRuns`), in the wire's channel order. Keeps its tables and dither
/// state between frames.
public struct LEDPipeline: Sendable {
    public let map: PixelMap
    public let correction: ColorCorrection
    public let dithering: Bool
    /// The order `colour` writes each LED's bytes in (the wire's: GRB for a WS2812 board).
    public let order: ColourOrder
    /// Grey's carry, one slot per LED.
    private var dither = TemporalDither()
    /// Colour's carry: per LED, its three carries in their lanes (`DriveTable`).
    private var carry: [UInt64] = []
    private var table: DriveTable
    /// The map as runs, when it breaks into long ones.
    private let runs: PixelRuns?
    /// Per channel byte, its linear level weighted by its share of luminance (Rec. 709), for
    /// `grey`: the products a luminance sum adds, computed once.
    private let luminance: [Double]
    /// Rec. 709's shares of luminance, red, green and blue. Their products with 65535 add up
    /// (as `grey` adds them) to 65535.0 exactly, so no luminance sum rounds past 65535.
    static let luminanceWeights = [0.2126, 0.7152, 0.0722]

    public init(map: PixelMap, correction: ColorCorrection, dithering: Bool, order: ColourOrder = .rgb) {
        self.map = map
        self.correction = correction
        self.dithering = dithering
        self.order = order
        let table = DriveTable(correction: correction, dithering: dithering, order: order)
        let weights = Self.luminanceWeights
        self.table = table
        self.runs = PixelRuns(map.source)
        self.luminance = table.levels.indices.map { weights[$0 >> 8] * Double(table.levels[$0]) }
    }

    /// The same map, correction and dithering writing its bytes in `order` (dither state
    /// starts afresh).
    public func ordered(_ order: ColourOrder) -> LEDPipeline {
        LEDPipeline(map: map, correction: correction, dithering: dithering, order: order)
    }

    /// Bytes `colour` writes for this map: 3 per LED.
    public var colourByteCount: Int { map.ledCount * 3 }

    /// Corrected bytes per LED (R, G, B, or in `order`), in LED order, at `scale`
    /// (`DisplaySetting.scale`: 65536 is full brightness) in linear light before dithering.
    public mutating func colour(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        if out.count != colourByteCount { out = [UInt8](repeating: 0, count: colourByteCount) }
        out.withUnsafeMutableBytes { colour(frame, scale: scale, intoBuffer: $0) }
    }

    /// `colour` straight into the first `colourByteCount` bytes of `buffer` (a datagram or
    /// transfer buffer, say).
    public mutating func colour(_ frame: Frame, scale: UInt32 = 65536, intoBuffer buffer: UnsafeMutableRawBufferPointer) {
        let count = map.ledCount
        guard count > 0 else { return }
        precondition(buffer.count >= count * 3, "the buffer has no room for every LED's bytes")
        colour(frame, scale: scale, leds: 0..<count, into: buffer.baseAddress!)
    }

    /// The bytes of LEDs `leds` only (3 each, from `out` on): a framer fills each packet
    /// straight from the frame this way, one range after another, with no copy of the whole
    /// frame's bytes between. Every LED's dither carry moves on as when the whole frame goes
    /// at once, so a frame must cover each LED once.
    public mutating func colour(_ frame: Frame, scale: UInt32 = 65536, leds: Range<Int>, into out: UnsafeMutableRawPointer) {
        colour(frame, scale: scale, leds: leds, as: ThreeBytes(), into: out)
    }

    /// LEDs `leds` laid out as `layout` writes them (`layout.size` bytes each, from `out` on):
    /// what `colour(_:scale:leds:into:)` does for a wire whose LEDs are more than their three
    /// bytes (an APA102's frame, a WS2812's SPI bit patterns).
    mutating func colour<Layout: LEDLayout>(
        _ frame: Frame, scale: UInt32, leds: Range<Int>, as layout: Layout, into out: UnsafeMutableRawPointer
    ) {
        precondition(leds.lowerBound >= 0 && leds.upperBound <= map.ledCount, "LEDs past the map")
        guard !leds.isEmpty else { return }
        withPass(frame, scale: scale) { $0.colour(leds: leds, as: layout, into: out) }
    }

    /// One frame's colouring, range by range: the frame's pixels, the tables at the frame's
    /// scale and the carry held for the whole frame, so a framer that colours many small
    /// datagrams (E1.31's and Art-Net's 170 LEDs) sets them up once, not once a datagram.
    /// Valid only inside `withPass`.
    struct Pass {
        let pixels: UnsafeBufferPointer<UInt8>
        /// The map's runs when the frame holds every run's pixels; nil: LED by LED.
        let runs: UnsafeBufferPointer<PixelRuns.Run>?
        let source: UnsafeBufferPointer<Int32>
        let lanes: UnsafePointer<UInt64>
        /// nil: dithering off.
        let carry: UnsafeMutablePointer<UInt64>?

        /// `LEDPipeline.colour(_:scale:leds:as:into:)` within the pass.
        @inline(__always)
        func colour<Layout: LEDLayout>(leds: Range<Int>, as layout: Layout = ThreeBytes(), into out: UnsafeMutableRawPointer) {
            precondition(leds.lowerBound >= 0 && leds.upperBound <= source.count, "LEDs past the map")
            guard !leds.isEmpty else { return }
            let o = out.assumingMemoryBound(to: UInt8.self)
            if let runs {
                LEDPipeline.colour(
                    pixels: pixels.baseAddress!, runs: runs, leds: leds, lanes: lanes, carry: carry, layout: layout, out: o)
            } else {
                LEDPipeline.colour(
                    pixels: pixels, source: UnsafeBufferPointer(rebasing: source[leds]), lanes: lanes,
                    carry: carry.map { $0 + leds.lowerBound }, layout: layout, out: o)
            }
        }
    }

    /// Runs `body` with a pass over `frame` at `scale`; every LED's carry moves on once the
    /// pass colours it, so a frame's passes must cover each LED once.
    mutating func withPass<R>(_ frame: Frame, scale: UInt32, _ body: (Pass) -> R) -> R {
        table.update(scale: scale)
        if carry.count != map.ledCount {
            // Grey and colour do not share a carry: the old pipeline started afresh on a switch.
            dither = TemporalDither()
            carry = [UInt64](repeating: 0, count: map.ledCount)
        }
        let dithering = dithering
        let runs = runs.flatMap { frame.pixels.count / 3 >= $0.pixelsNeeded ? $0 : nil }
        return frame.pixels.withUnsafeBufferPointer { pixels in
            table.lanes.withUnsafeBufferPointer { lanes in
                carry.withUnsafeMutableBufferPointer { carry in
                    map.source.withUnsafeBufferPointer { source in
                        func pass(_ runs: UnsafeBufferPointer<PixelRuns.Run>?) -> R {
                            body(
                                Pass(
                                    pixels: pixels, runs: runs, source: source, lanes: lanes.baseAddress!,
                                    carry: dithering ? carry.baseAddress : nil))
                        }
                        guard let runs else { return pass(nil) }
                        return runs.runs.withUnsafeBufferPointer { pass($0) }
                    }
                }
            }
        }
    }

    /// Along the runs that cover `leds`.
    private static func colour<Layout: LEDLayout>(
        pixels: UnsafePointer<UInt8>, runs: UnsafeBufferPointer<PixelRuns.Run>, leds: Range<Int>,
        lanes: UnsafePointer<UInt64>, carry: UnsafeMutablePointer<UInt64>?, layout: Layout, out: UnsafeMutablePointer<UInt8>
    ) {
        var k = PixelRuns.index(of: leds.lowerBound, in: runs)
        var led = leds.lowerBound
        var o = out
        while led < leds.upperBound {
            let run = runs[k]
            let n = min(run.led + run.count, leds.upperBound) - led
            let c = carry.map { $0 + led }
            if run.pixel < 0 {
                black(count: n, lanes: lanes, carry: c, layout: layout, out: o)
            } else {
                let first = pixels + (run.pixel + (led - run.led) * run.step) * 3
                along(first, stride: run.step * 3, count: n, lanes: lanes, carry: c, layout: layout, out: o)
            }
            led += n
            o += n * layout.size
            k += 1
        }
    }

    /// One lane-word sum per LED: its three entries and its carry; the high bytes shown,
    /// the low bytes kept.
    @inline(__always)
    private static func along<Layout: LEDLayout>(
        _ first: UnsafePointer<UInt8>, stride: Int, count: Int, lanes: UnsafePointer<UInt64>,
        carry: UnsafeMutablePointer<UInt64>?, layout: Layout, out: UnsafeMutablePointer<UInt8>
    ) {
        let red = lanes, green = lanes + 256, blue = lanes + 512
        var p = first, o = out
        if var c = carry {
            for _ in 0..<count {
                let sum = red[Int(p[0])] &+ green[Int(p[1])] &+ blue[Int(p[2])] &+ c.pointee
                c.pointee = sum & DriveTable.carryMask
                layout.write(sum, at: o)
                c += 1
                o += layout.size
                p += stride
            }
        } else {
            for _ in 0..<count {
                layout.write(red[Int(p[0])] &+ green[Int(p[1])] &+ blue[Int(p[2])], at: o)
                o += layout.size
                p += stride
            }
        }
    }

    /// LEDs no pixel lights (no panel, or past the frame): each is a black pixel.
    @inline(__always)
    private static func black<Layout: LEDLayout>(
        count: Int, lanes: UnsafePointer<UInt64>, carry: UnsafeMutablePointer<UInt64>?, layout: Layout,
        out: UnsafeMutablePointer<UInt8>
    ) {
        let sum = lanes[0] &+ lanes[256] &+ lanes[512]
        var o = out
        if var c = carry {
            for _ in 0..<count {
                let s = sum &+ c.pointee
                c.pointee = s & DriveTable.carryMask
                layout.write(s, at: o)
                c += 1
                o += layout.size
            }
        } else {
            for _ in 0..<count {
                layout.write(sum, at: o)
                o += layout.size
            }
        }
    }

    /// LED by LED over the map: its frame pixel (black when the map has none or it lies past
    /// the frame).
    private static func colour<Layout: LEDLayout>(
        pixels: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<Int32>, lanes: UnsafePointer<UInt64>,
        carry: UnsafeMutablePointer<UInt64>?, layout: Layout, out: UnsafeMutablePointer<UInt8>
    ) {
        let inFrame = UInt32(truncatingIfNeeded: pixels.count / 3)
        let base = pixels.baseAddress
        let red = lanes, green = lanes + 256, blue = lanes + 512
        var o = out
        var c = carry
        for index in source {
            let (r, g, b) = mapped(index, in: base, inFrame: inFrame)
            var sum = red[r] &+ green[g] &+ blue[b]
            if let k = c {
                sum &+= k.pointee
                k.pointee = sum & DriveTable.carryMask
                c = k + 1
            }
            layout.write(sum, at: o)
            o += layout.size
        }
    }

    /// One grey byte per LED: the luminance (Rec. 709 weights) of the corrected linear light,
    /// at `scale` as `colour` takes it.
    public mutating func grey(_ frame: Frame, scale: UInt32 = 65536, into out: inout [UInt8]) {
        let count = map.ledCount
        if out.count != count { out = [UInt8](repeating: 0, count: count) }
        guard count > 0 else { return }
        if !carry.isEmpty {
            carry = []
            dither = TemporalDither()
        }
        dither.reserve(count)
        let dithering = dithering
        let whole = runs.map { frame.pixels.count / 3 >= $0.pixelsNeeded } ?? false
        frame.pixels.withUnsafeBufferPointer { pixels in
            luminance.withUnsafeBufferPointer { luminance in
                out.withUnsafeMutableBufferPointer { out in
                    dither.withCarry { carry in
                        let c = dithering ? carry : nil
                        let l = luminance.baseAddress!
                        if whole, let runs {
                            for run in runs.runs {
                                let o = out.baseAddress! + run.led
                                let k = c.map { $0 + run.led }
                                if run.pixel < 0 {
                                    // A black pixel, the same for each.
                                    var zero: (UInt8, UInt8, UInt8) = (0, 0, 0)
                                    withUnsafePointer(to: &zero) { z in
                                        z.withMemoryRebound(to: UInt8.self, capacity: 3) {
                                            Self.grey($0, stride: 0, count: run.count, luminance: l, scale: scale, carry: k, out: o)
                                        }
                                    }
                                } else {
                                    Self.grey(
                                        pixels.baseAddress! + run.pixel * 3, stride: run.step * 3, count: run.count,
                                        luminance: l, scale: scale, carry: k, out: o)
                                }
                            }
                        } else {
                            map.source.withUnsafeBufferPointer { source in
                                Self.grey(
                                    pixels: pixels, source: source, luminance: l, scale: scale, carry: c,
                                    out: out.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Grey along one run of the map.
    private static func grey(
        _ first: UnsafePointer<UInt8>, stride: Int, count: Int, luminance: UnsafePointer<Double>, scale: UInt32,
        carry: UnsafeMutablePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>
    ) {
        let green = luminance + 256, blue = luminance + 512
        var p = first
        if let carry {
            for led in 0..<count {
                let level = greyLevel(luminance[Int(p[0])] + green[Int(p[1])] + blue[Int(p[2])], scale: scale)
                let sum = TemporalDither.steps(level) &+ UInt16(carry[led])
                carry[led] = UInt8(truncatingIfNeeded: sum)
                out[led] = UInt8(truncatingIfNeeded: sum &>> 8)
                p += stride
            }
        } else {
            for led in 0..<count {
                out[led] = TemporalDither.round(
                    greyLevel(luminance[Int(p[0])] + green[Int(p[1])] + blue[Int(p[2])], scale: scale))
                p += stride
            }
        }
    }

    /// A luminance sum (0 to 65535.0: `luminanceWeights`) rounded half away from zero, at
    /// `scale`. The rounding adds 2^52, which leaves the nearest integer (ties to even) in the
    /// low bits with no conversion instruction and its range checks; the exact difference
    /// from it says whether a tie goes up. Each product is at most its weight times 65535
    /// and the sums round monotonically, so the largest sum is 65535.0 and the result needs
    /// no clamp (the tests check the bound).
    @inline(__always)
    static func greyLevel(_ y: Double, scale: UInt32) -> UInt16 {
        let shifted = y + 4_503_599_627_370_496.0
        let nearest = shifted - 4_503_599_627_370_496.0
        let even = Int(truncatingIfNeeded: shifted.bitPattern & 0x000f_ffff_ffff_ffff)
        let rounded = even &+ (y - nearest >= 0.5 ? 1 : 0)
        return DisplaySetting.scaled(UInt16(truncatingIfNeeded: rounded), by: scale)
    }

    /// The red, green and blue of the map's pixel `index`, black when it has none. A pixel
    /// index i is in the frame when i * 3 + 2 < pixels.count, that is i < `inFrame`
    /// (count / 3); a negative index (no pixel) fails the same unsigned comparison.
    @inline(__always)
    private static func mapped(_ index: Int32, in base: UnsafePointer<UInt8>?, inFrame: UInt32) -> (Int, Int, Int) {
        guard UInt32(bitPattern: index) < inFrame else { return (0, 0, 0) }
        let p = base.unsafelyUnwrapped + Int(index) &* 3
        return (Int(p[0]), Int(p[1]), Int(p[2]))
    }

    /// Grey LED by LED over the map.
    private static func grey(
        pixels: UnsafeBufferPointer<UInt8>, source: UnsafeBufferPointer<Int32>, luminance: UnsafePointer<Double>,
        scale: UInt32, carry: UnsafeMutablePointer<UInt8>?, out: UnsafeMutablePointer<UInt8>
    ) {
        let inFrame = UInt32(truncatingIfNeeded: pixels.count / 3)
        let base = pixels.baseAddress
        for led in 0..<source.count {
            let index = source[led]
            let (r, g, b) = mapped(index, in: base, inFrame: inFrame)
            let level = greyLevel(luminance[r] + luminance[256 + g] + luminance[512 + b], scale: scale)
            if let carry {
                let sum = TemporalDither.steps(level) &+ UInt16(carry[led])
                carry[led] = UInt8(truncatingIfNeeded: sum)
                out[led] = UInt8(truncatingIfNeeded: sum &>> 8)
            } else {
                out[led] = TemporalDither.round(level)
            }
        }
    }
}
