import SignScene
import Testing

@testable import SignConfig

@Suite("Replicators in the config")
struct ReplicatorConfigTests {
    @Test("a replicator's instance keys become its Replicator; the instance transform is a transform table")
    func keys() throws {
        let source = """
            [[layer]]
            type = "replicator"
            instance_count = 12
            instance_transform = { translation = [6, 0], rotation = 30 }
            instance_delay = 0.1
            instance_color = "#ff8000"
            instance_green_offset = 0.05
            instance_alpha_offset = -0.1
            """
        let config = try ConfigLoader.parse(source, file: "t.toml", fonts: nil)
        guard case .layer(let layer) = config.layers[0], let r = layer.replicator else {
            Issue.record("a replicator layer is a layer with a replicator")
            return
        }
        #expect(r.instanceCount == 12 && r.instanceDelay == 0.1)
        #expect(r.instanceTransform.translation == .init(x: 6, y: 0) && abs(r.instanceTransform.rotationZ - .pi / 6) < 1e-15)
        #expect(r.instanceColor == SIMD4(1, 128.0 / 255, 0, 1) && r.colorOffset == SIMD4(0, 0.05, 0, -0.1))
    }

    @Test("instance_count is bounded and said so; a bad instance transform is refused at its line")
    func bounds() {
        let source = """
            [[layer]]
            type = "replicator"
            instance_count = 100000
            instance_transform = { scale = nan }
            instance_red_offset = 2
            """
        #expect(
            configProblems(source) == [
                "t.toml:3: layer[0].instance_count: must be a whole number from 1 to 256 (each instance draws the sublayers again)",
                "t.toml:4: layer[0].instance_transform.scale: nan is not a finite number from -100000 to 100000",
                "t.toml:5: layer[0].instance_red_offset: 2.0 is out of range -1.0...1.0",
            ])
    }
}
