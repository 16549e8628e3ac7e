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

    /// How an image is resampled to the layer's size.
    public enum Scaling: String, Sendable, Hashable, CaseIterable {
        /// Each pixel takes the nearest texel: crisp pixel art.
        case nearest
        /// Bilinear: smooth.
        case linear
    }
}

extension Canvas {
    /// Draws `image` stretched over `rect` (its contents gravity is "resize"), clipped to `clip`.
    public mutating func draw(
        _ image: ImageBitmap, in rect: Rect, scaling: ImageBitmap.Scaling, opacity: Float, clip: Rect
    ) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        let area = rect.intersection(clip)
        let b = area.pixelBounds(clippedTo: width, height)
        guard b.x0 < b.x1, b.y0 < b.y1 else { return }
        let sx = Double(image.width) / rect.width, sy = Double(image.height) / rect.height
        image.pixels.withUnsafeBufferPointer { src in
            func texel(_ x: Int, _ y: Int) -> Pixel {
                src[min(max(y, 0), image.height - 1) * image.width + min(max(x, 0), image.width - 1)]
            }
            for y in b.y0..<b.y1 {
                let v = (Double(y) + 0.5 - rect.minY) * sy - 0.5
                let cy = Float(Canvas.overlap(y, area.minY, area.maxY))
                for x in b.x0..<b.x1 {
                    let u = (Double(x) + 0.5 - rect.minX) * sx - 0.5
                    let c = cy * Float(Canvas.overlap(x, area.minX, area.maxX))
                    guard c > 0 else { continue }
                    let p: Pixel
                    switch scaling {
                    case .nearest:
                        p = texel(Int((u + 0.5).rounded(.down)), Int((v + 0.5).rounded(.down)))
                    case .linear:
                        let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                        let fx = Float(u - Double(x0)), fy = Float(v - Double(y0))
                        let top = texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx
                        let bottom = texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx
                        p = top * (1 - fy) + bottom * fy
                    }
                    let s = p * (opacity * c)
                    let i = y * width + x
                    pixels[i] = s + pixels[i] * (1 - s.w)
                }
            }
        }
    }
}
