import Testing

@testable import SignGraphics

/// The resampler's fast paths (row spans, unchecked interior texels, transparent and equal
/// texels) against the plain per-pixel sampling they replace: the same bytes, since golden
/// frames of transformed layers pin them.
@Suite("Resampling fast paths")
struct ResamplingSpanTests {
    /// Every pixel of `bounds` sampled as the resampler did before its fast paths: the map
    /// stepped pixel by pixel, each sample weighed from four bounds-checked texels.
    static func reference(
        _ source: Canvas, inverse: Homography, filter: ResamplingFilter, opacity: Float, onto target: inout Canvas,
        in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        let (sw, sh) = (source.width, source.height)
        let (fw, fh) = (Float(sw), Float(sh))
        let f = Canvas.factor(opacity)
        func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
            guard i >= 0, j >= 0, i < sw, j < sh else { return .zero }
            let p = source.pixels[j * sw + i]
            return SIMD4(Float(p & 0xFF), Float(p >> 8 & 0xFF), Float(p >> 16 & 0xFF), Float(p >> 24))
        }
        for y in bounds.y0..<bounds.y1 {
            var q = inverse.apply(Double(bounds.x0) + 0.5, Double(y) + 0.5)
            for x in bounds.x0..<bounds.x1 {
                defer { (q.x, q.y, q.w) = (q.x + inverse.m11, q.y + inverse.m12, q.w + inverse.m13) }
                guard q.w > 0 else { continue }
                let u = Float(q.x / q.w), v = Float(q.y / q.w)
                guard u > -1, v > -1, u < fw + 1, v < fh + 1 else { continue }
                let sample: SIMD4<Float>
                switch filter {
                case .nearest:
                    guard u >= 0, v >= 0, u < fw, v < fh else { continue }
                    sample = texel(Int(u), Int(v))
                case .linear:
                    let sx = u - 0.5, sy = v - 0.5
                    let fx = sx.rounded(.down), fy = sy.rounded(.down)
                    let (i, j) = (Int(fx), Int(fy))
                    let (ax, ay) = (sx - fx, sy - fy)
                    let top = texel(i, j) * (1 - ax) + texel(i + 1, j) * ax
                    let bottom = texel(i, j + 1) * (1 - ax) + texel(i + 1, j + 1) * ax
                    sample = top * (1 - ay) + bottom * ay
                }
                let p = Canvas.packed(levels: sample)
                if p == 0 { continue }
                target.pixels[y * target.width + x] = Canvas.blend(
                    Canvas.spread(p), factor: f, over: target.pixels[y * target.width + x])
            }
        }
    }

    /// A 23 x 11 source with flat runs (equal texels), transparent holes and a ramp.
    static func source() -> Canvas {
        var c = Canvas(width: 23, height: 11)
        for y in 0..<11 {
            for x in 0..<23 {
                let p: Canvas.Pixel
                if (x - 11) * (x - 11) + (y - 5) * (y - 5) < 6 {
                    p = 0
                } else if x < 8 {
                    p = 0xFF30_60C0
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
        maps.append(Homography(m11: 0.4, m12: 0.05, m13: 0.01, m21: 0.1, m22: 0.5, m23: -0.004, m31: -6, m32: -1, m33: 0.9))
        return maps
    }()

    @Test("the fast paths draw exactly the bytes per-pixel sampling draws, for affine and projective maps, both filters")
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
