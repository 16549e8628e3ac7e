import SignGraphics
import SignScene
import SignTiming
import Testing

@testable import SignConfig

@Suite("Shadows in the config")
struct ShadowConfigTests {
    @Test(
        "shadow_color, shadow_opacity, shadow_radius and shadow_offset become the layer's shadow; unset, CA's defaults")
    func shadowKeys() throws {
        let source = """
            [[layer]]
            type = "text"
            text = "Hi"
            shadow_color = "#ffaa00"
            shadow_opacity = 0.8
            shadow_radius = 2.5
            shadow_offset = [1, 2]

            [[layer.sublayer]]
            type = "plain"

            [[layer.animation]]
            key_path = "shadowRadius"
            from = 1
            to = 4
            duration = 1
            """
        let config = try ConfigLoader.parse(source, file: "t.toml", fonts: nil)
        guard case .layer(let layer) = config.layers[0] else {
            Issue.record("a text layer is a layer")
            return
        }
        #expect(layer.shadowColor == Color(red: 255, green: 170, blue: 0))
        #expect(layer.shadowOpacity == 0.8)
        #expect(layer.shadowRadius == 2.5)
        #expect(layer.shadowOffset == Size(width: 1, height: 2))
        let sub = layer.sublayers[0]
        #expect(sub.shadowColor == .black && sub.shadowOpacity == 0 && sub.shadowRadius == 3)
        #expect(sub.shadowOffset == Size(width: 0, height: -3))
    }

    @Test(
        "a radius over the cap, a NaN opacity, a bad offset, bad shadow_path data and a radius animated past the cap are refused"
    )
    func refusals() {
        let source = """
            [[layer]]
            type = "plain"
            shadow_radius = 40
            shadow_opacity = nan
            shadow_offset = [1]
            shadow_path = "M0 0 L4"

            [[layer.animation]]
            key_path = "shadowRadius"
            values = [1, 400, 2]
            duration = 1
            """
        #expect(
            configProblems(source) == [
                "t.toml:4: layer[0].shadow_opacity: nan is not a number; expected 0.0 to 1.0",
                "t.toml:3: layer[0].shadow_radius: 40.0 is out of range 0.0...16.0 (pixels, the blur's σ, capped at 16)",
                "t.toml:5: layer[0].shadow_offset: expected [width, height]: finite numbers from -10000 to 10000 pixels (y down)",
                "t.toml:6: layer[0].shadow_path: path data at character 7: expected a number for \"L\", found the end",
                "t.toml:8: layer[0].animation[0]: shadowRadius values must be from 0 to 16 pixels (the blur's σ is capped at 16)",
            ])
    }

    @Test("shadow_path is read as SVG path data, the shadow's shape in the layer's coordinates")
    func shadowPathIsRead() throws {
        let config = try ConfigLoader.parse(
            """
            [[layer]]
            type = "plain"
            shadow_opacity = 1
            shadow_path = "M 2 2 H 10 V 6 H 2 Z"
            """, file: "t.toml", fonts: nil)
        guard case .layer(let layer) = config.layers[0] else {
            Issue.record("a plain layer is a layer")
            return
        }
        #expect(layer.shadowPath == (try PathData.parse("M 2 2 H 10 V 6 H 2 Z")))
    }
}
