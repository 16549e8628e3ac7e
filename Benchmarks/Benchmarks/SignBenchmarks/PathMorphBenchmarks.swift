import Benchmark
import SignConfig
import SignGraphics
import SignScene

/// A CAShapeLayer's `path` morphing at 128x32 (no example does): a filled and stroked blob
/// of four curves turning into another, by its two ends and by linear keyframes, so the path
/// is worked out and rasterised every frame. Must not allocate.
func pathMorphBenchmarks(fonts: FontLibrary) {
    let blob = "M64 4C76 4 84 10 84 16C84 22 76 28 64 28C52 28 44 22 44 16C44 10 52 4 64 4Z"
    let star = "M64 1C70 10 94 12 80 16C94 20 70 22 64 31C58 22 34 20 48 16C34 12 58 10 64 1Z"
    let wide = "M64 8C90 6 120 12 120 16C120 20 90 26 64 24C38 26 8 20 8 16C8 12 38 6 64 8Z"
    for (name, animation) in [
        ("ends", "from = \"\(blob)\"\nto = \"\(star)\""),
        ("keyframes", "values = [\"\(blob)\", \"\(star)\", \"\(wide)\", \"\(blob)\"]"),
    ] {
        let source = """
            [display]
            width = 128
            height = 32
            [[layer]]
            type = "shape"
            path = "\(blob)"
            fill_color = "#2080ff"
            stroke_color = "white"
            line_width = 1.5
            [[layer.animation]]
            key_path = "path"
            \(animation)
            duration = 2
            autoreverses = true
            repeat_count = "infinity"
            """
        guard let config = try? ConfigLoader.parse(source, file: "morph.toml", fonts: fonts),
            let scene = try? PreparedScene(config.scene, beginTime: 0, fonts: fonts)
        else { continue }
        Benchmark("render path morph \(name) 128x32", configuration: .init(scalingFactor: .kilo)) { benchmark in
            renderFrames(scene, width: 128, height: 32, benchmark: benchmark)
        }
    }
}
