import SignGraphics
import SignTiming
import Testing

@testable import SignScene

/// Whatever a config's animations or a client make of a layer's geometry (huge, tiny, not a
/// number), drawing clamps it to the board before it becomes a pixel index: no value traps.
@Suite("Extreme geometry")
struct ExtremeGeometryTests {
    static let fonts = try! FontLibrary()
    static let extremes: [Double] = [1e308, -1e308, 1e18, -1e18, .infinity, -.infinity, .nan, 4e9, -4e9, 1e-300]

    /// One layer of every content kind, with a sublayer and a mask, so each drawing path runs.
    static func layers() -> [Layer] {
        let frame = Rect(x: 1, y: 1, width: 10, height: 5)
        let image = ImageBitmap(width: 2, height: 2, straightRGBA: [UInt8](repeating: 200, count: 16))
        var text = Layer(id: "text", content: .text(TextContent(text: "Hi", repeatGap: 4)), frame: frame)
        text.motion = .smooth
        var pixelText = Layer(id: "pixel", content: .text(TextContent(text: "Hi")), frame: frame)
        pixelText.motion = .pixel
        var plain = Layer(id: "plain", frame: frame, backgroundColor: .white, cornerRadius: 2, masksToBounds: true)
        plain.borderWidth = 1
        plain.borderColor = .white
        plain.sublayers = [Layer(id: "sub", frame: Rect(x: 0, y: 0, width: 4, height: 4), backgroundColor: .white)]
        var masked = Layer(id: "masked", frame: frame, backgroundColor: .white)
        masked.mask = Layer(id: "mask", frame: Rect(x: 0, y: 0, width: 5, height: 5), backgroundColor: .white)
        return [
            text, pixelText, plain, masked,
            Layer(
                id: "gradient",
                content: .gradient(
                    Gradient(
                        ramp: ColorRamp(colors: [.black, .white]), startPoint: Point(x: 0, y: 0.5),
                        endPoint: Point(x: 1, y: 0.5))), frame: frame),
            Layer(
                id: "shape",
                content: .shape(
                    ShapeContent(
                        path: RoundedRect(rect: Rect(x: 0, y: 0, width: 10, height: 5), cornerRadius: 2),
                        fill: .color(.white), stroke: .color(.white), lineWidth: 1)), frame: frame),
            Layer(id: "image", content: .image(ImageContent(source: "x.png", bitmap: image)), frame: frame),
            Layer(
                id: "nearest", content: .image(ImageContent(source: "x.png", bitmap: image, scaling: .nearest)),
                frame: frame),
        ]
    }

    static func value(_ property: LayerProperty, _ v: Double) -> AnimatableValue {
        switch property.kind {
        case .number: return .number(v)
        case .point: return .point(Point(x: v, y: v))
        case .size: return .size(Size(width: v, height: v))
        case .rect: return .rect(Rect(x: 0, y: 0, width: v, height: v))
        case .path: return .path(RoundedRect(rect: Rect(x: v, y: v, width: v, height: v), cornerRadius: v))
        case .numbers: return .numbers([v, 1])
        case .color: return .color(SIMD4(v, v, v, v))
        case .colors: return .colors([SIMD4(v, 0, 0, 1), SIMD4(0, v, 0, 1)])
        }
    }

    @Test("every property at every extreme value renders without trapping", arguments: LayerProperty.allCases)
    func extremeProperty(property: LayerProperty) throws {
        for v in Self.extremes {
            let layers = Self.layers().map { layer -> Layer in
                var changed = layer
                changed[property] = Self.value(property, v)
                if var sub = changed.sublayers.first {
                    sub[property] = Self.value(property, v)
                    changed.sublayers[0] = sub
                }
                return changed
            }
            let scene = Scene(width: 16, height: 8, layers: layers.map { .layer($0) })
            let frame = Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: 0)
            #expect(frame.width == 16)
        }
    }

    @Test("a marquee animated to extreme positions renders without trapping")
    func extremeAnimation() throws {
        for v in Self.extremes {
            var layer = Layer(
                id: "moving", content: .text(TextContent(text: "Moving", repeatGap: 3)),
                frame: Rect(x: 0, y: 0, width: 12, height: 8))
            layer.animations = [
                .property(
                    LayerPropertyAnimation(
                        keyPath: .translationX, motion: .basic(BasicValues(from: .number(0), to: .number(v))),
                        timing: MediaTiming(duration: 1))),
                .property(
                    LayerPropertyAnimation(
                        keyPath: .position, motion: .basic(BasicValues(by: .point(Point(x: v, y: v)))),
                        timing: MediaTiming(duration: 1), isAdditive: true)),
            ]
            let scene = Scene(width: 16, height: 8, layers: [.layer(layer)])
            let prepared = try PreparedScene(scene, beginTime: 0, fonts: Self.fonts)
            for t in [0.0, 0.5, 0.999] {
                #expect(Renderer.render(prepared, at: t).width == 16)
            }
        }
    }
}
