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

    /// Source-over of one premultiplied colour at a pixel, scaled by `coverage`.
    @inlinable
    public mutating func blend(_ color: Pixel, coverage: Float, at index: Int) {
        let src = color * coverage
        pixels[index] = src + pixels[index] * (1 - src.w)
    }

    /// Source-over of another canvas of the same size, scaled by `opacity`, within the rows
    /// and columns of `bounds`.
    public mutating func composite(_ other: Canvas, opacity: Float, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard other.width == width, other.height == height else { return }
        other.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in bounds.y0..<bounds.y1 {
                    for i in (y * width + bounds.x0)..<(y * width + bounds.x1) {
                        let s = src[i] * opacity
                        dst[i] = s + dst[i] * (1 - s.w)
                    }
                }
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

    /// The canvas over an opaque background, as an RGB888 frame (written in place).
    public func write(into frame: inout Frame, over background: Color) {
        let bg = Canvas.premultiplied(Color(red: background.red, green: background.green, blue: background.blue))
        pixels.withUnsafeBufferPointer { src in
            frame.pixels.withUnsafeMutableBufferPointer { dst in
                for i in 0..<min(src.count, frame.width * frame.height) {
                    let p = src[i] + bg * (1 - src[i].w)
                    let scaled = (p * 255 + 0.5).clamped(
                        lowerBound: Pixel(repeating: 0), upperBound: Pixel(repeating: 255))
                    dst[i * 3] = UInt8(scaled.x)
                    dst[i * 3 + 1] = UInt8(scaled.y)
                    dst[i * 3 + 2] = UInt8(scaled.z)
                }
            }
        }
    }
}
