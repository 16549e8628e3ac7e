import Testing

@testable import SignGraphics

/// A rich line (an image drawn as a moving strip): its transparent rows above and below the
/// glyphs are left out of the drawing.
@Suite("ImageStrip")
struct ImageStripTests {
    /// Rows `inked` of `height` hold translucent colours; the rest are transparent.
    static func line(height: Int, inked: Range<Int>) -> ImageBitmap {
        let width = 23
        let pixels = (0..<width * height).map { i -> ImageBitmap.Pixel in
            let (x, y) = (i % width, i / width)
            guard inked.contains(y), x % 5 != 0 else { return .zero }
            let a = Float(60 + (x * 37 + (y - inked.lowerBound) * 11) % 196) / 255
            return ImageBitmap.Pixel(a * 0.9, a * Float(x % 3) / 2, a * 0.3, a)
        }
        return ImageBitmap(width: width, height: height, premultiplied: pixels)
    }

    @Test("the inked rows are the first to the last row holding a pixel that is not transparent")
    func inkedRows() {
        #expect(Self.line(height: 7, inked: 2..<5).inkedRows == 2..<5)
        #expect(Self.line(height: 7, inked: 0..<7).inkedRows == 0..<7)
        #expect(Self.line(height: 7, inked: 3..<3).inkedRows.isEmpty)
    }

    @Test(
        "a line with empty rows draws, and marks changed, exactly what the line without them does",
        arguments: [Point(x: 3, y: -1), Point(x: 3.5, y: -1), Point(x: 3.25, y: -0.5), Point(x: -2.75, y: 1.5)])
    func sameAsTrimmed(origin: Point) {
        let padded = Self.line(height: 8, inked: 2..<5)
        let trimmed = Self.line(height: 3, inked: 0..<3)
        let clip = Rect(x: 0, y: 0, width: 32, height: 8)
        var a = Canvas(width: 32, height: 8), b = Canvas(width: 32, height: 8)
        a.damage.removeAll()
        b.damage.removeAll()
        a.draw(padded, at: origin, opacity: 0.8, smooth: true, clip: clip)
        b.draw(trimmed, at: Point(x: origin.x, y: origin.y + 2), opacity: 0.8, smooth: true, clip: clip)
        #expect(a.pixels == b.pixels)
        #expect(a.damage == b.damage)
        #expect(!a.damage.isEmpty)
    }
}
