/// The surface layers are composited on: premultiplied RGBA in 16-bit fixed point (1.0 is
/// 2^15: about 128 steps to each of the output's 8-bit levels, so several layers composite
/// without losing a level), in the sRGB-encoded space (as Core Animation composites), rows
/// top to bottom. Half the bytes of floating point, and integer arithmetic throughout.
public struct Canvas: Sendable {
    /// Premultiplied (r, g, b, a), each 0...`Canvas.one`.
    public typealias Pixel = SIMD4<UInt16>
    /// 1.0 in a channel.
    public static let one: UInt32 = 32768
    public let width: Int
    public let height: Int
    public var pixels: [Pixel]

    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        pixels = [Pixel](repeating: .zero, count: self.width * self.height)
    }

    /// Makes every pixel transparent.
    public mutating func clear() {
        pixels.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.update(repeating: .zero, count: p.count)
        }
    }

    /// Premultiplies a straight colour.
    @inlinable
    public static func premultiplied(_ c: Color, opacity: Float = 1) -> Pixel {
        pixel(ImageBitmap.premultiplied(c, opacity: opacity))
    }

    /// A premultiplied pixel in 0...1 (an image's, a gradient's) in fixed point, rounded to
    /// nearest: v * 2^15 + 2^23 holds it in the low bits of its bit pattern, no checked
    /// conversion (a value out of range cannot trap; it is clamped).
    @inlinable @inline(__always)
    public static func pixel(_ unit: SIMD4<Float>) -> Pixel {
        let q = unsafeBitCast(unit * Float(one) + SIMD4(repeating: 8_388_608), to: SIMD4<UInt32>.self)
        let v = q & SIMD4(repeating: 0x7F_FFFF)
        return Pixel(truncatingIfNeeded: v.replacing(with: SIMD4(repeating: one), where: v .> SIMD4(repeating: one)))
    }

    /// A coverage in 0...1 in fixed point (0...2^15), rounded; out of range is clamped.
    @inlinable @inline(__always)
    public static func fixed(_ coverage: Float) -> UInt32 {
        Swift.min((coverage * Float(one) + 8_388_608).bitPattern & 0x7F_FFFF, one)
    }

    /// An 8-bit coverage (a mask's) in fixed point, rounded.
    @inlinable @inline(__always)
    public static func fixed(coverage m: UInt8) -> UInt32 { (UInt32(m) &* one &+ 127) / 255 }

    /// `a * b / 2^15`, rounded, per channel (both at most 2^15).
    @inlinable @inline(__always)
    public static func scale(_ a: SIMD4<UInt32>, by b: UInt32) -> SIMD4<UInt32> {
        (a &* b &+ 16384) &>> 15
    }

    /// Premultiplied source-over of `src` on `dst`, both in fixed point.
    @inlinable @inline(__always)
    public static func over(_ src: SIMD4<UInt32>, _ dst: Pixel) -> Pixel {
        Pixel(truncatingIfNeeded: src &+ scale(SIMD4<UInt32>(truncatingIfNeeded: dst), by: one &- src.w))
    }

    /// Source-over of another canvas of the same size, scaled by `opacity`, within the rows
    /// and columns of `bounds`; transparent source pixels are skipped.
    public mutating func composite(_ other: Canvas, opacity: Float, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard other.width == width, other.height == height, bounds.x0 < bounds.x1 else { return }
        let o = Canvas.fixed(opacity)
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in bounds.y0..<bounds.y1 {
                    for i in (y * width + bounds.x0)..<(y * width + bounds.x1) {
                        let a = UInt32(src[i].w)
                        if a == 0 { continue }
                        if a == Canvas.one && o == Canvas.one {
                            dst[i] = src[i]
                            continue
                        }
                        dst[i] = Canvas.over(Canvas.scale(SIMD4<UInt32>(truncatingIfNeeded: src[i]), by: o), dst[i])
                    }
                }
            }
        }
    }

    /// Source-over of another canvas of the same size at the pixels of `runs` (as
    /// `occupiedRuns` gives them), without a branch per pixel.
    public mutating func composite(_ other: Canvas, runs: [Int]) {
        guard other.width == width, other.height == height else { return }
        let canvasWidth = width
        runs.withUnsafeBufferPointer { runs in
            other.pixels.withUnsafeBufferPointer { src in
                pixels.withUnsafeMutableBufferPointer { dst in
                    for r in stride(from: 0, to: runs.count - 2, by: 3) {
                        let row = runs[r] &* canvasWidth
                        for i in (row &+ runs[r + 1])..<(row &+ runs[r + 2]) {
                            // An opaque source replaces the pixel exactly: dst * 0 adds nothing.
                            dst[i] = Canvas.over(SIMD4<UInt32>(truncatingIfNeeded: src[i]), dst[i])
                        }
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
                guard pixels[y * width + x].w != 0 else {
                    x += 1
                    continue
                }
                let start = x
                while x < bounds.x1 && pixels[y * width + x].w != 0 { x += 1 }
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
                        p[i] = Pixel(
                            truncatingIfNeeded: Canvas.scale(
                                SIMD4<UInt32>(truncatingIfNeeded: p[i]), by: UInt32(m[i].w)))
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
                        (p.baseAddress! + row + bounds.x0).update(repeating: .zero, count: bounds.x1 - bounds.x0)
                        continue
                    }
                    (p.baseAddress! + row + bounds.x0).update(repeating: .zero, count: inner.x0 - bounds.x0)
                    (p.baseAddress! + row + inner.x1).update(repeating: .zero, count: bounds.x1 - inner.x1)
                    let source = m.baseAddress! + ((y &- mask.y0) &* mask.width &- mask.x0)
                    for x in inner.x0..<inner.x1 {
                        p[row &+ x] = Pixel(
                            truncatingIfNeeded: Canvas.scale(
                                SIMD4<UInt32>(truncatingIfNeeded: p[row &+ x]), by: Canvas.fixed(coverage: source[x])))
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

    /// Converts `src` into `frame`; with `reset`, also sets each of its pixels, once read, to
    /// `seed`'s or to transparent.
    private static func convert(
        _ src: UnsafeBufferPointer<Pixel>, into frame: inout Frame, over background: Color,
        reset: UnsafeMutableBufferPointer<Pixel>?, to seed: UnsafeBufferPointer<Pixel>?
    ) {
        let bg = SIMD4<UInt32>(
            truncatingIfNeeded: Canvas.premultiplied(
                Color(red: background.red, green: background.green, blue: background.blue)))
        let black = background.red == 0 && background.green == 0 && background.blue == 0
        let out = reset.map { UnsafeMutableRawPointer($0.baseAddress!) }
        let fill = seed.map { UnsafeRawPointer($0.baseAddress!) }
        let stride = MemoryLayout<Pixel>.stride
        /// Resets the `count` pixels from `i` (already read).
        @inline(__always) func resetPixels(_ i: Int, _ count: Int) {
            guard let out else { return }
            if let fill {
                out.advanced(by: i &* stride).copyMemory(
                    from: fill.advanced(by: i &* stride), byteCount: count &* stride)
            } else {
                out.advanced(by: i &* stride).initializeMemory(as: UInt16.self, repeating: 0, count: count &* 4)
            }
        }
        frame.pixels.withUnsafeMutableBytes { dst in
            let n = Swift.min(src.count, frame.width * frame.height)
            guard n > 0, let s = src.baseAddress, let d = dst.baseAddress else { return }
            // Each pixel is stored as four bytes at 3 * i (one unaligned store); the fourth
            // is overwritten by the next pixel, so the last one is written byte by byte.
            var i = 0
            if black {
                // Four pixels at a time: sixteen lanes scaled to 8 bits, four stores.
                let raw = UnsafeRawPointer(s)
                while i &+ 4 < n {
                    let q = SIMD16<UInt32>(
                        truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i &* stride, as: SIMD16<UInt16>.self))
                    resetPixels(i, 4)
                    let bytes = SIMD16<UInt8>(truncatingIfNeeded: (q &* 255 &+ 16384) &>> 15)
                    let words = unsafeBitCast(bytes, to: SIMD4<UInt32>.self)
                    let o = i &* 3
                    d.storeBytes(of: words[0], toByteOffset: o, as: UInt32.self)
                    d.storeBytes(of: words[1], toByteOffset: o &+ 3, as: UInt32.self)
                    d.storeBytes(of: words[2], toByteOffset: o &+ 6, as: UInt32.self)
                    d.storeBytes(of: words[3], toByteOffset: o &+ 9, as: UInt32.self)
                    i &+= 4
                }
            }
            @inline(__always) func opaque(_ p: Pixel) -> UInt32 {
                let v = SIMD4<UInt32>(truncatingIfNeeded: p)
                return Canvas.rgbx(black ? v : v &+ Canvas.scale(bg, by: Canvas.one &- v.w))
            }
            while i < n - 1 {
                let p = opaque(s[i])
                resetPixels(i, 1)
                d.storeBytes(of: p, toByteOffset: i * 3, as: UInt32.self)
                i += 1
            }
            let last = opaque(s[n - 1])
            resetPixels(n - 1, src.count - (n - 1))
            for k in 0..<3 {
                d.storeBytes(
                    of: UInt8(truncatingIfNeeded: last >> (8 * k)), toByteOffset: (n - 1) * 3 + k, as: UInt8.self)
            }
        }
    }

    /// A fixed-point pixel within 0...1 as 8-bit R, G, B, A in one little-endian word, rounded.
    @inlinable @inline(__always)
    static func rgbx(_ p: SIMD4<UInt32>) -> UInt32 {
        unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: (p &* 255 &+ 16384) &>> 15), to: UInt32.self)
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
                (p.baseAddress! + y * width + bounds.x0).update(repeating: .zero, count: bounds.x1 - bounds.x0)
            }
        }
    }
}
