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
    var dither = TemporalDither()
    /// Colour's carry: per LED, its three carries in their lanes (`DriveTable`).
    var carry: [UInt64] = []
    private var table: DriveTable
    /// Whether `table` and the carry have the wire's second and third bytes in each other's
    /// lanes (`LEDLayout.swapsLastTwoLanes`): set by the layout a pass writes.
    private var lastTwoSwapped = false
    /// The map as runs, when it breaks into long ones.
    let runs: PixelRuns?
    /// Per channel byte, its linear level weighted by its share of luminance (Rec. 709), for
    /// `grey`: the products a luminance sum adds, computed once.
    let luminance: [Double]
    /// `luminance` in fixed point, 2^-32 units, red's entries with `greyBias` added: what
    /// `grey` adds in integers (`fixedGreyLevel`).
    let fixedLuminance: [UInt64]
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
        let luminance = table.levels.indices.map { weights[$0 >> 8] * Double(table.levels[$0]) }
        self.luminance = luminance
        self.fixedLuminance = luminance.indices.map {
            UInt64((luminance[$0] * 4_294_967_296).rounded()) + ($0 < 256 ? Self.greyBias : 0)
        }
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
        withPass(frame, scale: scale, lastTwoSwapped: Layout.swapsLastTwoLanes) {
            $0.colour(leds: leds, as: layout, into: out)
        }
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
    /// pass colours it, so a frame's passes must cover each LED once. `lastTwoSwapped`: the
    /// lanes as a layout whose `swapsLastTwoLanes` is true takes them (the table is rebuilt,
    /// and the carry starts afresh, only when that changes: a pipeline serves one wire).
    mutating func withPass<R>(_ frame: Frame, scale: UInt32, lastTwoSwapped: Bool = false, _ body: (Pass) -> R) -> R {
        if lastTwoSwapped != self.lastTwoSwapped {
            self.lastTwoSwapped = lastTwoSwapped
            let lanes = lastTwoSwapped ? ColourOrder(first: order.first, second: order.third, third: order.second) : order
            table = DriveTable(correction: correction, dithering: dithering, order: lanes)
            carry = []
        }
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
    /// the low bytes kept. Four LEDs a turn of the loop: the loop's own counting and
    /// pointer steps are a fifth of the instructions of one LED's, and the loop is bound by
    /// how many instructions a core issues, not by memory.
    @inline(__always)
    private static func along<Layout: LEDLayout>(
        _ first: UnsafePointer<UInt8>, stride: Int, count: Int, lanes: UnsafePointer<UInt64>,
        carry: UnsafeMutablePointer<UInt64>?, layout: Layout, out: UnsafeMutablePointer<UInt8>
    ) {
        let size = layout.size
        var p = first, o = out
        var left = count
        if Layout.looksUp, let c = carry, count >= 8, stride == 3 || stride == -3 {
            alongLate(first, forwards: stride > 0, count: count, lanes: lanes, carry: c, layout: layout, out: out)
        } else if var c = carry {
            while left >= 4 {
                led(p, lanes: lanes, carry: c, layout: layout, out: o)
                led(p + stride, lanes: lanes, carry: c + 1, layout: layout, out: o + size)
                led(p + 2 &* stride, lanes: lanes, carry: c + 2, layout: layout, out: o + 2 &* size)
                led(p + 3 &* stride, lanes: lanes, carry: c + 3, layout: layout, out: o + 3 &* size)
                c += 4
                o += 4 &* size
                p += 4 &* stride
                left &-= 4
            }
            leds(p, stride: stride, count: left, lanes: lanes, carry: c, layout: layout, out: o)
        } else {
            let red = lanes, green = lanes + 256, blue = lanes + 512
            for _ in 0..<count {
                layout.write(red[Int(p[0])] &+ green[Int(p[1])] &+ blue[Int(p[2])], at: o)
                o += size
                p += stride
            }
        }
    }

    /// `along` with dithering for a layout that looks its bytes up (`LEDLayout.looksUp`), on
    /// a run of at least 8 LEDs along a row, forwards or back: four LEDs a turn, each LED
    /// written the turn after its sum, so a pattern look-up comes long after the loads its
    /// index waits on (the pixel's bytes, its three entries and its carry) and finds them
    /// done. Written straight after its sum, an LED's look-ups wait in the core's queues
    /// behind those loads and hold up the loads after them: 1.46 against 1.62 ns an LED in a
    /// stand-alone loop of WS2812's kernel. The pixel's red and green are read as one 16-bit
    /// word (two bytes of the pixel, never past it): a load fewer for two instructions. LEDs
    /// are written in their order, as `WS2812Layout`'s spare byte needs.
    ///
    /// A function of its own, with the stride a constant: inlined into the loop over the runs,
    /// or with the stride a variable, the four sums and the mask went to the stack every turn
    /// (1.75 ns an LED, against 1.44 as it is).
    @inline(never)
    private static func alongLate<Layout: LEDLayout>(
        _ first: UnsafePointer<UInt8>, forwards: Bool, count: Int, lanes: UnsafePointer<UInt64>,
        carry: UnsafeMutablePointer<UInt64>, layout: Layout, out: UnsafeMutablePointer<UInt8>
    ) {
        if forwards {
            alongLate(first, stride: 3, count: count, lanes: lanes, carry: carry, layout: layout, out: out)
        } else {
            alongLate(first, stride: -3, count: count, lanes: lanes, carry: carry, layout: layout, out: out)
        }
    }

    @inline(__always)
    private static func alongLate<Layout: LEDLayout>(
        _ first: UnsafePointer<UInt8>, stride: Int, count: Int, lanes: UnsafePointer<UInt64>,
        carry: UnsafeMutablePointer<UInt64>, layout: Layout, out: UnsafeMutablePointer<UInt8>
    ) {
        @inline(__always)
        func sum(_ p: UnsafePointer<UInt8>, _ c: UnsafeMutablePointer<UInt64>) -> UInt64 {
            let redGreen = UInt16(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt16.self))
            let sum = lanes[Int(redGreen & 0xff)] &+ lanes[256 &+ Int(redGreen &>> 8)] &+ lanes[512 &+ Int(p[2])]
                &+ c.pointee
            c.pointee = sum & DriveTable.carryMask
            return sum
        }
        let size = layout.size
        var p = first, c = carry, o = out
        var s0 = sum(p, c), s1 = sum(p + stride, c + 1), s2 = sum(p + 2 &* stride, c + 2), s3 = sum(p + 3 &* stride, c + 3)
        p += 4 &* stride
        c += 4
        var left = count &- 4
        while left >= 4 {
            layout.write(s0, at: o)
            s0 = sum(p, c)
            layout.write(s1, at: o + size)
            s1 = sum(p + stride, c + 1)
            layout.write(s2, at: o + 2 &* size)
            s2 = sum(p + 2 &* stride, c + 2)
            layout.write(s3, at: o + 3 &* size)
            s3 = sum(p + 3 &* stride, c + 3)
            c += 4
            o += 4 &* size
            p += 4 &* stride
            left &-= 4
        }
        layout.write(s0, at: o)
        layout.write(s1, at: o + size)
        layout.write(s2, at: o + 2 &* size)
        layout.write(s3, at: o + 3 &* size)
        o += 4 &* size
        leds(p, stride: stride, count: left, lanes: lanes, carry: c, layout: layout, out: o)
    }

    /// LEDs one at a time along a run: the last few of a run a loop takes four at a time.
    @inline(__always)
    private static func leds<Layout: LEDLayout>(
        _ first: UnsafePointer<UInt8>, stride: Int, count: Int, lanes: UnsafePointer<UInt64>,
        carry: UnsafeMutablePointer<UInt64>, layout: Layout, out: UnsafeMutablePointer<UInt8>
    ) {
        var p = first, c = carry, o = out
        for _ in 0..<count {
            led(p, lanes: lanes, carry: c, layout: layout, out: o)
            c += 1
            o += layout.size
            p += stride
        }
    }

    /// One LED along a run: its pixel `p`'s sum with its carry, the carry kept, the LED written.
    @inline(__always)
    private static func led<Layout: LEDLayout>(
        _ p: UnsafePointer<UInt8>, lanes: UnsafePointer<UInt64>, carry c: UnsafeMutablePointer<UInt64>, layout: Layout,
        out o: UnsafeMutablePointer<UInt8>
    ) {
        let sum = lanes[Int(p[0])] &+ lanes[256 &+ Int(p[1])] &+ lanes[512 &+ Int(p[2])] &+ c.pointee
        c.pointee = sum & DriveTable.carryMask
        layout.write(sum, at: o)
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

    /// The red, green and blue of the map's pixel `index`, black when it has none. A pixel
    /// index i is in the frame when i * 3 + 2 < pixels.count, that is i < `inFrame`
    /// (count / 3); a negative index (no pixel) fails the same unsigned comparison.
    @inline(__always)
    static func mapped(_ index: Int32, in base: UnsafePointer<UInt8>?, inFrame: UInt32) -> (Int, Int, Int) {
        guard UInt32(bitPattern: index) < inFrame else { return (0, 0, 0) }
        let p = base.unsafelyUnwrapped + Int(index) &* 3
        return (Int(p[0]), Int(p[1]), Int(p[2]))
    }
}
