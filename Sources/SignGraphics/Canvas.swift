/// The surface layers are composited on: premultiplied RGBA in floating point, in the
/// sRGB-encoded space (as Core Animation composites), rows top to bottom.
public struct Canvas: Sendable {
    public typealias Pixel = SIMD4<Float>
    public let width: Int
    public let height: Int
    /// Premultiplied (r, g, b, a), each 0...1.
    public var pixels: [Pixel]

    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        pixels = [Pixel](repeating: .zero, count: self.width * self.height)
    }

    /// Makes every pixel transparent.
    public mutating func clear() {
        pixels.withUnsafeMutableBufferPointer { p in
            for i in p.indices { p[i] = .zero }
        }
    }

    /// Premultiplies a straight colour.
    @inlinable
    public static func premultiplied(_ c: Color, opacity: Float = 1) -> Pixel {
        let a = Float(c.alpha) / 255 * opacity
        return Pixel(Float(c.red) / 255 * a, Float(c.green) / 255 * a, Float(c.blue) / 255 * a, a)
    }

    /// Source-over of another canvas of the same size, scaled by `opacity`, within the rows
    /// and columns of `bounds`; transparent source pixels are skipped.
    public mutating func composite(_ other: Canvas, opacity: Float, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard other.width == width, other.height == height, bounds.x0 < bounds.x1 else { return }
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in bounds.y0..<bounds.y1 {
                    for i in (y * width + bounds.x0)..<(y * width + bounds.x1) {
                        let a = src[i].w
                        if a == 0 { continue }
                        if a == 1 && opacity == 1 {
                            dst[i] = src[i]
                            continue
                        }
                        let s = src[i] * opacity
                        dst[i] = s + dst[i] * (1 - s.w)
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
                            dst[i] = src[i] + dst[i] * (1 - src[i].w)
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
                guard pixels[y * width + x].w > 0 else {
                    x += 1
                    continue
                }
                let start = x
                while x < bounds.x1 && pixels[y * width + x].w > 0 { x += 1 }
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
                    for i in (y * width + bounds.x0)..<(y * width + bounds.x1) { p[i] *= m[i].w }
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
                    for x in inner.x0..<inner.x1 { p[row &+ x] *= Float(source[x]) * (1 / 255) }
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
        let bg = Canvas.premultiplied(Color(red: background.red, green: background.green, blue: background.blue))
        let black = background.red == 0 && background.green == 0 && background.blue == 0
        let out = reset.map { UnsafeMutableRawPointer($0.baseAddress!) }
        let fill = seed.map { UnsafeRawPointer($0.baseAddress!) }
        /// Resets the `count` pixels from `i` (already read).
        @inline(__always) func resetPixels(_ i: Int, _ count: Int) {
            guard let out else { return }
            if count == 4 {
                let four = fill?.loadUnaligned(fromByteOffset: i &* 16, as: SIMD16<Float>.self) ?? .zero
                out.storeBytes(of: four, toByteOffset: i &* 16, as: SIMD16<Float>.self)
            } else if let fill {
                out.advanced(by: i &* 16).copyMemory(from: fill.advanced(by: i &* 16), byteCount: count &* 16)
            } else {
                out.advanced(by: i &* 16).initializeMemory(as: Float.self, repeating: 0, count: count &* 4)
            }
        }
        frame.pixels.withUnsafeMutableBytes { dst in
            let n = Swift.min(src.count, frame.width * frame.height)
            guard n > 0, let s = src.baseAddress, let d = dst.baseAddress else { return }
            // Each pixel is stored as four bytes at 3 * i (one unaligned store); the fourth
            // is overwritten by the next pixel, so the last one is written byte by byte.
            var i = 0
            if black {
                // Four pixels at a time: one conversion of sixteen lanes, four stores.
                let raw = UnsafeRawPointer(s)
                let scale = SIMD16<Float>(repeating: 255), magic = SIMD16<Float>(repeating: 8_388_608)
                while i &+ 4 < n {
                    let q = raw.loadUnaligned(fromByteOffset: i &* 16, as: SIMD16<Float>.self) * scale + magic
                    resetPixels(i, 4)
                    let bytes = SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(q, to: SIMD16<UInt32>.self))
                    let words = unsafeBitCast(bytes, to: SIMD4<UInt32>.self)
                    let o = i &* 3
                    d.storeBytes(of: words[0], toByteOffset: o, as: UInt32.self)
                    d.storeBytes(of: words[1], toByteOffset: o &+ 3, as: UInt32.self)
                    d.storeBytes(of: words[2], toByteOffset: o &+ 6, as: UInt32.self)
                    d.storeBytes(of: words[3], toByteOffset: o &+ 9, as: UInt32.self)
                    i &+= 4
                }
            }
            while i < n - 1 {
                let p = black ? s[i] : s[i] + bg * (1 - s[i].w)
                resetPixels(i, 1)
                d.storeBytes(of: Canvas.rgbx(p), toByteOffset: i * 3, as: UInt32.self)
                i += 1
            }
            let last = Canvas.rgbx(black ? s[n - 1] : s[n - 1] + bg * (1 - s[n - 1].w))
            resetPixels(n - 1, src.count - (n - 1))
            for k in 0..<3 {
                d.storeBytes(
                    of: UInt8(truncatingIfNeeded: last >> (8 * k)), toByteOffset: (n - 1) * 3 + k, as: UInt8.self)
            }
        }
    }

    /// A premultiplied pixel within [0, 1] as 8-bit R, G, B, A in one little-endian word.
    /// v * 255 + 2^23 holds the nearest 0...255 in the low byte of its bit pattern: no clamps,
    /// no checked conversions, four lanes at once.
    @inlinable @inline(__always)
    static func rgbx(_ p: Pixel) -> UInt32 {
        let q = unsafeBitCast(p * 255 + Pixel(repeating: 8_388_608), to: SIMD4<UInt32>.self)
        let bytes = SIMD4<UInt8>(truncatingIfNeeded: q)
        return unsafeBitCast(bytes, to: UInt32.self)
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
