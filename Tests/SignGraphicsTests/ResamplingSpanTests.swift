import Testing

@testable import SignGraphics

/// The resampler's fast paths (row spans, the fixed step along an affine row, unchecked
/// interior texels, equal texels, two words of lanes) against a plain per-pixel sampling of
/// the same integer arithmetic: the same bytes, since golden frames of transformed layers
/// pin them.
@Suite("Resampling fast paths")
struct ResamplingSpanTests {
    /// Every pixel of `bounds` sampled one by one, channel by channel: each pixel's 32.32
    /// coordinates (for an affine map the row's first pixel's plus the fixed step per pixel,
    /// for a projective map its own), four bounds-checked texels weighed by 7-bit weights
    /// and rounded once, composited source-over.
    static func reference(
        _ source: Canvas, inverse: Homography, filter: ResamplingFilter, opacity: Float, onto target: inout Canvas,
        in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        let (sw, sh) = (source.width, source.height)
        let f = Canvas.factor(opacity)
        func fixed(_ a: Double) -> Int? {
            guard a.magnitude < 268_435_456 else { return nil }
            let x = a * 4_294_967_296
            return Int(x < 0 ? x - 0.5 : x + 0.5)
        }
        func channel(_ i: Int, _ j: Int, _ c: Int) -> Int {
            guard i >= 0, j >= 0, i < sw, j < sh else { return 0 }
            return Int(source.pixels[j * sw + i] >> UInt32(8 * c) & 0xFF)
        }
        for y in bounds.y0..<bounds.y1 {
            let first = inverse.apply(Double(bounds.x0) + 0.5, Double(y) + 0.5)
            var q = first
            for x in bounds.x0..<bounds.x1 {
                defer { (q.x, q.y, q.w) = (q.x + inverse.m11, q.y + inverse.m12, q.w + inverse.m13) }
                let sx: Int, sy: Int
                if inverse.m13 == 0 {
                    guard first.w > 0, let u0 = fixed(first.x / first.w - 0.5), let v0 = fixed(first.y / first.w - 0.5),
                        let du = fixed(inverse.m11 / first.w), let dv = fixed(inverse.m12 / first.w),
                        fixed(inverse.m11 / first.w * Double(bounds.x1 - bounds.x0)) != nil,
                        fixed(inverse.m12 / first.w * Double(bounds.x1 - bounds.x0)) != nil
                    else { continue }
                    (sx, sy) = (u0 + (x - bounds.x0) * du, v0 + (x - bounds.x0) * dv)
                } else {
                    guard q.w > 0, let u = fixed(q.x / q.w - 0.5), let v = fixed(q.y / q.w - 0.5) else { continue }
                    (sx, sy) = (u, v)
                }
                var p: UInt32 = 0
                for c in 0..<4 {
                    let level: Int
                    switch filter {
                    case .nearest:
                        level = channel((sx + (1 << 31)) >> 32, (sy + (1 << 31)) >> 32, c)
                    case .linear:
                        let (i, j) = (sx >> 32, sy >> 32)
                        let (wx, wy) = ((sx >> 25) & 127, (sy >> 25) & 127)
                        let left = channel(i, j, c) * (128 - wy) + channel(i, j + 1, c) * wy
                        let right = channel(i + 1, j, c) * (128 - wy) + channel(i + 1, j + 1, c) * wy
                        level = (left * (128 - wx) + right * wx + 8192) >> 14
                    }
                    p |= UInt32(level) << UInt32(8 * c)
                }
                if p == 0 { continue }
                target.pixels[y * target.width + x] = Canvas.blend(
                    Canvas.spread(p), factor: f, over: target.pixels[y * target.width + x])
            }
        }
    }

    /// A 23 x 11 source with flat runs (equal texels), gradients along y and along x,
    /// transparent holes and a ramp.
    static func source() -> Canvas {
        var c = Canvas(width: 23, height: 11)
        for y in 0..<11 {
            for x in 0..<23 {
                let p: Canvas.Pixel
                if (x - 11) * (x - 11) + (y - 5) * (y - 5) < 6 {
                    p = 0
                } else if x < 8 {
                    p = 0xFF30_60C0
                } else if x < 12 {
                    // A gradient along y: equal columns.
                    p = 0xFF00_0000 | UInt32(y * 23) << 8 | UInt32(250 - y * 20)
                } else if y < 2 {
                    // Along x: equal rows.
                    p = 0xC000_0000 | UInt32(x * 8) << 16
                } else {
                    let a = UInt32(128 + (x * 5 + y * 3) % 128), v = UInt32(x * 11 % 256) * a / 255
                    p = v | (a / 2) << 8 | (v / 3) << 16 | a << 24
                }
                c.pixels[y * 23 + x] = p
            }
        }
        return c
    }

