/// The surface layers are composited on: premultiplied RGBA, 8 bits a channel in one
/// 32-bit word (r in the low byte, then g, b, a), in the sRGB-encoded space (as Core
/// Animation composites), rows top to bottom. Arithmetic keeps 16-bit intermediates: a
/// pixel is spread into four 16-bit lanes of a 64-bit word, so one multiply scales all four
/// channels (pixman's way, in plain integers that compile to the same on x86 and aarch64).
public struct Canvas: Sendable {
    /// Premultiplied r | g << 8 | b << 16 | a << 24.
    public typealias Pixel = UInt32
    public let width: Int
    public let height: Int
    public var pixels: [Pixel]

    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        pixels = [Pixel](repeating: 0, count: self.width * self.height)
    }

    /// Makes every pixel transparent.
    public mutating func clear() {
        pixels.withUnsafeMutableBufferPointer { p in p.baseAddress!.update(repeating: 0, count: p.count) }
    }

    /// Premultiplies a straight colour.
    @inlinable
    public static func premultiplied(_ c: Color, opacity: Float = 1) -> Pixel {
        pixel(ImageBitmap.premultiplied(c, opacity: opacity))
    }

    /// A premultiplied pixel in 0...1 (an image's, a gradient's), each channel rounded to
    /// nearest: v * 255 + 2^23 holds it in the low bits of its bit pattern, so no checked
    /// conversion can trap on a value out of range.
    @inlinable @inline(__always)
    public static func pixel(_ unit: SIMD4<Float>) -> Pixel {
        let q = unsafeBitCast(unit * 255 + SIMD4(repeating: 8_388_608), to: SIMD4<UInt32>.self)
        let v = (q & SIMD4(repeating: 0x7F_FFFF)).replacing(with: 255, where: q & SIMD4(repeating: 0x7F_FFFF) .> 255)
        return v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24
    }

    /// The channels of `p` in 16-bit lanes: r, b, g, a from the low lane up.
    @inlinable @inline(__always)
    public static func spread(_ p: Pixel) -> UInt64 {
        let x = UInt64(p)
        return (x | x << 24) & 0x00FF_00FF_00FF_00FF
    }

    /// The inverse of `spread` (lanes at most 255).
    @inlinable @inline(__always)
    public static func pack(_ s: UInt64) -> Pixel { Pixel(truncatingIfNeeded: s | s >> 24) }

    /// A coverage in 0...1 as a factor of 0...255, rounded; out of range is clamped.
    @inlinable @inline(__always)
    public static func factor(_ coverage: Float) -> UInt64 { UInt64(rounded(coverage * 255, atMost: 255)) }

    /// A sampling weight in 0...1 in 1/256 steps, rounded; out of range (or not a number,
    /// from a position no board reaches) is clamped, never trapped on.
    @inlinable @inline(__always)
    public static func steps(_ w: Float) -> UInt64 { UInt64(rounded(w * 256, atMost: 256)) }

    /// `v` rounded to nearest and clamped to 0...`limit` (at most 2^23): v + 2^23 holds it in
    /// the low bits of its bit pattern, so no checked conversion can trap on any value.
    @inlinable @inline(__always)
    public static func rounded(_ v: Float, atMost limit: UInt32) -> UInt32 {
        Swift.min((v + 8_388_608).bitPattern & 0x7F_FFFF, limit)
    }

    /// Spread channels times `f / 255` (f at most 255), rounded to nearest: with t = s * f +
    /// 128, (t + t / 256) / 256 is exact, and no lane passes 16 bits.
    @inlinable @inline(__always)
    public static func scale(_ s: UInt64, by f: UInt64) -> UInt64 {
        let t = s &* f &+ 0x0080_0080_0080_0080
        return ((t &+ ((t >> 8) & 0x00FF_00FF_00FF_00FF)) >> 8) & 0x00FF_00FF_00FF_00FF
    }

    /// `a * b / 255`, rounded, for two factors.
    @inlinable @inline(__always)
    public static func product(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let t = a &* b &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// Premultiplied source-over of spread `src` on `dst`. A source channel may pass its
    /// alpha by a rounding (a resampled image's), so a lane that reaches 256 is held at 255.
    @inlinable @inline(__always)
    public static func over(_ src: UInt64, _ dst: Pixel) -> Pixel {
        let sum = src &+ scale(spread(dst), by: 255 &- (src >> 48))
        return pack(sum | ((sum >> 8) & 0x0001_0001_0001_0001) &* 0xFF)
    }

    /// Lanes a rounding took to 256 held at 255 (with masks: `pointwiseMin` is a lane loop).
    @inline(__always)
    static func saturated(_ v: SIMD8<UInt16>) -> SIMD8<UInt16> {
        (v | (SIMD8(repeating: 0) &- (v &>> 8))) & SIMD8(repeating: 0xFF)
    }

    /// `a * b / 255`, rounded, lane by lane (both at most 255).
    @inline(__always)
    static func product(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = a &* b &+ SIMD8(repeating: 0x80)
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Source-over of four pixels, their channels split into 16-bit lanes by masks and shifts
    /// (`even`: r, b of each pixel; `odd`: g, a), on the four pixels at `dst`: `over(_:_:)`
    /// four at a time (never by lane conversions, so it compiles to plain SIMD on x86 and
    /// aarch64).
    @inline(__always)
    static func over(even: SIMD8<UInt16>, odd: SIMD8<UInt16>, at dst: UnsafeMutablePointer<Pixel>) {
        let low = SIMD8<UInt16>(repeating: 0xFF)
        // Each pixel's alpha in both of its lanes: (a, a) per 32-bit word.
        let alpha = unsafeBitCast(odd, to: SIMD4<UInt32>.self) &>> 16
        let inverse = low &- unsafeBitCast(alpha | alpha &<< 16, to: SIMD8<UInt16>.self)
        let d = UnsafeRawPointer(dst).loadUnaligned(as: SIMD8<UInt16>.self)
        let e = saturated(even &+ product(d & low, inverse)), o = saturated(odd &+ product(d &>> 8, inverse))
        store(e | o &<< 8, at: dst)
    }

    /// Stores four pixels' lanes at `p`, which is aligned for a pixel, not for a vector: as
    /// two 64-bit words (a vector store that assumes alignment would fault there).
    @inline(__always)
    static func store(_ lanes: SIMD8<UInt16>, at p: UnsafeMutablePointer<Pixel>) {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        let raw = UnsafeMutableRawPointer(p)
        raw.storeBytes(of: words[0], as: UInt64.self)
        raw.storeBytes(of: words[1], toByteOffset: 8, as: UInt64.self)
    }

    /// Source-over of `count` pixels from `src` on as many at `dst`, four at a time.
    @inline(__always)
    static func over(_ src: UnsafePointer<Pixel>, _ dst: UnsafeMutablePointer<Pixel>, count: Int) {
        var k = 0
        let low = SIMD8<UInt16>(repeating: 0xFF)
        while k &+ 4 <= count {
            let s = UnsafeRawPointer(src + k).loadUnaligned(as: SIMD8<UInt16>.self)
            over(even: s & low, odd: s &>> 8, at: dst + k)
            k &+= 4
        }
        while k < count {
            dst[k] = over(spread(src[k]), dst[k])
            k &+= 1
        }
    }

    /// Source-over of another canvas of the same size, scaled by `opacity`, within the rows
    /// and columns of `bounds`; transparent source pixels are skipped.
    public mutating func composite(_ other: Canvas, opacity: Float, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard other.width == width, other.height == height, bounds.x0 < bounds.x1 else { return }
        let f = Canvas.factor(opacity)
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in bounds.y0..<bounds.y1 {
                    for i in (y * width + bounds.x0)..<(y * width + bounds.x1) {
                        let p = src[i]
                        if p >> 24 == 0 { continue }
                        if p >> 24 == 255 && f == 255 {
                            dst[i] = p
                            continue
                        }
                        dst[i] = Canvas.over(Canvas.scale(Canvas.spread(p), by: f), dst[i])
                    }
                }
            }
        }
    }

    /// Source-over of another canvas of the same size at the pixels of `runs` (as
    /// `occupiedRuns` gives them).
    public mutating func composite(_ other: Canvas, runs: [Int]) {
        guard other.width == width, other.height == height else { return }
        let canvasWidth = width
        runs.withUnsafeBufferPointer { runs in
            other.pixels.withUnsafeBufferPointer { src in
                pixels.withUnsafeMutableBufferPointer { dst in
                    for r in stride(from: 0, to: runs.count - 2, by: 3) {
                        let start = runs[r] &* canvasWidth &+ runs[r + 1]
                        Canvas.over(
                            src.baseAddress! + start, dst.baseAddress! + start, count: runs[r + 2] &- runs[r + 1])
                    }
                }
            }
        }
    }

    /// The runs of non-transparent pixels inside `bounds`, row by row: (row, first column,
    /// end column) triples, flattened. What compositing a kept canvas has to visit.
    public func occupiedRuns(within bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) -> [Int] {
        var runs: [Int] = []
        occupiedRuns(within: bounds, into: &runs)
        return runs
    }

    /// The same runs written into `runs`, whose storage is kept and reused.
    public func occupiedRuns(within bounds: (x0: Int, y0: Int, x1: Int, y1: Int), into runs: inout [Int]) {
        runs.removeAll(keepingCapacity: true)
        for y in bounds.y0..<bounds.y1 {
            var x = bounds.x0
            while x < bounds.x1 {
                guard pixels[y * width + x] >> 24 != 0 else {
                    x += 1
                    continue
                }
                let start = x
                while x < bounds.x1 && pixels[y * width + x] >> 24 != 0 { x += 1 }
                runs.append(y)
                runs.append(start)
                runs.append(x)
            }
        }
    }

    /// Multiplies pixels inside `bounds` by the alpha of `mask` (a layer's `mask`); what lies
    /// outside is left alone (callers composite only `bounds`).
    public mutating func apply(mask: Canvas, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard mask.width == width, mask.height == height else { return }
        mask.pixels.withUnsafeBufferPointer { m in
            pixels.withUnsafeMutableBufferPointer { p in
                for y in bounds.y0..<bounds.y1 {
                    for i in (y * width + bounds.x0)..<(y * width + bounds.x1) {
                        let f = UInt64(m[i] >> 24)
                        p[i] = Canvas.pack(Canvas.scale(Canvas.spread(p[i]), by: f))
                    }
                }
            }
        }
    }

    /// Multiplies pixels inside `bounds` by `mask`'s coverage (a layer's static mask); where the
    /// mask does not reach they become transparent. What lies outside `bounds` is left alone.
    public mutating func apply(mask: CoverageMask, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard bounds.x0 < bounds.x1, bounds.y0 < bounds.y1 else { return }
        let inner = mask.clip(bounds), w = width
        mask.coverage.withUnsafeBufferPointer { m in
            pixels.withUnsafeMutableBufferPointer { p in
                for y in bounds.y0..<bounds.y1 {
                    let row = y &* w
                    guard y >= inner.y0, y < inner.y1, inner.x0 < inner.x1 else {
                        (p.baseAddress! + row + bounds.x0).update(repeating: 0, count: bounds.x1 - bounds.x0)
                        continue
                    }
                    (p.baseAddress! + row + bounds.x0).update(repeating: 0, count: inner.x0 - bounds.x0)
                    (p.baseAddress! + row + inner.x1).update(repeating: 0, count: bounds.x1 - inner.x1)
                    let source = m.baseAddress! + ((y &- mask.y0) &* mask.width &- mask.x0)
                    for x in inner.x0..<inner.x1 {
                        let f = UInt64(source[x])
                        p[row &+ x] = Canvas.pack(Canvas.scale(Canvas.spread(p[row &+ x]), by: f))
                    }
                }
            }
        }
    }

    /// The canvas over an opaque background, as an RGB888 frame (written in place).
    public func write(into frame: inout Frame, over background: Color) {
        pixels.withUnsafeBufferPointer { src in
            Canvas.convert(src, into: &frame, over: background, reset: nil, to: nil)
        }
    }

    /// Writes the canvas into `frame` as `write(into:over:)` does and resets each pixel as it
    /// goes, to `next`'s (a canvas of the same size) or to transparent: one pass where a
    /// conversion now and a copy or clear when the next frame starts would make two.
    public mutating func write(into frame: inout Frame, over background: Color, resettingTo next: Canvas?) {
        precondition(next.map { $0.width == width && $0.height == height } ?? true, "the next canvas's size differs")
        pixels.withUnsafeMutableBufferPointer { board in
            if let next {
                next.pixels.withUnsafeBufferPointer { seed in
                    Canvas.convert(UnsafeBufferPointer(board), into: &frame, over: background, reset: board, to: seed)
                }
            } else {
                Canvas.convert(UnsafeBufferPointer(board), into: &frame, over: background, reset: board, to: nil)
            }
        }
    }

    /// Converts `src` into `frame` a row at a time; with `reset`, then sets the row's pixels
    /// to `seed`'s or to transparent.
    private static func convert(
        _ src: UnsafeBufferPointer<Pixel>, into frame: inout Frame, over background: Color,
        reset: UnsafeMutableBufferPointer<Pixel>?, to seed: UnsafeBufferPointer<Pixel>?
    ) {
        let bg = premultiplied(Color(red: background.red, green: background.green, blue: background.blue))
        let black = background.red == 0 && background.green == 0 && background.blue == 0
        frame.pixels.withUnsafeMutableBytes { dst in
            let n = Swift.min(src.count, frame.width * frame.height)
            guard n > 0, let s = src.baseAddress, let d = dst.baseAddress else { return }
            @inline(__always) func opaque(_ p: Pixel) -> Pixel { black ? p : over(spread(p), bg) }
            // Four pixels make three words of R, G, B bytes: three stores, none overlapping.
            var i = 0
            while i &+ 4 <= n {
                let p0 = opaque(s[i]), p1 = opaque(s[i &+ 1]), p2 = opaque(s[i &+ 2]), p3 = opaque(s[i &+ 3])
                let o = i &* 3
                d.storeBytes(of: (p0 & 0xFF_FFFF) | p1 << 24, toByteOffset: o, as: UInt32.self)
                d.storeBytes(of: (p1 >> 8 & 0xFFFF) | p2 << 16, toByteOffset: o &+ 4, as: UInt32.self)
                d.storeBytes(of: (p2 >> 16 & 0xFF) | p3 << 8, toByteOffset: o &+ 8, as: UInt32.self)
                i &+= 4
            }
            // The rest as four bytes at 3 * i (the fourth overwritten by the next pixel), the
            // last byte by byte.
            while i < n - 1 {
                d.storeBytes(of: opaque(s[i]), toByteOffset: i &* 3, as: UInt32.self)
                i &+= 1
            }
            let last = opaque(s[n - 1])
            for k in 0..<3 {
                d.storeBytes(
                    of: UInt8(truncatingIfNeeded: last >> (8 * k)), toByteOffset: (n - 1) * 3 + k, as: UInt8.self)
            }
        }
        guard let reset else { return }
        if let seed {
            reset.baseAddress!.update(from: seed.baseAddress!, count: Swift.min(reset.count, seed.count))
        } else {
            reset.baseAddress!.update(repeating: 0, count: reset.count)
        }
    }

    /// Copies another canvas of the same size.
    public mutating func copy(from other: Canvas) {
        guard other.width == width, other.height == height else { return }
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                dst.baseAddress!.update(from: src.baseAddress!, count: src.count)
            }
        }
    }

    /// Makes the pixels inside `bounds` transparent.
    public mutating func clear(_ bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard bounds.x0 < bounds.x1 else { return }
        pixels.withUnsafeMutableBufferPointer { p in
            for y in bounds.y0..<bounds.y1 {
                (p.baseAddress! + y * width + bounds.x0).update(repeating: 0, count: bounds.x1 - bounds.x0)
            }
        }
    }
}
