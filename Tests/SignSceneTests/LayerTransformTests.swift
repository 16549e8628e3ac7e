import Glibc
import SignGraphics
import SignTiming
import Testing

@testable import SignScene

/// `transform`, `sublayerTransform`, `anchorPointZ` and the transform key paths, against
/// values computed here from Apple's documented formulas, and what a transformed layer draws.
@Suite("Layer transforms")
struct LayerTransformTests {
    static let fonts = try! FontLibrary()

    func render(_ layers: [Layer], width: Int = 8, height: Int = 8, at t: Double = 0) throws -> Frame {
        let scene = Scene(width: width, height: height, layers: layers.map { .layer($0) })
        return Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: t)
    }

    static let red = Color(red: 255, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 255)

    static func animation(
        _ property: LayerProperty, _ motion: LayerPropertyAnimation.Motion, duration: Double = 2,
        repeatCount: Double = 0, timingFunction: TimingFunction? = nil, additive: Bool = false,
        cumulative: Bool = false
    ) -> LayerAnimation {
        .property(
            PropertyAnimation(
                keyPath: property, motion: motion, timing: MediaTiming(duration: duration, repeatCount: repeatCount),
                timingFunction: timingFunction, isAdditive: additive, isCumulative: cumulative))
    }

    /// The layer's presentation at `t` both ways signd computes it (the animations applied,
    /// and the compiled tracks the frame loop uses), which must agree.
    func presentations(_ layer: Layer, at t: Double) throws -> [Layer] {
        [layer.presentation(at: t), try PreparedLayer(layer, fonts: Self.fonts).presentation(at: t)]
    }

    /// CAMediaTimingFunction's cubic Bézier (0, 0), (x1, y1), (x2, y2), (1, 1) at time x, by
    /// bisection on the curve's x.
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func coordinate(_ a: Double, _ b: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
        }
        var (lo, hi) = (0.0, 1.0)
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if coordinate(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return coordinate(y1, y2, (lo + hi) / 2)
    }

    @Test("the key paths read and write the transform's parts: transform.scale is the mean and sets all three")
    func keyPathsReadAndWrite() {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 4))
        layer[keyPath: "transform.scale"] = .number(2)
        #expect((layer.transform.scaleX, layer.transform.scaleY, layer.transform.scaleZ) == (2, 2, 2))
        layer[keyPath: "transform.scale.x"] = .number(5)
        #expect(layer[keyPath: "transform.scale"] == .number(3))
        layer[keyPath: "transform.rotation"] = .number(3 * .pi)
        #expect(layer[keyPath: "transform.rotation.z"] == .number(3 * .pi))
        layer[keyPath: "transform.rotation.x"] = .number(0.25)
        layer[keyPath: "transform.rotation.y"] = .number(-0.5)
        #expect((layer.transform.rotationX, layer.transform.rotationY) == (0.25, -0.5))
        layer[keyPath: "transform.translation.x"] = .number(7)
        #expect(layer.translation == Point(x: 7, y: 0) && layer.transform.translation.x == 7)
        #expect(layer.isResampled)
        #expect(!Layer(frame: .zero).isResampled)
    }

    @Test("transform.rotation.z from 0 to 2π spins a whole turn: each key time's matrix is the rotation by 2π t/d")
    func basicRotationSpins() throws {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        layer.animations = [
            Self.animation(.rotationZ, .basic(BasicValues(from: .number(0), to: .number(2 * .pi))), duration: 2)
        ]
        for t in [0, 0.5, 1, 1.5, 1.75] {
            let angle = 2 * Double.pi * t / 2
            for p in try presentations(layer, at: t) {
                #expect(abs(p.transform.rotationZ - angle) < 1e-12, "t = \(t)")
                let m = p.transform.matrix
                #expect(abs(m.m11 - cos(angle)) < 1e-12 && abs(m.m12 - sin(angle)) < 1e-12)
                #expect(abs(m.m21 + sin(angle)) < 1e-12 && abs(m.m22 - cos(angle)) < 1e-12)
            }
        }
    }

    @Test("transform.scale with easeInEaseOut follows the Bézier (0.42, 0, 0.58, 1)")
    func easedScale() throws {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        layer.animations = [
            Self.animation(
                .scale, .basic(BasicValues(from: .number(1), to: .number(1.5))), duration: 1,
                timingFunction: .easeInEaseOut)
        ]
        for t in [0.1, 0.25, 0.5, 0.8] {
            let expected = 1 + 0.5 * Self.bezier(0.42, 0, 0.58, 1, at: t)
            for p in try presentations(layer, at: t) {
                for v in [p.transform.scaleX, p.transform.scaleY, p.transform.scaleZ] {
                    #expect(abs(v - expected) < 1e-6, "t = \(t)")
                }
            }
        }
    }

    @Test("keyframes on transform.scale.x interpolate between key times; scale.y stays")
    func keyframedScale() throws {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        layer.animations = [
            Self.animation(
                .scaleX,
                .keyframes(Keyframes(values: [.number(1), .number(2), .number(0.5)], keyTimes: [0, 0.25, 1])),
                duration: 4)
        ]
        for (t, expected) in [(0.5, 1.5), (2.5, 1.25), (3.5, 0.75)] {
            for p in try presentations(layer, at: t) {
                #expect(abs(p.transform.scaleX - expected) < 1e-12, "t = \(t)")
                #expect(p.transform.scaleY == 1)
            }
        }
    }

    @Test("a spring on transform.scale is the damped oscillator x(t) = to - (to - from) e^(-ζω₀t)(cos ω_d t + ζω₀/ω_d sin ω_d t)")
    func springScale() throws {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        let spring = Spring(mass: 1, stiffness: 100, damping: 10)
        layer.animations = [
            Self.animation(.scale, .spring(BasicValues(from: .number(1), to: .number(2)), spring), duration: 2)
        ]
        let w0 = 10.0, zeta = 10 / (2 * (100.0).squareRoot()), wd = w0 * (1 - zeta * zeta).squareRoot()
        for t in [0.05, 0.2, 0.4, 1] {
            let expected = 2 - exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
            for p in try presentations(layer, at: t) { #expect(abs(p.transform.scaleY - expected) < 1e-9, "t = \(t)") }
        }
    }

    @Test("additive rotation adds to the model's; cumulative rotation goes on turning with each repeat")
    func additiveAndCumulative() throws {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        layer.transform.rotationZ = 0.5
        layer.animations = [
            Self.animation(.rotation, .basic(BasicValues(from: .number(0), to: .number(.pi))), duration: 1, additive: true)
        ]
        for p in try presentations(layer, at: 0.25) { #expect(abs(p.transform.rotationZ - (0.5 + .pi / 4)) < 1e-12) }
        var spinning = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        spinning.animations = [
            Self.animation(
                .rotationZ, .basic(BasicValues(from: .number(0), to: .number(.pi))), duration: 1, repeatCount: 3,
                cumulative: true)
        ]
        // Repeat k adds k times the value at the end of one cycle.
        for (t, expected) in [(0.5, Double.pi / 2), (1.5, 1.5 * .pi), (2.25, 2.25 * .pi)] {
            for p in try presentations(spinning, at: t) { #expect(abs(p.transform.rotationZ - expected) < 1e-12) }
        }
    }

    @Test("transform key paths animate inside a group, counted from the group's start")
    func grouped() throws {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        layer.animations = [
            .group(
                AnimationGroup(
                    timing: MediaTiming(beginTime: 1, duration: 2),
                    animations: [
                        Self.animation(.rotationY, .basic(BasicValues(from: .number(0), to: .number(.pi))), duration: 2),
                        Self.animation(.scaleY, .basic(BasicValues(from: .number(1), to: .number(3))), duration: 2),
                    ]))
        ]
        for p in try presentations(layer, at: 2) {
            #expect(abs(p.transform.rotationY - .pi / 2) < 1e-12 && abs(p.transform.scaleY - 2) < 1e-12)
        }
        for p in try presentations(layer, at: 0.5) { #expect(p.transform == .identity) }
    }

    /// A 4 x 4 layer in the middle of an 8 x 8 board: red, its right half blue.
    static func halves() -> Layer {
        var layer = Layer(frame: Rect(x: 2, y: 2, width: 4, height: 4), backgroundColor: red)
        layer.sublayers = [Layer(frame: Rect(x: 2, y: 0, width: 2, height: 4), backgroundColor: blue)]
        return layer
    }

    func rows(_ frame: Frame, _ range: Range<Int>, x: Range<Int>) -> Set<Color> {
        Set(range.flatMap { y in x.map { frame.pixel(x: $0, y: y) } })
    }

    @Test("a quarter turn about the anchor puts the left half on top, pixel for pixel, sublayers turning with it")
    func quarterTurn() throws {
        var layer = Self.halves()
        layer.transform.rotationZ = .pi / 2
        let frame = try render([layer])
        #expect(rows(frame, 2..<4, x: 2..<6) == [Self.red])
        #expect(rows(frame, 4..<6, x: 2..<6) == [Self.blue])
        #expect(rows(frame, 0..<2, x: 0..<8) == [.black] && rows(frame, 6..<8, x: 0..<8) == [.black])
    }

    @Test("a mask turns with its layer")
    func maskTurns() throws {
        var layer = Layer(frame: Rect(x: 2, y: 2, width: 4, height: 4), backgroundColor: .white)
        layer.mask = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 4), backgroundColor: .white)
        layer.transform.rotationZ = .pi / 2
        let frame = try render([layer])
        #expect(rows(frame, 2..<4, x: 2..<6) == [.white])
        #expect(rows(frame, 4..<6, x: 2..<6) == [.black])
    }

    @Test("the anchor point is the pivot: a quarter turn about the top-left corner swings the layer left of it")
    func anchorPivot() throws {
        var layer = Layer(frame: Rect(x: 4, y: 0, width: 4, height: 2), backgroundColor: .white)
        layer.anchorPoint = .zero
        layer.position = Point(x: 4, y: 0)
        layer.transform.rotationZ = .pi / 2
        let frame = try render([layer])
        #expect(rows(frame, 0..<4, x: 2..<4) == [.white])
        #expect(rows(frame, 0..<8, x: 4..<8) == [.black] && rows(frame, 4..<8, x: 0..<8) == [.black])
    }

    @Test("a sublayer transform scales the sublayers about the superlayer's anchor point")
    func sublayerTransform() throws {
        var parent = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
        var child = Layer(frame: Rect(x: 3, y: 3, width: 2, height: 2), backgroundColor: .white)
        // Nearest: each pixel doubled, no fading edge.
        child.magnificationFilter = .nearest
        parent.sublayers = [child]
        parent.sublayerTransform.scale = 2
        let frame = try render([parent])
        #expect(rows(frame, 2..<6, x: 2..<6) == [.white])
        #expect(rows(frame, 0..<2, x: 0..<8) == [.black] && rows(frame, 6..<8, x: 0..<8) == [.black])
        // A translation-only sublayer transform moves them, drawn in place.
        parent.sublayerTransform = LayerTransform()
        parent.sublayerTransform.translation = Point(x: -3, y: 1)
        let moved = try render([parent])
        #expect(rows(moved, 4..<6, x: 0..<2) == [.white])
        #expect(rows(moved, 0..<4, x: 0..<8) == [.black])
    }

    @Test("a scale of 0 has no inverse and draws nothing, as in Core Animation; a huge scale fills the board, clipped")
    func degenerateAndHuge() throws {
        var layer = Self.halves()
        layer.transform.scaleX = 0
        #expect(rows(try render([layer]), 0..<8, x: 0..<8) == [.black])
        layer.transform.scaleX = 100_000
        layer.transform.scaleY = 100_000
        layer.magnificationFilter = .nearest
        let huge = try render([layer])
        // The seam of red and blue stays in the middle; each pixel is 100,000 wide now.
        #expect(rows(huge, 0..<8, x: 0..<4) == [Self.red] && rows(huge, 0..<8, x: 4..<8) == [Self.blue])
    }

    @Test("perspective: a layer 50 px nearer at m34 = -1/100 draws twice its size; at -1/10 it is behind the viewer")
    func perspectiveAndBehind() throws {
        var layer = Layer(frame: Rect(x: 3, y: 3, width: 2, height: 2), backgroundColor: .white)
        // The anchor 50 px behind the plane puts the plane 50 px in front of it.
        layer.anchorPointZ = -50
        layer.transform.perspective = 100
        layer.magnificationFilter = .nearest
        let near = try render([layer])
        #expect(rows(near, 2..<6, x: 2..<6) == [.white])
        #expect(rows(near, 0..<2, x: 0..<8) == [.black])
        layer.transform.perspective = 10
        #expect(rows(try render([layer]), 0..<8, x: 0..<8) == [.black])
    }

    @Test("a full turn draws a gradient within a level of the untransformed one")
    func fullTurn() throws {
        var layer = Layer(
            content: .gradient(
                Gradient(ramp: ColorRamp(colors: [.black, .white, Self.red]), startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1))),
            frame: Rect(x: 1, y: 1, width: 6, height: 6))
        let plain = try render([layer])
        layer.transform.rotationZ = 2 * .pi
        let turned = try render([layer])
        #expect(zip(plain.pixels, turned.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }
}
