import Foundation
import SignGraphics
import SignTiming
import Testing

@testable import SignScene

@Suite("Layer shadows")
struct LayerShadowTests {
    static let fonts = try! FontLibrary()
    static let red = Color(red: 255, green: 0, blue: 0)
    static let green = Color(red: 0, green: 255, blue: 0)

    func render(_ layers: [Layer], width: Int, height: Int, at t: Double = 0) throws -> Frame {
        let scene = Scene(width: width, height: height, layers: layers.map { .layer($0) })
        return Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: t)
    }

    /// A white square `size` pixels wide at (x, y) with a shadow.
    func square(
        x: Double, y: Double, size: Double = 2, color: Color = red, radius: Double, offset: Size, opacity: Double = 1
    ) -> Layer {
        var layer = Layer(frame: Rect(x: x, y: y, width: size, height: size), backgroundColor: .white)
        (layer.shadowColor, layer.shadowRadius, layer.shadowOffset, layer.shadowOpacity) = (
            color, radius, offset, opacity
        )
        return layer
    }

    /// Tap k of a Gaussian of σ integrated over a pixel (Simpson's rule), as the shadow's
    /// blur should weigh it: independent of signd's erf.
    func tap(_ k: Int, sigma: Double) -> Double {
        let n = 200, a = Double(k) - 0.5, h = 1.0 / Double(n)
        func g(_ u: Double) -> Double { exp(-u * u / (2 * sigma * sigma)) / (sigma * (2 * Double.pi).squareRoot()) }
        var sum = g(a) + g(a + 1)
        for i in 1..<n { sum += g(a + Double(i) * h) * (i % 2 == 1 ? 4 : 2) }
        return sum * h / 3
    }

    @Test("Core Animation's defaults: black, opacity 0 (no shadow), radius 3, offset (0, -3)")
    func defaults() {
        let layer = Layer()
        #expect(layer.shadowColor == .black)
        #expect(layer.shadowOpacity == 0)
        #expect(layer.shadowRadius == 3)
        #expect(layer.shadowOffset == Size(width: 0, height: -3))
    }

    @Test("a hard shadow (radius 0) is the layer's shape at its offset, beneath the layer; y points down")
    func hardShadow() throws {
        let frame = try render([square(x: 2, y: 1, radius: 0, offset: Size(width: 1, height: 2))], width: 8, height: 6)
        #expect(frame.pixel(x: 2, y: 1) == .white)
        #expect(frame.pixel(x: 3, y: 2) == .white)  // the layer covers its shadow
        #expect(frame.pixel(x: 4, y: 3) == Self.red)
        #expect(frame.pixel(x: 3, y: 4) == Self.red)
        #expect(frame.pixel(x: 2, y: 3) == .black)  // the shadow starts one to the right
        #expect(frame.pixel(x: 4, y: 5) == .black)
    }

    @Test("shadowPath stands for the layer's alpha: the path filled, in the layer's coordinates, at the offset")
    func shadowPathShapesTheShadow() throws {
        // A 2x2 white layer at (2, 1) whose shadow path is a 4x1 bar along its top edge.
        var layer = square(x: 2, y: 1, radius: 0, offset: Size(width: 0, height: 3))
        layer.shadowPath = try PathData.parse("M 0 0 H 4 V 1 H 0 Z")
        let frame = try render([layer], width: 10, height: 8)
        // The bar moved down by 3: board pixels x 2..5, y 4, including past the layer's right edge.
        for x in 2...5 { #expect(frame.pixel(x: x, y: 4) == Self.red, "x \(x)") }
        // The layer's own second row casts nothing: the path, not the alpha, is the shadow.
        for x in 2...3 { #expect(frame.pixel(x: x, y: 5) == .black, "x \(x)") }
        #expect(frame.pixel(x: 6, y: 4) == .black)
        #expect(frame.pixel(x: 2, y: 1) == .white)

        // A layer that draws nothing still casts its path's shadow.
        var empty = layer
        empty.backgroundColor = nil
        let alone = try render([empty], width: 10, height: 8)
        for x in 2...5 { #expect(alone.pixel(x: x, y: 4) == Self.red, "x \(x)") }
    }

    @Test("a glow's pixels around one lit pixel are 255 times the Gaussian's taps across and down (σ = shadowRadius)")
    func glowPixels() throws {
        let sigma = 1.5
        let glow = square(x: 10, y: 6, size: 1, color: Self.green, radius: sigma, offset: .zero)
        let frame = try render([glow], width: 24, height: 14)
        let reach = 5
        let taps = (-reach...reach + 1).map { tap($0, sigma: sigma) }
        let total = taps.reduce(0, +)
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (2, 0), (-2, 1), (3, -2), (4, 0), (-1, -3)] {
            let expected = 255 * taps[dx + reach] / total * taps[dy + reach] / total
            let got = Double(frame.pixel(x: 10 + dx, y: 6 + dy).green)
            #expect(abs(got - expected) <= 1, "(\(dx), \(dy)): \(got), expected \(expected)")
            #expect(frame.pixel(x: 10 + dx, y: 6 + dy).red == 0)
        }
        #expect(frame.pixel(x: 10, y: 6) == .white)
        // Nothing beyond 3σ + 1.
        #expect(frame.pixel(x: 10 + reach + 2, y: 6) == .black)
    }

    @Test("shadow opacity 0 draws exactly what a layer without a shadow draws")
    func noShadow() throws {
        let shadowless = square(x: 3, y: 2, radius: 2, offset: Size(width: 1, height: 1), opacity: 0)
        var plain = shadowless
        (plain.shadowColor, plain.shadowRadius, plain.shadowOffset) = (.black, 3, Size(width: 0, height: -3))
        #expect(try render([shadowless], width: 10, height: 8) == render([plain], width: 10, height: 8))
    }

    @Test("shadow colour times shadow opacity times the layer's opacity")
    func opacities() throws {
        var layer = square(x: 1, y: 1, radius: 0, offset: Size(width: 3, height: 0), opacity: 0.5)
        layer.opacity = 0.5
        let frame = try render([layer], width: 8, height: 4)
        // 255 * 0.5 = 127.5 -> 128 premultiplied, then half again at the layer's opacity.
        #expect(frame.pixel(x: 4, y: 1) == Color(red: 64, green: 0, blue: 0))
        #expect(frame.pixel(x: 1, y: 1) == Color(red: 128, green: 128, blue: 128))
    }

    @Test("masksToBounds clips the shadow with the layer, as Core Animation clips it")
    func clippedByBounds() throws {
        var layer = square(x: 2, y: 2, size: 3, radius: 1, offset: Size(width: 2, height: 0))
        layer.backgroundColor = Color(red: 255, green: 255, blue: 255, alpha: 128)
        layer.masksToBounds = true
        let frame = try render([layer], width: 10, height: 8)
        #expect(frame.pixel(x: 6, y: 3) == .black)
        #expect(frame.pixel(x: 4, y: 3).red > frame.pixel(x: 4, y: 3).green)  // the shadow beneath, inside
    }

    @Test("a sublayer's alpha casts its parent's shadow: the shadow is of the whole tree")
    func treeShadow() throws {
        var parent = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 6))
        parent.sublayers = [Layer(frame: Rect(x: 1, y: 1, width: 1, height: 1), backgroundColor: .white)]
        (parent.shadowColor, parent.shadowRadius, parent.shadowOffset, parent.shadowOpacity) = (
            Self.red, 0, Size(width: 2, height: 1), 1
        )
        let frame = try render([parent], width: 8, height: 6)
        #expect(frame.pixel(x: 3, y: 2) == Self.red)
    }

    /// Draws `layer` (on a board `width` x `height`) at each time with one compositor and
    /// returns the shadows blurred per frame; each frame must equal one drawn afresh.
    func blursPerFrame(_ layer: Layer, width: Int, height: Int, times: [Double]) throws -> [Int] {
        let scene = Scene(width: width, height: height, layers: [.layer(layer)])
        let prepared = try PreparedScene(scene, beginTime: 0, fonts: Self.fonts)
        let tree = try PreparedLayer(layer, fonts: Self.fonts)
        let compositor = Compositor(width: width, height: height)
        var blurs: [Int] = []
        for t in times {
            var frame = Frame(width: width, height: height)
            compositor.begin([(tree, t)])
            compositor.draw(tree, at: t)
            compositor.finish(over: .black, into: &frame)
            blurs.append(compositor.shadowBlurs)
            #expect(frame == Renderer.render(prepared, at: t), "t = \(t)")
        }
        return blurs
    }

    @Test("a shadow whose layer's alpha does not change (only shadowOpacity pulses) is blurred once, then kept")
    func keptWhenAlphaIsStill() throws {
        var layer = square(x: 4, y: 2, radius: 2, offset: .zero)
        layer.animations = [
            .property(
                LayerPropertyAnimation(
                    keyPath: .shadowOpacity, motion: .basic(BasicValues(from: .number(0.2), to: .number(1))),
                    timing: MediaTiming(duration: 1, repeatCount: .infinity, autoreverses: true)))
        ]
        #expect(try blursPerFrame(layer, width: 12, height: 8, times: [0, 0.1, 0.5, 0.9]) == [1, 0, 0, 0])
    }

    @Test("a shadow whose layer moves, or whose radius animates, is blurred every frame")
    func blurredWhenMoving() throws {
        var layer = square(x: 4, y: 2, radius: 2, offset: .zero)
        layer.animations = [
            .property(
                LayerPropertyAnimation(
                    keyPath: .shadowRadius, motion: .basic(BasicValues(from: .number(0), to: .number(4))),
                    timing: MediaTiming(duration: 1)))
        ]
        #expect(try blursPerFrame(layer, width: 12, height: 8, times: [0, 0.25, 0.5]) == [1, 1, 1])
        var text = Layer(
            content: .text(TextContent(text: "Hi", repeatGap: 4)), frame: Rect(x: 0, y: 0, width: 24, height: 12))
        (text.shadowOpacity, text.shadowColor, text.shadowOffset) = (1, Self.red, .zero)
        text.animations = [
            .property(
                LayerPropertyAnimation(
                    keyPath: .translationX, motion: .basic(BasicValues(from: .number(0), to: .number(-10))),
                    timing: MediaTiming(duration: 1, repeatCount: .infinity)))
        ]
        #expect(try blursPerFrame(text, width: 24, height: 12, times: [0, 0.3, 0.6]) == [1, 1, 1])
    }

    @Test("shadowOpacity, shadowRadius, shadowOffset (and .width, .height) and shadowColor animate by CA's formulas")
    func animatedKeyPaths() throws {
        var layer = square(x: 0, y: 0, radius: 3, offset: .zero)
        let d = 2.0
        layer.animations = [
            // Linear from 0 to 1: value = t / d.
            .property(
                LayerPropertyAnimation(
                    keyPath: .shadowOpacity, motion: .basic(BasicValues(from: .number(0), to: .number(1))),
                    timing: MediaTiming(duration: d))),
            // Keyframes 0, 4, 1 at key times 0, 0.25, 1.
            .property(
                LayerPropertyAnimation(
                    keyPath: .shadowRadius,
                    motion: .keyframes(
                        Keyframes(values: [.number(0), .number(4), .number(1)], keyTimes: [0, 0.25, 1])),
                    timing: MediaTiming(duration: d))),
            // By (4, 8) from the model's (0, 0).
            .property(
                LayerPropertyAnimation(
                    keyPath: .shadowOffset, motion: .basic(BasicValues(by: .size(Size(width: 4, height: 8)))),
                    timing: MediaTiming(duration: d))),
            .property(
                LayerPropertyAnimation(
                    keyPath: .shadowColor,
                    motion: .basic(BasicValues(from: AnimatableValue(Self.red), to: AnimatableValue(Self.green))),
                    timing: MediaTiming(duration: d))),
        ]
        var height = Layer(frame: Rect(x: 0, y: 0, width: 1, height: 1))
        height.animations = [
            .property(
                LayerPropertyAnimation(
                    keyPath: .shadowOffsetHeight, motion: .basic(BasicValues(from: .number(-3), to: .number(5))),
                    timing: MediaTiming(duration: d)))
        ]
        let prepared = try PreparedLayer(layer, fonts: Self.fonts)
        let preparedHeight = try PreparedLayer(height, fonts: Self.fonts)
        for t in [0.0, 0.3, 0.5, 1.25, 1.9] {
            let f = t / d
            let radius = f <= 0.25 ? 4 * f / 0.25 : 4 + (1 - 4) * (f - 0.25) / 0.75
            for shown in [layer.presentation(at: t), prepared.presentation(at: t)] {
                #expect(abs(shown.shadowOpacity - f) < 1e-12)
                #expect(abs(shown.shadowRadius - radius) < 1e-12)
                #expect(abs(shown.shadowOffset.width - 4 * f) < 1e-12)
                #expect(abs(shown.shadowOffset.height - 8 * f) < 1e-12)
                let c = shown.shadowColor
                #expect(c == Color(red: UInt8((255 * (1 - f)).rounded()), green: UInt8((255 * f).rounded()), blue: 0))
            }
            #expect(abs(preparedHeight.presentation(at: t).shadowOffset.height - (-3 + 8 * f)) < 1e-12)
            #expect(preparedHeight.presentation(at: t).shadowOffset.width == 0)
        }
        #expect(LayerProperty(keyPath: "shadowOffset.width") == .shadowOffsetWidth)
    }

    @Test("a static shadowed layer's extent holds its shadow, so the cache keeps all of it")
    func staticExtent() throws {
        let layer = square(x: 4, y: 3, radius: 1, offset: Size(width: 2, height: -1))
        let prepared = try PreparedLayer(layer, fonts: Self.fonts)
        // σ 1 reaches 3 pixels, one more for a fraction of the offset: the frame (4, 3, 2, 2)
        // and its shadow from (4 + 2 - 4, 3 - 1 - 4) to (6 + 2 + 4, 5 - 1 + 4).
        #expect(prepared.extent == Rect(x: 2, y: -2, width: 10, height: 10))
        #expect(prepared.isStatic)
        #expect(!prepared.drawsOnce)
    }
}
