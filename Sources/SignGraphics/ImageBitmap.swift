/// A decoded image (from PNG), premultiplied, ready to be drawn or used as a mask.
public struct ImageBitmap: Sendable, Equatable {
    /// Premultiplied (r, g, b, a), each 0...1.
    public typealias Pixel = SIMD4<Float>
    public let width: Int
    public let height: Int
    /// Premultiplied RGBA, 0...1, rows top to bottom.
    public let pixels: [ImageBitmap.Pixel]
    /// The same in the canvas's 8 bits a channel, for drawing.
    public let packed: [Canvas.Pixel]
    /// Rows outside these are transparent in `packed`: a rich line's empty rows above and
    /// below its glyphs, which a drawing then neither paints nor marks changed.
    public let inkedRows: Range<Int>

    /// From straight (non-premultiplied) 8-bit RGBA, as PNG stores it.
    public init(width: Int, height: Int, straightRGBA: [UInt8]) {
        precondition(straightRGBA.count == width * height * 4, "RGBA byte count does not match the size")
        self.width = width
        self.height = height
        pixels = (0..<(width * height)).map { i in
            let a = Float(straightRGBA[i * 4 + 3]) / 255
            return ImageBitmap.Pixel(
                Float(straightRGBA[i * 4]) / 255 * a, Float(straightRGBA[i * 4 + 1]) / 255 * a,
                Float(straightRGBA[i * 4 + 2]) / 255 * a, a)
        }
        packed = pixels.map(Canvas.pixel)
        inkedRows = StripSampler.inkedRows(of: packed, width: width, height: height)
    }

    /// Premultiplies a straight colour.
    @inlinable
    public static func premultiplied(_ c: Color, opacity: Float = 1) -> Pixel {
        let a = Float(c.alpha) / 255 * opacity
        return Pixel(Float(c.red) / 255 * a, Float(c.green) / 255 * a, Float(c.blue) / 255 * a, a)
    }

    /// From premultiplied pixels.
    public init(width: Int, height: Int, premultiplied: [ImageBitmap.Pixel]) {
        precondition(premultiplied.count == width * height, "pixel count does not match the size")
        self.width = width
        self.height = height
        pixels = premultiplied
        packed = premultiplied.map(Canvas.pixel)
        inkedRows = StripSampler.inkedRows(of: packed, width: width, height: height)
    }

    /// Shrunk (or grown) by `factor`, each new pixel the area average of the old ones it
    /// covers, so small emoji stay legible rather than aliased.
    public func scaled(by factor: Double) -> ImageBitmap {
        guard factor != 1, factor > 0 else { return self }
        let w = max(1, Int((Double(width) * factor).rounded())), h = max(1, Int((Double(height) * factor).rounded()))
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        var out = [ImageBitmap.Pixel](repeating: .zero, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = ImageBitmap.Pixel.zero
                var area: Float = 0
                let x0 = Double(x) * sx, x1 = x0 + sx, y0 = Double(y) * sy, y1 = y0 + sy
                for v in Int(y0)..<min(height, Int(y1.rounded(.up))) {
                    let wy = Float(Canvas.overlap(v, y0, y1))
                    for u in Int(x0)..<min(width, Int(x1.rounded(.up))) {
                        let weight = wy * Float(Canvas.overlap(u, x0, x1))
                        sum += pixels[v * width + u] * weight
                        area += weight
                    }
                }
                out[y * w + x] = area > 0 ? sum / area : .zero
            }
        }
        return ImageBitmap(width: w, height: h, premultiplied: out)
    }

    /// How an image is resampled to the layer's size.
    public enum Scaling: String, Sendable, Hashable, CaseIterable {
        /// Each pixel takes the nearest texel: crisp pixel art.
        case nearest
        /// Bilinear: smooth.
        case linear
    }
}

