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
    /// Written only through the canvas's own calls, which mark what they change in `damage`.
    public internal(set) var pixels: [Pixel]
    /// What the calls changed since the canvas was last written out (or made).
    public internal(set) var damage: Damage
    /// What the write before the last changed in its frame, and which frame that was: see
    /// `write(into:over:resettingTo:)`.
    var written: Damage
    var writtenStamp: UInt64 = 0
    var writtenBackground = Color.black

    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        pixels = [Pixel](repeating: 0, count: self.width * self.height)
        damage = Damage(width: self.width, height: self.height)
        // Storage of its own, not `damage`'s shared: the first draw would copy it.
        written = Damage(width: self.width, height: self.height)
    }

    /// Makes every pixel transparent.
    public mutating func clear() {
        pixels.withUnsafeMutableBufferPointer { p in p.baseAddress!.update(repeating: 0, count: p.count) }
        damage.addAll()
    }

    /// Premultiplies a straight colour.
    @inlinable
    public static func premultiplied(_ c: Color, opacity: Float = 1) -> Pixel {
        // An opaque colour at full opacity is its own premultiplied value: the float path
        // gives the same bytes for every level (a test checks), after four divisions.
        if c.alpha == 255 && opacity == 1 {
            return Pixel(c.red) | Pixel(c.green) << 8 | Pixel(c.blue) << 16 | 0xFF00_0000
        }
        return pixel(ImageBitmap.premultiplied(c, opacity: opacity))
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
        return divided(t)
    }

    /// Each 16-bit lane t (a sum of products of levels plus 128) divided by 255, rounded:
    /// (t + t / 256) / 256, exact for every lane up to 255 x 255 + 128.
    @inlinable @inline(__always)
    static func divided(_ t: UInt64) -> UInt64 {
        ((t &+ ((t >> 8) & 0x00FF_00FF_00FF_00FF)) >> 8) & 0x00FF_00FF_00FF_00FF
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

    /// Source-over of an opaque colour (spread) at coverage `f / 255` (f at most 255): its
    /// alpha is then f, so each channel is (color * f + dst * (255 - f)) / 255, one product
    /// rounded once (at most 255 x 255 + 128 a lane) where `over(scale(color, by: f), dst)`
    /// rounds two and is a level off in about a quarter of cases.
    @inlinable @inline(__always)
    public static func mix(_ color: UInt64, _ dst: Pixel, factor f: UInt64) -> Pixel {
        let t = color &* f &+ spread(dst) &* (255 &- f) &+ 0x0080_0080_0080_0080
        return pack(divided(t))
    }

    /// A premultiplied colour (spread) at coverage `f / 255` on `dst`: what every paint does to
    /// a pixel. An opaque colour is mixed (`mix`); another is scaled, then composited (`over`).
    @inlinable @inline(__always)
    public static func blend(_ color: UInt64, factor f: UInt64, over dst: Pixel) -> Pixel {
        if color >> 48 == 255 { return f == 255 ? pack(color) : mix(color, dst, factor: f) }
        return over(scale(color, by: f), dst)
    }

    /// Lanes a rounding took to 256 held at 255 (with masks: `pointwiseMin` is a lane loop).
    @inline(__always)
    static func saturated(_ v: SIMD8<UInt16>) -> SIMD8<UInt16> {
        (v | (SIMD8(repeating: 0) &- (v &>> 8))) & SIMD8(repeating: 0xFF)
    }

    /// `a * b / 255`, rounded, lane by lane (both at most 255).
    @inline(__always)
    static func product(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
        divided(a &* b &+ SIMD8(repeating: 0x80))
    }

    /// `divided(_:)` lane by lane for vectors.
    @inline(__always)
    static func divided(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> { (t &+ (t &>> 8)) &>> 8 }

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

    /// `mix` of four pixels: opaque colours split into lanes as `over(even:odd:at:)` takes
    /// them (unscaled), each pixel's factor in both of its lanes, on the four pixels at `dst`.
    @inline(__always)
    static func mix(
        even: SIMD8<UInt16>, odd: SIMD8<UInt16>, factors f: SIMD8<UInt16>, at dst: UnsafeMutablePointer<Pixel>
    ) {
        let low = SIMD8<UInt16>(repeating: 0xFF), half = SIMD8<UInt16>(repeating: 0x80)
        let inverse = low &- f
        let d = UnsafeRawPointer(dst).loadUnaligned(as: SIMD8<UInt16>.self)
        let te = even &* f &+ (d & low) &* inverse &+ half, to = odd &* f &+ (d &>> 8) &* inverse &+ half
        store(divided(te) | divided(to) &<< 8, at: dst)
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
        damage.add(bounds)
        let f = Canvas.factor(opacity)
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in bounds.y0..<bounds.y1 {
                    for i in (y * width + bounds.x0)..<(y * width + bounds.x1) {
                        let p = src[i]
                        if p >> 24 == 0 { continue }
                        dst[i] = Canvas.blend(Canvas.spread(p), factor: f, over: dst[i])
                    }
                }
            }
        }
    }

    /// Source-over of another canvas of the same size at the pixels of `runs` (as
    /// `occupiedRuns` gives them).
    public mutating func composite(_ other: Canvas, runs: [Int]) {
        guard other.width == width, other.height == height else { return }
        for r in stride(from: 0, to: runs.count - 2, by: 3) {
            damage.add((runs[r + 1], runs[r], runs[r + 2], runs[r] + 1))
        }
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
        damage.add(bounds)
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
        damage.add(bounds)
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

    /// Copies another canvas of the same size.
    public mutating func copy(from other: Canvas) {
        guard other.width == width, other.height == height else { return }
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                dst.baseAddress!.update(from: src.baseAddress!, count: src.count)
            }
        }
        damage.addAll()
    }

    /// Copies the pixels of `other` inside `bounds` (within both canvases) to the same places.
    public mutating func copy(from other: Canvas, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let x0 = Swift.max(bounds.x0, 0), y0 = Swift.max(bounds.y0, 0)
        let x1 = Swift.min(bounds.x1, width, other.width), y1 = Swift.min(bounds.y1, height, other.height)
        guard x0 < x1, y0 < y1 else { return }
        damage.add((x0, y0, x1, y1))
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in y0..<y1 {
                    (dst.baseAddress! + (y * width + x0)).update(
                        from: src.baseAddress! + (y * other.width + x0), count: x1 - x0)
                }
            }
        }
    }

    /// Makes the pixels inside `bounds` transparent.
    public mutating func clear(_ bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard bounds.x0 < bounds.x1 else { return }
        damage.add(bounds)
        pixels.withUnsafeMutableBufferPointer { p in
            for y in bounds.y0..<bounds.y1 {
                (p.baseAddress! + y * width + bounds.x0).update(repeating: 0, count: bounds.x1 - bounds.x0)
            }
        }
    }

    /// Multiplies the pixels inside `bounds` by a coverage function of the pixel centre (a
    /// rounded layer's clip).
    public mutating func scale(by coverage: (Double, Double) -> Float, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int))
    {
        damage.add(bounds)
        for y in bounds.y0..<bounds.y1 {
            for x in bounds.x0..<bounds.x1 {
                let f = Canvas.factor(coverage(Double(x) + 0.5, Double(y) + 0.5))
                pixels[y * width + x] = Canvas.pack(Canvas.scale(Canvas.spread(pixels[y * width + x]), by: f))
            }
        }
    }
}
