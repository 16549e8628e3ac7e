/// A finished frame: opaque RGB888 pixels, rows top to bottom, what every output receives.
public struct Frame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes: R, G, B per pixel, row after row.
    public var pixels: [UInt8] {
        didSet { stamp = 0 }
    }
    /// Which canvas write these pixels are, unchanged since (0: unknown); any change to
    /// `pixels` clears it. Lets a canvas write again only what changed (`Damage`).
    var stamp: UInt64 = 0

    /// Equal sizes and pixels.
    public static func == (a: Frame, b: Frame) -> Bool {
        a.width == b.width && a.height == b.height && a.pixels == b.pixels
    }

    public init(width: Int, height: Int, fill: Color = .black) {
        precondition(width > 0 && height > 0, "a frame needs a positive size")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height * 3)
        self.fill(fill)
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGB888 pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Puts a copy of `frame` in `slot`, into the storage already there when the size is the
    /// same (so keeping the newest frame of a stream allocates nothing), anew otherwise.
    public static func copy(_ frame: Frame, into slot: inout Frame?) {
        if slot?.width == frame.width && slot?.height == frame.height {
            slot!.pixels.withUnsafeMutableBytes { dst in frame.pixels.withUnsafeBytes { dst.copyMemory(from: $0) } }
        } else {
            slot = Frame(width: frame.width, height: frame.height, pixels: Array(frame.pixels))
        }
    }

    /// Fills this frame with the window of `source` whose top-left pixel is (`x`, `y`): a
    /// board's part of a larger sign. The window must lie inside `source`.
    public mutating func copyWindow(of source: Frame, x: Int, y: Int) {
        precondition(x >= 0 && y >= 0 && x + width <= source.width && y + height <= source.height)
        let (rowBytes, rows) = (stride, height)
        pixels.withUnsafeMutableBytes { dst in
            source.pixels.withUnsafeBytes { src in
                for row in 0..<rows {
                    (dst.baseAddress! + row * rowBytes).copyMemory(
                        from: src.baseAddress! + ((y + row) * source.width + x) * 3, byteCount: rowBytes)
                }
            }
        }
    }

    /// Bytes per row.
    public var stride: Int { width * 3 }

    /// Paints every pixel with an opaque colour (its alpha is ignored).
    public mutating func fill(_ color: Color) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                p[i] = color.red
                p[i + 1] = color.green
                p[i + 2] = color.blue
                i += 3
            }
        }
    }

    /// The colour at a pixel.
    public func pixel(x: Int, y: Int) -> Color {
        let i = (y * width + x) * 3
        return Color(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2])
    }

    /// The frame enlarged pixel for pixel by a whole factor (for looking at it on a screen).
    public func enlarged(by factor: Int) -> Frame {
        guard factor > 1 else { return self }
        var out = Frame(width: width * factor, height: height * factor)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let s = ((y / factor) * width + x / factor) * 3, d = (y * out.width + x) * 3
                out.pixels[d] = pixels[s]
                out.pixels[d + 1] = pixels[s + 1]
                out.pixels[d + 2] = pixels[s + 2]
            }
        }
        return out
    }
}
