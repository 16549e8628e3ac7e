import Foundation
import Testing

@testable import SignGraphics

/// The Gaussian a pixel square spreads into tap k of a kernel of σ and phase φ, computed
/// here by Simpson's rule over the square (not by erf, as the kernel is): ∫ g(u − φ) du over
/// [k − ½, k + ½], g the normal density of σ.
func gaussianOverPixel(_ k: Int, sigma: Double, phase: Double) -> Double {
    let n = 200
    let a = Double(k) - 0.5 - phase, h = 1.0 / Double(n)
    func g(_ u: Double) -> Double { exp(-u * u / (2 * sigma * sigma)) / (sigma * (2 * Double.pi).squareRoot()) }
    var sum = g(a) + g(a + 1)
    for i in 1..<n { sum += g(a + Double(i) * h) * (i % 2 == 1 ? 4 : 2) }
    return sum * h / 3
}

@Suite("Shadow blur")
struct ShadowBlurTests {
    @Test(
        "the kernel's taps are the Gaussian's integral over each pixel, cut at 3σ and summing to 1",
        arguments: [(0.5, 0.0), (1.0, 0.25), (3.0, 0.0), (3.0, 0.7), (7.5, 0.5), (16.0, 0.9)])
    func kernelIsGaussian(sigma: Double, phase: Double) {
        var kernel = GaussianKernel()
        kernel.set(sigma: sigma, phase: phase)
        let reach = Int((3 * sigma).rounded(.up))
        #expect(kernel.first == -reach)
        #expect(kernel.count == 2 * reach + 2)
        let expected = (kernel.first..<kernel.first + kernel.count).map {
            gaussianOverPixel($0, sigma: sigma, phase: phase)
        }
        let total = expected.reduce(0, +)
        #expect(total > 0.997)
        for i in 0..<kernel.count {
            #expect(abs(Double(kernel.weights[i]) - expected[i] / total) < 1e-6, "tap \(kernel.first + i)")
        }
        #expect(abs(kernel.weights.prefix(kernel.count).reduce(0, +) - 1) < 1e-5)
    }

    @Test("σ 0 takes the nearest pixel; NaN is 0 and σ beyond the cap is the cap, in the storage made at first")
    func kernelBounds() {
        var kernel = GaussianKernel()
        let storage = kernel.weights.count
        kernel.set(sigma: 0, phase: 0.3)
        #expect((kernel.first, kernel.count, kernel.weights[0]) == (0, 1, 1))
        kernel.set(sigma: 0, phase: 0.6)
        #expect((kernel.first, kernel.count) == (1, 1))
        kernel.set(sigma: .nan, phase: 0)
        #expect((kernel.sigma, kernel.count) == (0, 1))
        kernel.set(sigma: 1e9, phase: 0)
        #expect(kernel.sigma == GaussianKernel.maxSigma)
        #expect(kernel.count == 2 * 48 + 2)
        #expect(kernel.weights.count == storage)
    }

    @Test("one opaque pixel blurred and moved by (3.25, -2): each output is 255 times the two kernels' taps")
    func singlePixel() {
        let (w, h) = (32, 24)
        var alpha = CoverageMask(width: w, height: h)
        alpha.coverage[10 * w + 12] = 255
        var shadow = CoverageMask(width: w, height: h)
        var blur = ShadowBlur(width: w, height: h)
        let sigma = 1.5
        let box = blur.blur(
            alpha, in: (12, 10, 13, 11), sigma: sigma, offset: Point(x: 3.25, y: -2), clip: (0, 0, w, h),
            into: &shadow)
        // Output (x, y) reads source (x - 3 - kx, y + 2 - ky): the pixel's taps are kx = x - 15, ky = y - 8.
        let reach = 5
        #expect(box == (15 - reach, 8 - reach, 15 + reach + 2, 8 + reach + 2))
        let across = (-reach...reach + 1).map { gaussianOverPixel($0, sigma: sigma, phase: 0.25) }
        let down = (-reach...reach + 1).map { gaussianOverPixel($0, sigma: sigma, phase: 0) }
        let (sa, sd) = (across.reduce(0, +), down.reduce(0, +))
        var worst = 0.0
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                let expected = 255 * across[x - 15 + reach] / sa * down[y - 8 + reach] / sd
                worst = max(worst, abs(Double(shadow.coverage[y * w + x]) - expected))
            }
        }
        #expect(worst <= 0.5 + 1e-3)
        // The centre, one to the right (phase 0.25 leans it there) and two below.
        #expect(shadow.coverage[8 * w + 15] == UInt8((255 * across[reach] / sa * down[reach] / sd).rounded()))
        #expect(shadow.coverage[10 * w + 16] == UInt8((255 * across[reach + 1] / sa * down[reach + 2] / sd).rounded()))
    }

    @Test("a wide opaque area keeps full alpha inside its shadow and none beyond 3σ + 1")
    func solidArea() {
        let (w, h) = (40, 40)
        var alpha = CoverageMask(width: w, height: h)
        for y in 10..<30 { for x in 10..<30 { alpha.coverage[y * w + x] = 255 } }
        var shadow = CoverageMask(width: w, height: h)
        var blur = ShadowBlur(width: w, height: h)
        let box = blur.blur(alpha, in: (10, 10, 30, 30), sigma: 2, offset: .zero, clip: (0, 0, w, h), into: &shadow)
        #expect(box == (4, 4, 37, 37))
        #expect(shadow.coverage[20 * w + 20] == 255)
        // Either side of the edge: Φ(±0.5 / σ) of the alpha, the pixel's centre half a pixel from it.
        #expect(shadow.coverage[20 * w + 10] == 153)
        #expect(shadow.coverage[20 * w + 9] == 102)
    }

    @Test("the shadow stays inside the clip; an offset far off the board writes nothing")
    func clipped() {
        let (w, h) = (16, 8)
        var alpha = CoverageMask(width: w, height: h)
        for x in 0..<w { alpha.coverage[3 * w + x] = 255 }
        var shadow = CoverageMask(width: w, height: h)
        var blur = ShadowBlur(width: w, height: h)
        let box = blur.blur(alpha, in: (0, 3, w, 4), sigma: 16, offset: .zero, clip: (2, 1, 10, 6), into: &shadow)
        #expect(box == (2, 1, 10, 6))
        #expect(shadow.coverage[0] == 0 && shadow.coverage[7 * w + 15] == 0)
        let far = blur.blur(
            alpha, in: (0, 3, w, 4), sigma: 3, offset: Point(x: 1e6, y: 0), clip: (0, 0, w, h), into: &shadow)
        #expect(far.x0 == far.x1)
    }

    @Test("a canvas's pixels go over the shadow: an empty pixel takes the shadow, an opaque one keeps itself")
    func beneath() {
        var canvas = Canvas(width: 3, height: 1)
        canvas.pixels[1] = 0xFF00_00FF  // opaque red
        canvas.pixels[2] = 0x8000_0080  // half-transparent red, premultiplied
        var shadow = CoverageMask(width: 3, height: 1)
        shadow.coverage = [255, 255, 255]
        canvas.drawShadow(shadow, color: Color(red: 0, green: 0, blue: 255), opacity: 1, in: (0, 0, 3, 1))
        #expect(canvas.pixels[0] == 0xFFFF_0000)
        #expect(canvas.pixels[1] == 0xFF00_00FF)
        // 128 red over opaque blue: blue * (255 - 128) / 255 = 127.
        #expect(canvas.pixels[2] == 0xFF7F_0080)
    }
}