    /// Maps from a target pixel to the source: rotations and scales (affine, w = 1), a
    /// non-unit w, an edge-on row (u constant along it) and perspective.
    static let maps: [Homography] = {
        var maps: [Homography] = []
        for (degrees, scale) in [(10.0, 1.1), (-33.0, 0.7), (90.0, 1.0), (0.0, 2.5), (171.0, 0.45)] {
            let forward = Transform3D.rotation(angle: degrees * .pi / 180, x: 0, y: 0, z: 1)
                .concatenating(.scale(x: scale, y: scale, z: 1))
                .concatenating(.translation(x: 30, y: 9, z: 0)).planar
            maps.append(forward.inverted!)
        }
        maps.append(Homography(m11: 0.5, m12: 0.1, m13: 0, m21: -0.2, m22: 0.8, m23: 0, m31: 3, m32: -2, m33: 1.7))
        maps.append(Homography(m11: 0, m12: 0.5, m13: 0, m21: 0.6, m22: 0, m23: 0, m31: 4.25, m32: -3, m33: 1))
        maps.append(
            Homography(m11: 0.4, m12: 0.05, m13: 0.01, m21: 0.1, m22: 0.5, m23: -0.004, m31: -6, m32: -1, m33: 0.9))
        return maps
    }()

    @Test(
        "the fast paths draw exactly the bytes plain per-pixel sampling of the same arithmetic draws, for affine and projective maps, both filters"
    )
    func sameBytesAsPerPixelSampling() {
        let src = Self.source()
        for (n, map) in Self.maps.enumerated() {
            for filter in ResamplingFilter.allCases {
                for opacity: Float in [1, 0.6] {
                    var expected = Canvas(width: 64, height: 24)
                    for i in expected.pixels.indices { expected.pixels[i] = i % 3 == 0 ? 0xFF10_2030 : 0 }
                    let before = expected
                    var drawn = expected
                    let bounds = (x0: 3, y0: 1, x1: 61, y1: 23)
                    Self.reference(src, inverse: map, filter: filter, opacity: opacity, onto: &expected, in: bounds)
                    drawn.draw(src, width: 23, height: 11, inverse: map, filter: filter, opacity: opacity, in: bounds)
                    // Compared as one flag: a mismatch names the case, not two boards of numbers.
                    let same = drawn.pixels == expected.pixels
                    #expect(same, "map \(n) \(filter) opacity \(opacity)")
                    // Not vacuous: the source is drawn somewhere.
                    #expect(drawn.pixels != before.pixels, "map \(n)")
                }
            }
        }
    }
}

/// The integer weighing itself, against levels worked out by hand.
@Suite("Bilinear weighing in integers")
struct BilinearWeighingTests {
    @Test("halfway between two levels rounds half up; whole weights give the texel; equal texels give themselves")
    func weighsAndRounds() {
        let (black, white): (Canvas.Pixel, Canvas.Pixel) = (0xFF00_0000, 0xFFFF_FFFF)
        // Halfway across: 127.5 rounded up, opaque kept opaque.
        #expect(Canvas.pack(Canvas.weighed(black, white, black, white, x: 64, y: 0)) == 0xFF80_8080)
        // No share for the right and bottom texels: the top left exactly.
        #expect(Canvas.pack(Canvas.weighed(0x8040_2010, white, white, white, x: 0, y: 0)) == 0x8040_2010)
        // A quarter of each of four: (0 + 255 + 0 + 255) / 4 = 127.5 -> 128 in red only.
        let red: Canvas.Pixel = 0xFF00_00FF
        #expect(Canvas.pack(Canvas.weighed(black, red, red, black, x: 64, y: 64)) == 0xFF00_0080)
        #expect(Canvas.pack(Canvas.weighed(red, red, red, red, x: 37, y: 101)) == red)
    }

    @Test("two equal columns or rows weighed one way give exactly the four-texel weighing")
    func oneWayIsTheSame() {
        let levels: [Canvas.Pixel] = [0, 0x4020_1008, 0x8080_4000, 0xFF00_80FF, 0xFFFF_FFFF, 0x0101_0101]
        for a in levels {
            for b in levels {
                for w: UInt64 in [0, 1, 63, 64, 65, 127] {
                    #expect(Canvas.between(a, b, y: w) == Canvas.weighed(a, a, b, b, x: 37, y: w))
                    #expect(Canvas.between(a, b, y: w) == Canvas.weighed(a, b, a, b, x: w, y: 90))
                }
            }
        }
    }
}
