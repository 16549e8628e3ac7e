import SignGraphics
import SignScene
import Testing

@testable import SignConfig

@Suite("Transforms in the config")
struct TransformConfigTests {
    func firstLayer(_ source: String) throws -> Layer {
        let config = try ConfigLoader.parse(source, file: "t.toml", fonts: nil)
        guard case .layer(let layer) = config.layers[0] else {
            Issue.record("a plain layer is a layer")
            return Layer()
        }
        return layer
    }

    @Test("transform and sublayer_transform tables become their parts, angles in degrees read as radians")
    func parts() throws {
        let layer = try firstLayer(
            """
            [[layer]]
            type = "plain"
            x = 10
            y = 4
            width = 20
            height = 8
            anchor_point = [0, 1]
            anchor_point_z = -5
            magnification_filter = "nearest"
            minification_filter = "trilinear"
            transform = { scale = 1.5, rotation_z = 90, rotation_y = -45, translation = [2, -1], perspective = 300 }
            sublayer_transform = { scale = [2, 0.5], rotation_x = 30 }
            """)
        #expect(layer.transform.scaleX == 1.5 && layer.transform.scaleY == 1.5 && layer.transform.scaleZ == 1.5)
        #expect(abs(layer.transform.rotationZ - .pi / 2) < 1e-15 && abs(layer.transform.rotationY + .pi / 4) < 1e-15)
        #expect(layer.translation == Point(x: 2, y: -1) && layer.transform.perspective == 300)
        #expect(layer.sublayerTransform.scaleX == 2 && layer.sublayerTransform.scaleY == 0.5)
        #expect(abs(layer.sublayerTransform.rotationX - .pi / 6) < 1e-15)
        // The anchor moves the pivot, not the frame: the bottom-left corner is at (10, 12).
        #expect(layer.anchorPoint == Point(x: 0, y: 1) && layer.position == Point(x: 10, y: 12))
        #expect(layer.anchorPointZ == -5)
        #expect(layer.magnificationFilter == .nearest && layer.minificationFilter == .linear)
    }

    @Test("a scale of 0 is accepted (it draws nothing); NaN, infinity, unknown keys and a bad perspective are refused at their lines")
    func refusals() throws {
        #expect(try firstLayer("[[layer]]\ntype = \"plain\"\ntransform = { scale = 0 }").transform.scaleX == 0)
        let source = """
            [[layer]]
            type = "plain"
            transform = { scale = nan, rotation_z = inf }

            [[layer.sublayer]]
            sublayer_transform = { skew = 3, perspective = 0, translation = [1] }
            anchor_point = [0.5, -inf]
            magnification_filter = "cubic"
            """
        #expect(
            configProblems(source) == [
                "t.toml:3: layer[0].transform.scale: nan is not a finite number from -100000 to 100000",
                "t.toml:3: layer[0].transform.rotation_z: inf is not a finite number from -100000 to 100000",
                "t.toml:7: layer[0].sublayer[0].anchor_point: expected [x, y] in the layer's unit square (finite; [0.5, 0.5] is the middle)",
                "t.toml:8: layer[0].sublayer[0].magnification_filter: \"cubic\" is not one of \"linear\", \"nearest\", \"trilinear\"",
                "t.toml:6: layer[0].sublayer[0].sublayer_transform.skew: unknown key (expected one of: perspective, rotation, rotation_x, rotation_y, rotation_z, scale, scale_x, scale_y, scale_z, translation)",
                "t.toml:6: layer[0].sublayer[0].sublayer_transform.translation: expected [x, y], two finite numbers from -100000 to 100000",
                "t.toml:6: layer[0].sublayer[0].sublayer_transform.perspective: the viewer's distance must be more than 0 pixels (m34 = -1 / perspective)",
            ])
    }

    @Test("transform key paths are animatable from the config, rotations in radians as Core Animation's")
    func animatedKeyPaths() throws {
        let layer = try firstLayer(
            """
            [[layer]]
            type = "plain"
            [[layer.animation]]
            key_path = "transform.rotation.z"
            from = 0
            to = 6.283185307179586
            duration = 2
            [[layer.animation]]
            key_path = "transform.scale"
            values = [1, 1.2, 1]
            duration = 1
            """)
        #expect(abs(layer.presentation(at: 0.5).transform.rotationZ - .pi / 2) < 1e-12)
        #expect(abs(layer.presentation(at: 0.5).transform.scaleY - 1.2) < 1e-12)
    }
}
