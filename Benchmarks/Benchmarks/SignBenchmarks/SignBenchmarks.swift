import Benchmark
import Foundation
import Glibc
import SignDaemon
import SignGraphics
import SignOutput
import SignScene
import SignTiming

/// The project's root, found from this file.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized.path

/// Every example scene: the demo and configs/examples/*.toml.
func exampleConfigs() -> [String] {
    let dir = root + "/configs/examples"
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".toml") }.sorted()
    return [root + "/configs/demo.toml"] + files.map { dir + "/" + $0 }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .cpuTotal], warmupIterations: 10, maxDuration: .seconds(2), maxIterations: 1_000_000)

    // Timing functions: one evaluation, Newton and bisection included; must not allocate.
    for (name, function) in [
        ("easeInEaseOut", TimingFunction.easeInEaseOut), ("overshoot 0.5,-1,0.5,2", TimingFunction(controlPoints: 0.5, -1, 0.5, 2)),
    ] {
        Benchmark("TimingFunction \(name)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var x = 0.0
            var sum = 0.0
            for _ in benchmark.scaledIterations {
                x += 0.000_999
                if x > 1 { x -= 1 }
                sum += function(x)
            }
            blackHole(sum)
        }
    }

    // One frame of each example scene at four board sizes (steady state: the renderer and its
    // canvases already exist, as in the daemon).
    let fonts = try! FontLibrary()
    for path in exampleConfigs() {
        guard var config = try? ConfigLoader.load(path: path, fonts: fonts) else { continue }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        for (w, h) in [(32, 8), (64, 32), (128, 32), (256, 64)] {
            config.display.width = w
            config.display.height = h
            guard let scene = try? PreparedScene(config.scene, beginTime: 0, fonts: fonts) else { continue }
            // A thousand frames per iteration from one renderer: the steady state the daemon is in.
            Benchmark("render \(name) \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
                let renderer = Renderer(width: w, height: h)
                var frame = Frame(width: w, height: h)
                renderer.render(scene, at: 0, into: &frame)
                var t = 0.0
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    t += 1.0 / 60
                    renderer.render(scene, at: t, into: &frame)
                }
                benchmark.stopMeasurement()
                blackHole(frame)
            }
        }
    }

    // Laying out 200 characters (glyphs cached, as after the first frame).
    let text = String(repeating: "Now Playing: signd 안녕 ", count: 9).prefix(200)
    Benchmark("text layout 200 characters") { benchmark in
        _ = try? fonts.layout(String(text), primary: .defaultFace, fallbacks: [.unifont])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? fonts.layout(String(text), primary: .defaultFace, fallbacks: [.unifont]))
        }
        benchmark.stopMeasurement()
    }

    // Publishing a 128x32 frame to the shm framebuffer (copy and seqlock).
    Benchmark("shm publish 128x32", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let name = "bench-\(getpid())"
        guard let fb = try? SharedMemoryFramebuffer(name: name, width: 128, height: 32, fps: 60) else { return }
        defer { shm_unlink("/signd.\(name)") }
        let frame = Frame(width: 128, height: 32, fill: .white)
        var n: UInt64 = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            n += 1
            fb.send(frame, number: n, deadline: n)
        }
        // Creating and removing the object is not what is measured.
        benchmark.stopMeasurement()
    }

    // Encoding one frame for a Fadecandy board: the serpentine 32x16 map and 25 packets.
    Benchmark("Fadecandy frame encoding 32x16", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var panel = Panel(width: 32, height: 16)
        panel.serpentine = true
        let map = PixelMap(panels: [panel], frameWidth: 32, frameHeight: 16, ledCount: FadecandyDevice.ledCount)
        var device = FadecandyDevice(serial: nil, map: map, correction: ColorCorrection())
        let frame = Frame(width: 32, height: 16, fill: .white)
        var transfers: [[UInt8]] = []
        device.encode(frame, into: &transfers)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            device.encode(frame, into: &transfers)
            blackHole(transfers)
        }
        benchmark.stopMeasurement()
    }
}
