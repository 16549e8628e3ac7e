import SignGraphics
import SignTiming
import Testing

@testable import SignScene

@Suite("Shape layers with path data")
struct ShapeLayerTests {
    static let fonts = try! FontLibrary()

    func scene(_ layers: [Layer]) throws -> PreparedScene {
        try PreparedScene(
            Scene(width: 40, height: 24, layers: layers.map { .layer($0) }), beginTime: 0, fonts: Self.fonts)
    }

    func ring(strokeEnd: Double = 1, lineWidth: Double = 3, phase: Double = 0, dashes: [Double] = []) throws -> Layer {
        var shape = ShapeContent(path: RoundedRect(rect: .zero), stroke: .color(.white), lineWidth: lineWidth)
        shape.pathData = try PathData.parse("M20 2A10 10 0 1 1 20 22A10 10 0 1 1 20 2")
        shape.strokeStyle.strokeEnd = strokeEnd
        shape.strokeStyle.lineCap = .round
        shape.strokeStyle.lineDashPattern = dashes
        shape.strokeStyle.lineDashPhase = phase
        return Layer(content: .shape(shape), frame: Rect(x: 0, y: 0, width: 40, height: 24))
    }

    func animated(_ layer: Layer, _ key: LayerProperty, from: AnimatableValue, to: AnimatableValue) -> Layer {
        var layer = layer
        layer.animations = [
            .property(
                PropertyAnimation(
                    keyPath: key, motion: .basic(BasicValues(from: from, to: to)),
                    timing: MediaTiming(duration: 60, repeatCount: .infinity)))
        ]
        return layer
    }

    @Test(
        "an animated strokeEnd, lineWidth or lineDashPhase draws each frame what the still shape with that value draws",
        arguments: [
            (LayerProperty.strokeEnd, 0.0, 1.0),
            (LayerProperty.lineWidth, 1.0, 5.0),
            (LayerProperty.lineDashPhase, 0.0, 30.0),
        ])
    func animatedEqualsStill(_ key: LayerProperty, _ from: Double, _ to: Double) throws {
        let base = try ring(dashes: key == .lineDashPhase ? [4, 3] : [])
        let moving = try scene([animated(base, key, from: .number(from), to: .number(to))])
        let renderer = Renderer(width: 40, height: 24)
        var frame = Frame(width: 40, height: 24)
        for t in [0.0, 7.5, 15, 22.5, 45, 59] {
            renderer.render(moving, at: t, into: &frame)
            var still = base
            still[number: key] = from + (to - from) * t / 60
            let expected = Renderer.render(try scene([still]), at: 0)
            #expect(frame == expected, "\(key.keyPath) at \(t) s")
        }
    }

    @Test("strokeEnd 0.5 of a ring from twelve o'clock clockwise draws its right half only")
    func halfRing() throws {
        let frame = Renderer.render(try scene([try ring(strokeEnd: 0.5)]), at: 0)
        #expect(frame.pixel(x: 30, y: 12) == .white)
        #expect(frame.pixel(x: 10, y: 12) == .black)
        let nothing = Renderer.render(try scene([try ring(strokeEnd: 0)]), at: 0)
        #expect(nothing.pixels.allSatisfy { $0 == 0 })
    }

    @Test("a path animated between paths of the same elements is drawn point by point between them")
    func pathMorph() throws {
        var shape = ShapeContent(path: RoundedRect(rect: .zero), fill: .color(.white))
        let a = try PathData.parse("M2 2H10V10H2Z"), b = try PathData.parse("M20 4H38V22H20Z")
        shape.pathData = a
        let layer = Layer(content: .shape(shape), frame: Rect(x: 0, y: 0, width: 40, height: 24))
        let moving = try scene([animated(layer, .path, from: .pathData(a), to: .pathData(b))])
        var halfway = shape
        halfway.pathData = a.interpolated(to: b, fraction: 0.5)
        let still = Layer(content: .shape(halfway), frame: layer.frame)
        #expect(Renderer.render(moving, at: 30) == Renderer.render(try scene([still]), at: 0))
        #expect(Renderer.render(moving, at: 30).pixel(x: 15, y: 10) == .white)
    }

    @Test("key paths strokeStart, strokeEnd, lineDashPhase and miterLimit read and write the shape's stroke")
    func keyPaths() throws {
        var layer = try ring()
        for (key, v) in [("strokeStart", 0.2), ("strokeEnd", 0.7), ("lineDashPhase", 3.0), ("miterLimit", 4.0)] {
            layer[keyPath: key] = .number(v)
            #expect(layer[keyPath: key] == .number(v))
        }
        guard case .shape(let s) = layer.content else { throw Failure() }
        #expect(
            [s.strokeStyle.strokeStart, s.strokeStyle.strokeEnd, s.strokeStyle.lineDashPhase, s.strokeStyle.miterLimit]
                == [0.2, 0.7, 3, 4])
        #expect(layer[keyPath: "path"]?.pathData != nil)
    }

    struct Failure: Error {}
}
