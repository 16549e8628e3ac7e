import Testing

@testable import SignGraphics

@Suite("Resampling")
struct ResamplingTests {
    static let identity = Homography(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)

    /// A 4 x 3 source of distinct premultiplied pixels, some half transparent.
    func source() -> Canvas {
        var c = Canvas(width: 4, height: 3)
        for i in c.pixels.indices {
            let a = UInt32(i % 2 == 0 ? 255 : 128), v = UInt32(i * 10) * a / 255
            c.pixels[i] = v | (a - v / 2) << 8 | (a / 3) << 16 | a << 24
        }
        return c
    }

    @Test("an identity map copies the source's pixels, with either filter")
    func identityCopies() {
        for filter in ResamplingFilter.allCases {
            var target = Canvas(width: 4, height: 3)
            target.draw(source(), width: 4, height: 3, inverse: Self.identity, filter: filter, opacity: 1, in: (0, 0, 4, 3))
            #expect(target.pixels == source().pixels, "\(filter)")
        }
    }

    @Test("a bilinear sample halfway between two pixels is their mean; past the edge it fades to transparent")
    func bilinearHalfway() {
        var src = Canvas(width: 2, height: 1)
        src.pixels = [0xFF00_0000, 0xFFFF_FFFF]
        // Target pixel x samples source x - 0.5: target 1 is halfway between the two.
        let shift = Homography(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: -0.5, m32: 0, m33: 1)
        var target = Canvas(width: 3, height: 1)
        target.draw(src, width: 2, height: 1, inverse: shift, filter: .linear, opacity: 1, in: (0, 0, 3, 1))
        // x = 0 samples u = 0: half of pixel 0, half outside; x = 2 samples u = 2: half of pixel 1.
        #expect(target.pixels == [0x8000_0000, 0xFF80_8080, 0x8080_8080])
    }

    @Test("nothing is drawn where the map puts the source behind the viewer (w <= 0)")
    func behindViewer() {
        let behind = Homography(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: -1)
        var target = Canvas(width: 4, height: 3)
        target.draw(source(), width: 4, height: 3, inverse: behind, filter: .linear, opacity: 1, in: (0, 0, 4, 3))
        #expect(target.pixels.allSatisfy { $0 == 0 })
    }

    @Test("nearest takes the pixel the sample point falls in; opacity scales what is drawn")
    func nearestAndOpacity() {
        var src = Canvas(width: 2, height: 1)
        src.pixels = [0xFF00_00FF, 0xFF00_FF00]
        let half = Homography(m11: 0.5, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        var target = Canvas(width: 4, height: 1)
        target.draw(src, width: 2, height: 1, inverse: half, filter: .nearest, opacity: 1, in: (0, 0, 4, 1))
        #expect(target.pixels == [0xFF00_00FF, 0xFF00_00FF, 0xFF00_FF00, 0xFF00_FF00])
        var faint = Canvas(width: 4, height: 1)
        faint.draw(src, width: 2, height: 1, inverse: half, filter: .nearest, opacity: 0.5, in: (0, 0, 4, 1))
        #expect(faint.pixels[0] == 0x8000_0080)
    }
}
