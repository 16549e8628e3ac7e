/// A decoded image (from PNG), premultiplied, ready to be drawn or used as a mask.
public struct ImageBitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Premultiplied RGBA, 0...1, rows top to bottom.
    public let pixels: [Canvas.Pixel]

    /// From straight (non-premultiplied) 8-bit RGBA, as PNG stores it.
    public init(width: Int, height: Int, straightRGBA: [UInt8]) {
        precondition(straightRGBA.count == width * height * 4, "RGBA byte count does not match the size")
        self.width = width
        self.height = height
        pixels = (0..<(width * height)).map { i in
            let a = Float(straightRGBA[i * 4 + 3]) / 255
            return Canvas.Pixel(
                Float(straightRGBA[i * 4]) / 255 * a, Float(straightRGBA[i * 4 + 1]) / 255 * a,
                Float(straightRGBA[i * 4 + 2]) / 255 * a, a)
        }
    }

    /// From premultiplied pixels.
    public init(width: Int, height: Int, premultiplied: [Canvas.Pixel]) {
        precondition(premultiplied.count == width * height, "pixel count does not match the size")
        self.width = width
        self.height = height
        pixels = premultiplied
    }

    /// Shrunk (or grown) by `factor`, each new pixel the area average of the old ones it
    /// covers, so small emoji stay legible rather than aliased.
    public func scaled(by factor: Double) -> ImageBitmap {
        guard factor != 1, factor > 0 else { return self }
        let w = max(1, Int((Double(width) * factor).rounded())), h = max(1, Int((Double(height) * factor).rounded()))
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        var out = [Canvas.Pixel](repeating: .zero, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = Canvas.Pixel.zero
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
            func texel(_ x: Int, _ y: Int) -> Pixel {
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
                        let p: Pixel
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
                        line.blend(p, coverage: opacity * c, at: x)
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
            origin: origin, smooth: smooth, width: image.width, height: image.height, tilePeriod: tilePeriod)
        guard let reach = strip.reach(within: clip.pixelBounds(clippedTo: width, height)) else { return }
        image.pixels.withUnsafeBufferPointer { src in
            paint(within: reach, mask: mask) { blitter, b in
                for y in b.y0..<b.y1 {
                    guard let row = strip.row(y) else { continue }
                    let lower = src.baseAddress! + row.lower, upper = src.baseAddress! + row.upper
                    let line = blitter.row(y)
                    strip.forEachRun(across: b.x0..<b.x1) { x, n, taps in
                        for k in 0..<n {
                            let j0 = taps.column0 &+ k &* taps.step0, j1 = taps.column1 &+ k &* taps.step1
                            let here = lower[j0] * taps.weight0 + lower[j1] * taps.weight1
                            let above = upper[j0] * taps.weight0 + upper[j1] * taps.weight1
                            // Blended even where transparent (which leaves the pixel as it was):
                            // no branch per pixel.
                            line.blend(here * row.wLower + above * row.wUpper, coverage: opacity, at: x &+ k)
                        }
                    }
                }
            }
        }
    }
}
