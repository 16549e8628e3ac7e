import Foundation
import SignGraphics
import TestSupport
import Testing

@testable import SignScene

/// A transformed layer as signd draws it against cairo's bilinear filter drawing the same
/// pixels through the same rotation and scale (tools/transform-reference.py, pycairo).
@Suite("Transforms against cairo")
struct TransformReferenceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let angle: Double
        let scale: Double
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "rotated 30° and enlarged 1.3", angle: 30, scale: 1.3),
        Case(name: "rotated -20° and shrunk 0.8", angle: -20, scale: 0.8),
        Case(name: "rotated 135° and enlarged 1.7", angle: 135, scale: 1.7),
    ]

    /// A 24 x 16 image: a colour gradient, a checker of 4 px squares, a half-transparent band.
    static func image() -> ImageBitmap {
        let (w, h) = (24, 16)
        var rgba: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w {
                let checker = (x / 4 + y / 4) % 2 == 0
                let r = UInt8(x * 255 / (w - 1)), g = UInt8(y * 255 / (h - 1)), b: UInt8 = checker ? 255 : 20
                rgba += [r, g, b, y >= 12 ? 128 : 255]
            }
        }
        return ImageBitmap(width: w, height: h, straightRGBA: rgba)
    }

    static func cairo(_ c: Case, board: (Int, Int), image: ImageBitmap, position: Point) throws -> [UInt8] {
        let bytes = image.packed.flatMap { p in [p & 255, p >> 8 & 255, p >> 16 & 255, p >> 24].map { Int($0) } }
        let job: [String: Any] = [
            "width": board.0, "height": board.1,
            "source": ["width": image.width, "height": image.height, "pixels": bytes],
            "angle": c.angle, "scale": c.scale, "position": [position.x, position.y],
            "anchor": [Double(image.width) / 2, Double(image.height) / 2],
        ]
        let output = try ReferenceScript("transform-reference.py").run(
            input: try JSONSerialization.data(withJSONObject: job))
        return try #require(try JSONSerialization.jsonObject(with: output) as? [Int]).map { UInt8($0) }
    }

    @Test("the mean difference from cairo over the board is within one level", arguments: cases)
    func matchesCairo(_ c: Case) throws {
        let image = Self.image(), board = (48, 32), position = Point(x: 23.5, y: 16.25)
        var layer = Layer(
            content: .image(ImageContent(source: "pattern", bitmap: image)),
            frame: Rect(
                x: position.x - Double(image.width) / 2, y: position.y - Double(image.height) / 2,
                width: Double(image.width), height: Double(image.height)))
        layer.transform.rotationZ = c.angle * .pi / 180
        layer.transform.scale = c.scale
        let scene = Scene(width: board.0, height: board.1, layers: [.layer(layer)])
        let frame = Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: try FontLibrary()), at: 0)
        let reference = try Self.cairo(c, board: board, image: image, position: position)
        try #require(reference.count == frame.pixels.count)
        let total = zip(frame.pixels, reference).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        let mean = Double(total) / Double(reference.count)
        // Not a blank comparison: the layer covers a good part of the board.
        #expect(reference.filter { $0 > 0 }.count > reference.count / 8)
        #expect(mean <= 1, "mean absolute difference \(mean)")
    }
}