extension Canvas {
    /// Draws `image` stretched over `rect` (its contents gravity is "resize"), clipped to
    /// `clip`, scaled by `opacity` and by `mask`.
    public mutating func draw(
        _ image: ImageBitmap, in rect: Rect, scaling: ImageBitmap.Scaling, opacity: Float, clip: Rect,
        mask: CoverageMask? = nil
    ) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        let area = rect.intersection(clip)
        let sx = Double(image.width) / rect.width, sy = Double(image.height) / rect.height
        image.pixels.withUnsafeBufferPointer { src in
            func texel(_ x: Int, _ y: Int) -> ImageBitmap.Pixel {
                src[min(max(y, 0), image.height - 1) * image.width + min(max(x, 0), image.width - 1)]
            }
            paint(within: area.pixelBounds(clippedTo: width, height), mask: mask) { blitter, b in
                for y in b.y0..<b.y1 {
                    let v = (Double(y) + 0.5 - rect.minY) * sy - 0.5
                    let cy = Float(Canvas.overlap(y, area.minY, area.maxY))
                    let line = blitter.row(y)
                    for x in b.x0..<b.x1 {
                        let u = (Double(x) + 0.5 - rect.minX) * sx - 0.5
                        let c = cy * Float(Canvas.overlap(x, area.minX, area.maxX))
                        guard c > 0 else { continue }
                        let p: ImageBitmap.Pixel
                        switch scaling {
                        case .nearest:
                            p = texel(Int(pixel: u + 0.5, .down), Int(pixel: v + 0.5, .down))
                        case .linear:
                            let x0 = Int(pixel: u, .down), y0 = Int(pixel: v, .down)
                            let fx = Float(u - Double(x0)), fy = Float(v - Double(y0))
                            let top = texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx
                            let bottom = texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx
                            p = top * (1 - fy) + bottom * fy
                        }
                        line.blend(Canvas.spread(Canvas.pixel(p)), coverage: opacity * c, at: x)
                    }
                }
            }
        }
    }
}

extension Canvas {
    /// Draws `image` at its own size at a fractional position: `smooth` box-filters the
    /// sub-pixel offset, otherwise it is floored; with `tilePeriod` copies repeat sideways.
    /// How rich text (colour spans, emoji, icons) moves like plain text.
    public mutating func draw(
        _ image: ImageBitmap, at origin: Point, opacity: Float, smooth: Bool, tilePeriod: Double? = nil, clip: Rect,
        mask: CoverageMask? = nil
    ) {
        guard image.width > 0, image.height > 0 else { return }
        let strip = StripSampler(
            origin: origin, smooth: smooth, width: image.width, height: image.height, inked: image.inkedRows,
            tilePeriod: tilePeriod)
        guard let reach = strip.reach(within: clip.pixelBounds(clippedTo: width, height)) else { return }
        let opacity = Canvas.factor(opacity)
        let half: UInt64 = 0x0080_0080_0080_0080, lanes: UInt64 = 0x00FF_00FF_00FF_00FF
        image.packed.withUnsafeBufferPointer { src in
            paint(within: reach, mask: mask) { blitter, b in
                // Every row splits into the same runs: found once, each then drawn down the rows.
                strip.forEachRun(across: b.x0..<b.x1) { x, n, taps in
                    for y in b.y0..<b.y1 {
                        guard let row = strip.row(y) else { continue }
                        let lower = src.baseAddress! + row.lower, upper = src.baseAddress! + row.upper
                        let oneRow = row.wLower == 256
                        let (wl, wu) = (UInt64(row.wLower), UInt64(row.wUpper))
                        let line = blitter.row(y)
                        let (w0, w1) = (UInt64(taps.weight0), UInt64(taps.weight1))
                        for k in 0..<n {
                            // The two columns (and rows) a sub-pixel position straddles, weighted
                            // in 1/256 steps, all four channels at once in 16-bit lanes.
                            let j0 = taps.column0 &+ k &* taps.step0, j1 = taps.column1 &+ k &* taps.step1
                            var v =
                                (((Canvas.spread(lower[j0]) &* w0 &+ Canvas.spread(lower[j1]) &* w1) &+ half) >> 8)
                                & lanes
                            if !oneRow {
                                let above =
                                    (((Canvas.spread(upper[j0]) &* w0 &+ Canvas.spread(upper[j1]) &* w1) &+ half) >> 8)
                                    & lanes
                                v = ((v &* wl &+ above &* wu &+ half) >> 8) & lanes
                            }
                            if v == 0 { continue }
                            line.blend(v, factor: opacity, at: x &+ k)
                        }
                    }
                }
            }
        }
    }
}
