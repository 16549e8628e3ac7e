import SignGraphics
import SignTiming
import Testing

@testable import SignScene

/// Which static top-level layers a frame starts from, composited once.
@Suite("StillLayers")
struct StillLayersTests {
    static let fonts = try! FontLibrary()

    /// Layers given as (static?, box or nil): the indices chosen.
    func choose(_ layers: [(Bool, StillLayers.Box?)]) -> [Int] {
        var chosen: [Int] = [], blockers: [StillLayers.Box] = []
        StillLayers.choose(
            count: layers.count, isStill: { layers[$0].0 }, box: { layers[$0].1 }, into: &chosen, blockers: &blockers)
        return chosen
    }

    @Test("static layers join while nothing that moves below them reaches their pixels")
    func choice() {
        let top: StillLayers.Box = (0, 0, 16, 4), bottom: StillLayers.Box = (2, 5, 14, 8)
        #expect(
            choose([(true, (0, 0, 16, 8)), (false, top), (true, bottom)]) == [0, 2], "the border beside the marquee")
        #expect(
            choose([(true, (0, 0, 16, 8)), (false, (0, 0, 16, 6)), (true, bottom)]) == [0], "the marquee reaches it")
        #expect(choose([(false, nil), (true, bottom)]) == [], "a layer whose reach is unknown keeps all above it out")
        #expect(
            choose([(false, top), (true, (0, 2, 4, 4)), (true, (3, 3, 8, 8))]) == [],
            "a static layer left out blocks too")
        #expect(choose([(false, top), (true, (0, 0, 0, 0))]) == [1], "one that draws nothing joins")
    }

    @Test(
        "contains answers rightly in any order, for a few layers and for many (looked up, not searched along the list)",
        arguments: [3, 40])
    func contains(count: Int) throws {
        let layers = try (0..<count).map { i in
            try PreparedLayer(
                Layer(frame: Rect(x: Double(i), y: 0, width: 1, height: 1), backgroundColor: .white), fonts: Self.fonts)
        }
        let others = try (0..<3).map { _ in
            try PreparedLayer(Layer(frame: Rect(x: 0, y: 0, width: 1, height: 1)), fonts: Self.fonts)
        }
        let still = StillLayers(layers: layers, canvas: Canvas(width: 1, height: 1))
        for _ in 0..<2 {
            // In drawing order, with layers that are not still between them, twice over.
            for (i, layer) in layers.enumerated() {
                #expect(still.contains(layer), "layer \(i)")
                #expect(!still.contains(others[i % others.count]))
            }
        }
        for i in [count - 1, 0, count / 2, count / 2, 1] { #expect(still.contains(layers[i]), "out of order: \(i)") }
        #expect(others.allSatisfy { !still.contains($0) })
    }

    /// A white 4x4 square moving from x 2 to 14 over the first second, in a 16x4 band at `y`
    /// that clips it (so its reach is known).
    static func band(y: Double) -> Layer {
        var square = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 4), backgroundColor: .white)
        square.animations = [
            .property(
                PropertyAnimation(
                    keyPath: .positionX, motion: .basic(BasicValues(from: .number(2), to: .number(14))),
                    timing: MediaTiming(duration: 1)))
        ]
        var band = Layer(frame: Rect(x: 0, y: y, width: 16, height: 4), sublayers: [square])
        band.masksToBounds = true
        return band
    }

    /// A 16x8 board: a static red box at the bottom right over a white 4x4 square that moves
    /// in a band (clipped to it, so its reach is known) across the bottom rows
    /// (`overlapping`, under the box) or the top ones.
    func scene(overlapping: Bool) throws -> PreparedScene {
        let red = Layer(
            frame: Rect(x: 8, y: 4, width: 6, height: 4), backgroundColor: Color(red: 255, green: 0, blue: 0))
        let band = Self.band(y: overlapping ? 4 : 0)
        let back = Layer(
            frame: Rect(x: 0, y: 0, width: 16, height: 8), backgroundColor: Color(red: 0, green: 0, blue: 60))
        let prepared = try PreparedScene(
            Scene(width: 16, height: 8, layers: [.layer(back), .layer(band), .layer(red)]), beginTime: 0,
            fonts: Self.fonts)
        #expect(prepared.slots[1].drawing(at: 0).tree.extent != nil, "the band's reach is known")
        return prepared
    }

    @Test("a still layer drawn first shows the same frames; one a moving layer passes under stays above it")
    func frames() throws {
        for overlapping in [false, true] {
            let scene = try scene(overlapping: overlapping)
            let renderer = Renderer(width: 16, height: 8)
            var frame = Frame(width: 16, height: 8)
            for k in 0...10 {
                let t = Double(k) / 10
                renderer.render(scene, at: t, into: &frame)
                // The red box is static and above the square: where both are, it is red.
                #expect(frame.pixel(x: 9, y: 5) == Color(red: 255, green: 0, blue: 0), "t \(t)")
                #expect(frame == Renderer.render(scene, at: t))
            }
            renderer.render(scene, at: 0.5, into: &frame)
            // At 0.5 s the square spans x 6..<10: on the top rows, or behind the red box.
            #expect(frame.pixel(x: 7, y: overlapping ? 5 : 1) == .white)
        }
    }

    @Test("a frame whose still layers are other trees than the last frame's, as many of them, starts from them")
    func otherStillTrees() throws {
        // The same moving band between two static layers, the first or the last of them
        // another: each scene has as many layers as the others and its still ones are chosen
        // the same way, so only their identity tells them apart. The other layers draw less
        // than the ones they replace, so a board started from the wrong ones shows it.
        func scene(back: Color?, box: Rect) throws -> PreparedScene {
            let layers: [SceneLayer] = [
                .layer(Layer(frame: Rect(x: 0, y: 0, width: 16, height: 8), backgroundColor: back)),
                .layer(Self.band(y: 0)),
                .layer(Layer(frame: box, backgroundColor: Color(red: 255, green: 0, blue: 0))),
            ]
            return try PreparedScene(Scene(width: 16, height: 8, layers: layers), beginTime: 0, fonts: Self.fonts)
        }
        let navy = Color(red: 0, green: 0, blue: 60), box = Rect(x: 8, y: 4, width: 6, height: 4)
        let scenes = try [
            scene(back: navy, box: box), scene(back: nil, box: box),
            scene(back: navy, box: Rect(x: 8, y: 4, width: 2, height: 2)),
        ]
        let renderer = Renderer(width: 16, height: 8)
        var frame = Frame(width: 16, height: 8)
        for (k, i) in [0, 0, 1, 1, 0, 2, 2, 0].enumerated() {
            let t = Double(k) / 10
            renderer.render(scenes[i], at: t, into: &frame)
            #expect(frame == Renderer.render(scenes[i], at: t), "frame \(k), scene \(i)")
        }
    }
}
