import Testing

@testable import SignGraphics

/// A coverage bitmap's record of which rows hold ink, which drawing trusts to leave the
/// others out.
@Suite("AlphaBitmap")
struct AlphaBitmapTests {
    /// Every row holding a byte that is not 0.
    static func rowsWithInk(_ b: AlphaBitmap) -> [Int] {
        (0..<b.height).filter { y in (0..<b.width).contains { b[$0, y] != 0 } }
    }

    @Test("made from coverage, the inked rows are the first to the last row holding any")
    func fromCoverage() {
        var coverage = [UInt8](repeating: 0, count: 4 * 7)
        coverage[2 * 4 + 3] = 9
        coverage[5 * 4] = 255
        let b = AlphaBitmap(width: 4, height: 7, coverage: coverage)
        #expect(b.inkedRows == 2..<6)
        #expect(AlphaBitmap(width: 4, height: 7).inkedRows.isEmpty)
        #expect(AlphaBitmap(width: 4, height: 7, coverage: [UInt8](repeating: 0, count: 28)).inkedRows.isEmpty)
    }

    @Test("glyphs added at offsets, some clipped, and pixels set, keep every inked row within the record")
    func addedAndSet() {
        var glyph = AlphaBitmap(width: 3, height: 3)
        glyph[1, 1] = 200
        #expect(glyph.inkedRows == 1..<2)
        var line = AlphaBitmap(width: 12, height: 8)
        for (x, y) in [(0, 0), (4, 3), (9, 6), (10, -1)] { line.add(glyph, atX: x, y: y) }
        #expect(Self.rowsWithInk(line) == [0, 1, 4, 7])
        #expect(line.inkedRows == 0..<8)
        var low = AlphaBitmap(width: 12, height: 8)
        low.add(glyph, atX: 2, y: 4)
        low.add(AlphaBitmap(width: 12, height: 8), atX: 0, y: 0)  // an empty glyph (a space) inks nothing
        #expect(low.inkedRows == 5..<6)
        low[0, 7] = 1
        #expect(low.inkedRows == 5..<8)
    }

    @Test("bitmaps with the same coverage are equal whatever rows were once inked")
    func equality() {
        var a = AlphaBitmap(width: 2, height: 3)
        a[0, 2] = 5
        a[0, 2] = 0
        #expect(a == AlphaBitmap(width: 2, height: 3))
    }
}
