import SignScene
import SignTiming
import Testing

@testable import SignConfig

@Suite("Layer time in the config")
struct LayerTimeConfigTests {
    @Test(
        "a layer's begin_time, duration, speed, time_offset, repeat_count, autoreverses and fill_mode become its timing"
    )
    func timingKeys() throws {
        let source = """
            [[layer]]
            type = "plain"
            begin_time = 0.5
            duration = 2
            speed = 0.5
            time_offset = 0.25
            repeat_count = "infinity"
            autoreverses = true
            fill_mode = "backwards"

            [[layer.sublayer]]
            speed = 0
            time_offset = 1.5
            """
        let config = try ConfigLoader.parse(source, file: "t.toml", fonts: nil)
        guard case .layer(let layer) = config.layers[0] else {
            Issue.record("a plain layer is a layer")
            return
        }
        #expect(
            layer.timing
                == MediaTiming(
                    beginTime: 0.5, duration: 2, speed: 0.5, timeOffset: 0.25, repeatCount: .infinity,
                    autoreverses: true, fillMode: .backwards))
        #expect(layer.sublayers[0].timing == MediaTiming(speed: 0, timeOffset: 1.5))
    }

    @Test("repeating a layer's time without a duration, and a speed that is no number, are refused at their lines")
    func refusals() {
        let source = """
            [[layer]]
            type = "plain"
            repeat_count = 3

            [[layer.sublayer]]
            autoreverses = true
            speed = nan
            """
        #expect(
            configProblems(source) == [
                "t.toml:3: layer[0].repeat_count: a layer's time repeats only with a duration: set \"duration\" (seconds of one cycle) or remove \"repeat_count\"",
                "t.toml:7: layer[0].sublayer[0].speed: nan is out of range -1000.0...1000.0",
                "t.toml:6: layer[0].sublayer[0].autoreverses: a layer's time repeats only with a duration: set \"duration\" (seconds of one cycle) or remove \"autoreverses\"",
            ])
    }
}
