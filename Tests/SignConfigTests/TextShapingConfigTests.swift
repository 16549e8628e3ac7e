import SignGraphics
import SignScene
import Testing

@testable import SignConfig

/// `direction`, `font_features` and `scroll_direction` as a config writes them.
@Suite("Text shaping config")
struct TextShapingConfigTests {
    @Test("a marquee reads direction, font_features and scroll_direction")
    func marqueeKeys() throws {
        let config = try ConfigLoader.parse(
            """
            [[layer]]
            text = "שלום"
            direction = "rtl"
            font_features = ["-liga", "tnum"]
            scroll_direction = "left"
            """, file: "t.toml", fonts: nil)
        guard case .marquee(let layer) = config.layers[0] else {
            Issue.record("not a marquee")
            return
        }
        #expect(layer.direction == .rtl)
        #expect(layer.features.map(\.text) == ["-liga", "tnum"])
        #expect(layer.marquee.scrollDirection == .left)
    }

    @Test("a text layer reads direction and font_features")
    func textLayerKeys() throws {
        let config = try ConfigLoader.parse(
            """
            [[layer]]
            type = "text"
            text = "abc"
            direction = "ltr"
            font_features = ["ss01=2"]
            """, file: "t.toml", fonts: nil)
        guard case .layer(let layer) = config.layers[0], case .text(let text) = layer.content else {
            Issue.record("not a text layer")
            return
        }
        #expect(text.direction == .ltr)
        #expect(text.features.map(\.text) == ["ss01=2"])
    }

    @Test("a feature HarfBuzz cannot read and an unknown direction are problems at their line")
    func badFeature() {
        let problems = configProblems(
            """
            [[layer]]
            text = "abc"
            font_features = ["-liga", "=kern"]
            direction = "up"
            scroll_direction = "down"
            """)
        #expect(problems.count == 3)
        #expect(problems.contains { $0.hasPrefix("t.toml:3: layer[0].font_features: \"=kern\" is not an OpenType feature") })
        #expect(problems.contains { $0.hasPrefix("t.toml:4: layer[0].direction: \"up\" is not one of") })
        #expect(problems.contains { $0.hasPrefix("t.toml:5: layer[0].scroll_direction: \"down\" is not one of") })
    }
}
