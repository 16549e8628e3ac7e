import Foundation
import SignGraphics
import SignTiming
import TestSupport
import Testing

@testable import SignScene

/// The shadow of a transformed layer as Core Animation casts it: made from the layer's
/// projected alpha, offset and blurred in its superlayer's pixels (the offset does not turn
/// with the layer, the blur is not scaled with it), so it turns with the layer and reaches
/// past its bounds. Checked against cairo projecting the same layer and a Gaussian blurring
/// its alpha (tools/shadow-reference.py, pycairo).
@Suite("Shadows of transformed layers")
struct ShadowTransformTests {
    static let fonts = try! FontLibrary()
    static let red = Color(red: 255, green: 0, blue: 0)

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let angle: Double
        let scale: Double
        let size: (width: Int, height: Int)
        let color: Color
        let radius: Double
        let offset: Size
        let opacity: Double
        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "a glow around a layer turned 30° and enlarged 1.5", angle: 30, scale: 1.5, size: (10, 6),
            color: red, radius: 2, offset: .zero, opacity: 1),
        Case(
            name: "a soft shadow offset (3, 2) of a layer turned -50° and shrunk 0.8", angle: -50, scale: 0.8,
            size: (12, 8), color: Color(red: 80, green: 120, blue: 255), radius: 1.5, offset: Size(width: 3, height: 2),
            opacity: 0.8),
        Case(
            name: "a hard shadow offset (4, 0) of a layer turned 90°", angle: 90, scale: 1, size: (10, 4),
            color: red, radius: 0, offset: Size(width: 4, height: 0), opacity: 1),
    ]

    static let board = (width: 48, height: 32)
    static let position = Point(x: 23.5, y: 16.25)
    static let layerColor = Color(red: 0, green: 200, blue: 80)

    static func layer(_ c: Case) -> Layer {
        let (w, h) = (Double(c.size.width), Double(c.size.height))
        var layer = Layer(
            frame: Rect(x: position.x - w / 2, y: position.y - h / 2, width: w, height: h), backgroundColor: layerColor)
        layer.transform.rotationZ = c.angle * .pi / 180
        layer.transform.scale = c.scale
        (layer.shadowColor, layer.shadowRadius, layer.shadowOffset, layer.shadowOpacity) = (
            c.color, c.radius, c.offset, c.opacity
        )
        return layer
    }

    static func render(_ layers: [Layer], width: Int = board.width, height: Int = board.height) throws -> Frame {
        let scene = Scene(width: width, height: height, layers: layers.map { .layer($0) })
        return Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: fonts), at: 0)
    }

    static func reference(_ c: Case) throws -> [UInt8] {
        let job: [String: Any] = [
            "width": board.width, "height": board.height,
            "layer": [
                "width": c.size.width, "height": c.size.height,
                "color": [Int(layerColor.red), Int(layerColor.green), Int(layerColor.blue)],
            ],
            "angle": c.angle, "scale": c.scale, "position": [position.x, position.y],
            "anchor": [Double(c.size.width) / 2, Double(c.size.height) / 2],
            "shadow": [
                "color": [Int(c.color.red), Int(c.color.green), Int(c.color.blue)], "opacity": c.opacity,
                "radius": c.radius, "offset": [c.offset.width, c.offset.height],
            ],
        ]
        let output = try ReferenceScript("shadow-reference.py").run(
            input: try JSONSerialization.data(withJSONObject: job))
        return try #require(try JSONSerialization.jsonObject(with: output) as? [Int]).map { UInt8($0) }
    }

    @Test("the shadow is made from the projected layer, in the board's pixels: within a level of cairo's", arguments: cases)
    func matchesReference(_ c: Case) throws {
        let frame = try Self.render([Self.layer(c)])
        let reference = try Self.reference(c)
        try #require(reference.count == frame.pixels.count)
        let total = zip(frame.pixels, reference).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        let mean = Double(total) / Double(reference.count)
        #expect(mean <= 1, "mean absolute difference \(mean)")

        // The shadow reaches past the layer's turned bounds: lit pixels outside the box of its
        // projected corners, in the frame as in the reference.
        let l = Self.layer(c)
        let (w, h) = (Double(c.size.width) * c.scale, Double(c.size.height) * c.scale)
        let turn = c.angle * .pi / 180
        let halfX = (abs(cos(turn)) * w + abs(sin(turn)) * h) / 2, halfY = (abs(sin(turn)) * w + abs(cos(turn)) * h) / 2
        var outside = 0
        for y in 0..<Self.board.height {
            for x in 0..<Self.board.width {
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                guard abs(px - l.position.x) > halfX + 1 || abs(py - l.position.y) > halfY + 1 else { continue }
                if frame.pixel(x: x, y: y) != .black { outside += 1 }
            }
        }
        #expect(outside > 10, "pixels lit outside the turned layer's box: \(outside)")
    }

    @Test("the offset is the board's: a layer turned 90° with offset (4, 0) casts its shadow to the right, not down")
    func offsetDoesNotTurn() throws {
        var layer = Layer(frame: Rect(x: 10, y: 10, width: 4, height: 4), backgroundColor: .white)
        layer.transform.rotationZ = .pi / 2
        (layer.shadowColor, layer.shadowRadius, layer.shadowOffset, layer.shadowOpacity) = (
            Self.red, 0, Size(width: 4, height: 0), 1
        )
        let frame = try Self.render([layer], width: 24, height: 24)
        for y in 10..<14 {
            #expect(frame.pixel(x: 12, y: y) == .white, "y \(y)")
            #expect(frame.pixel(x: 15, y: y) == Self.red, "y \(y)")
            #expect(frame.pixel(x: 18, y: y) == .black, "y \(y)")
        }
        // Nothing below, where the offset turned with the layer would put it.
        for x in 10..<14 { #expect(frame.pixel(x: x, y: 16) == .black, "x \(x)") }
    }

    @Test("a shadow path is in the layer's coordinates: it turns with the layer")
    func shadowPathTurns() throws {
        // A 4x4 layer that draws nothing, turned 90° clockwise about its middle (12, 12): its
        // top edge (a 4x1 bar along y 0..1 in its coordinates) lands along x 13..14.
        var layer = Layer(frame: Rect(x: 10, y: 10, width: 4, height: 4))
        layer.transform.rotationZ = .pi / 2
        (layer.shadowColor, layer.shadowRadius, layer.shadowOffset, layer.shadowOpacity) = (
            Self.red, 0, Size(width: 0, height: 0), 1
        )
        layer.shadowPath = try PathData.parse("M 0 0 H 4 V 1 H 0 Z")
        let frame = try Self.render([layer], width: 24, height: 24)
        for y in 10..<14 {
            #expect(frame.pixel(x: 13, y: y) == Self.red, "y \(y)")
            #expect(frame.pixel(x: 12, y: y) == .black, "y \(y)")
        }
        // Not along the top, where the path would lie unturned.
        #expect(frame.pixel(x: 11, y: 10) == .black)
    }

    /// The shadows blurred per frame drawing `layer` with one compositor, each frame checked
    /// against one drawn afresh (`LayerShadowTests.blursPerFrame`).
    func blursPerFrame(_ layer: Layer, width: Int, height: Int, times: [Double]) throws -> [Int] {
        try LayerShadowTests().blursPerFrame(layer, width: width, height: height, times: times)
    }

    /// A white 8x8 square at (8, 4) turned `angle` radians about its middle, with a red shadow.
    static func square(turnedBy angle: Double, radius: Double, offset: Size) -> Layer {
        var layer = Layer(frame: Rect(x: 8, y: 4, width: 8, height: 8), backgroundColor: .white)
        layer.transform.rotationZ = angle
        (layer.shadowColor, layer.shadowRadius, layer.shadowOffset, layer.shadowOpacity) = (Self.red, radius, offset, 1)
        return layer
    }

    static func spinning(_ keyPath: LayerProperty, perspective: Double = 0) -> Layer {
        var layer = square(turnedBy: 0, radius: 1.5, offset: .zero)
        layer.transform.perspective = perspective
        layer.animations = [
            .property(
                LayerPropertyAnimation(
                    keyPath: keyPath, motion: .basic(BasicValues(from: .number(0), to: .number(2 * .pi))),
                    timing: MediaTiming(duration: 2, repeatCount: .infinity)))
        ]
        return layer
    }

    @Test("a turning layer's shadow is made again each frame from its projected alpha; its glow turns with it")
    func turningLayer() throws {
        let times = [0.1, 0.3, 0.55, 0.8]
        #expect(try blursPerFrame(Self.spinning(.rotationZ), width: 24, height: 16, times: times) == [1, 1, 1, 1])
        #expect(
            try blursPerFrame(Self.spinning(.rotationY, perspective: 40), width: 24, height: 16, times: times) == [
                1, 1, 1, 1,
            ])
        // At an eighth of a turn the square (x 8..16, y 4..12) is a diamond: its top corner
        // covers (12, 3), above the unturned top, and its old corner (8, 4) holds only glow.
        let scene = Scene(width: 24, height: 16, layers: [.layer(Self.spinning(.rotationZ))])
        let frame = Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: 0.25)
        #expect(frame.pixel(x: 12, y: 3).green > 150)
        #expect(frame.pixel(x: 8, y: 4).green == 0)
        #expect(frame.pixel(x: 8, y: 4).red > 20)
    }

    @Test("a turned layer whose only animation is its opacity keeps its shadow: blurred once, then reused")
    func keptPerPlacement() throws {
        var layer = Self.square(turnedBy: 0.5, radius: 2, offset: Size(width: 1, height: 1))
        layer.animations = [
            .property(
                LayerPropertyAnimation(
                    keyPath: .opacity, motion: .basic(BasicValues(from: .number(0.3), to: .number(1))),
                    timing: MediaTiming(duration: 1, repeatCount: .infinity, autoreverses: true)))
        ]
        #expect(try blursPerFrame(layer, width: 24, height: 16, times: [0, 0.2, 0.5, 0.9]) == [1, 0, 0, 0])
    }

    @Test("masksToBounds still cuts a turned layer's shadow to its bounds, in its plane")
    func clippedTurned() throws {
        let layer = Self.square(turnedBy: 0.5, radius: 2, offset: Size(width: 3, height: 0))
        var clipped = layer
        clipped.masksToBounds = true
        var plain = layer
        plain.shadowOpacity = 0
        // Opaque white over its shadow: clipped to the bounds, the shadow does not show.
        #expect(try Self.render([clipped], width: 24, height: 16) == Self.render([plain], width: 24, height: 16))
        #expect(try Self.render([layer], width: 24, height: 16) != Self.render([plain], width: 24, height: 16))
    }
}
