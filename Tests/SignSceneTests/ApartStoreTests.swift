import SignGraphics
import SignTiming
import Testing

@testable import SignScene

/// A resampled layer's drawing apart is kept while only its placement changes (as Core
/// Animation samples a layer rasterised once), and drawn again when what it draws changes.
@Suite("Drawings apart kept")
struct ApartStoreTests {
    static let fonts = try! FontLibrary()

    /// An orange badge with a sublayer, turned 10 degrees, with `animations`.
    static func badge(_ animations: [LayerAnimation]) -> Layer {
        var layer = Layer(
            frame: Rect(x: 4, y: 2, width: 14, height: 7), backgroundColor: Color(red: 255, green: 90, blue: 0))
        layer.sublayers = [Layer(frame: Rect(x: 3, y: 2, width: 4, height: 3), backgroundColor: .white)]
        layer.transform.rotationZ = 10 * .pi / 180
        layer.animations = animations
        return layer
    }

    static func animation(_ property: LayerProperty, from: AnimatableValue, to: AnimatableValue) -> LayerAnimation {
        .property(
            LayerPropertyAnimation(
                keyPath: property, motion: .basic(BasicValues(from: from, to: to)),
                timing: MediaTiming(duration: 1, repeatCount: .infinity)))
    }

    /// Draws `layer` on a 24 x 12 board at each time with one compositor; returns the
    /// drawings apart made per frame. Each frame must equal one drawn afresh.
    func fillsPerFrame(_ layer: Layer, times: [Double]) throws -> [Int] {
        let scene = Scene(width: 24, height: 12, layers: [.layer(layer)])
        let prepared = try PreparedScene(scene, beginTime: 0, fonts: Self.fonts)
        let tree = try PreparedLayer(layer, fonts: Self.fonts)
        let compositor = Compositor(width: 24, height: 12)
        var fills: [Int] = []
        for t in times {
            var frame = Frame(width: 24, height: 12)
            compositor.begin([(tree, t)])
            compositor.draw(tree, at: t)
            compositor.finish(over: .black, into: &frame)
            fills.append(compositor.aparts.fills)
            #expect(frame == Renderer.render(prepared, at: t), "t = \(t)")
        }
        return fills
    }

    @Test("a layer that only turns, moves and fades is drawn apart once, then resampled from the kept drawing")
    func keptWhilePlacementAnimates() throws {
        let layer = Self.badge([
            Self.animation(.rotationZ, from: .number(0.1), to: .number(3)),
            Self.animation(.position, from: .point(Point(x: 8, y: 5)), to: .point(Point(x: 15, y: 6))),
            Self.animation(.opacity, from: .number(0.3), to: .number(1)),
        ])
        #expect(try fillsPerFrame(layer, times: [0, 0.1, 0.45, 0.8]) == [1, 0, 0, 0])
    }

    @Test("a layer whose own drawing animates (its background colour) is drawn apart every frame")
    func drawnAgainWhenContentAnimates() throws {
        let layer = Self.badge([
            Self.animation(.rotationZ, from: .number(0.1), to: .number(3)),
            Self.animation(.backgroundColor, from: .color(SIMD4(1, 1, 1, 1)), to: .color(SIMD4(0, 0, 1, 1))),
        ])
        #expect(try fillsPerFrame(layer, times: [0, 0.1, 0.45]) == [0, 0, 0])
    }

    @Test("a layer whose sublayer animates is drawn apart every frame, not kept")
    func drawnAgainWhenSublayerAnimates() throws {
        var layer = Self.badge([Self.animation(.rotationZ, from: .number(0.1), to: .number(3))])
        layer.sublayers[0].animations = [Self.animation(.opacity, from: .number(0), to: .number(1))]
        #expect(try fillsPerFrame(layer, times: [0, 0.3, 0.6]) == [0, 0, 0])
    }
}
