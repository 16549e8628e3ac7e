import Foundation
import SignConfig
import SignGraphics
import SignOutput
import SignScene
import Testing

/// The fused LED pipeline (one pass, tables at the current brightness) against the pipeline
/// it replaced (`ReferenceLEDPipeline`): over 1,000 rendered frames of every example, with
/// each example's own outputs and a few awkward maps, dithering on and off, at full and at
/// fading brightness, every byte of colour and grey is the same.
@Suite("LED pipeline equivalence")
struct LEDPipelineEquivalenceTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static var configs: [String] {
        let dir = here.appendingPathComponent("../../../configs/examples").standardized.path
        let examples = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasSuffix(".toml") }.sorted().map { "examples/\($0)" }
        return ["demo.toml"] + examples
    }

    /// The maps and corrections an example's frames go through: each configured LED output's
    /// own, or the whole frame with the default correction when it has none.
    static func outputs(_ config: DaemonConfig) -> [(PixelMap, ColorCorrection)] {
        let (w, h) = (config.scene.width, config.scene.height)
        var result: [(PixelMap, ColorCorrection)] = []
        for output in config.outputs {
            switch output {
            case .network(let n):
                result.append(
                    (PixelMap(panels: n.effectivePanels(width: w, height: h), frameWidth: w, frameHeight: h), n.correction))
            case .usb(let u):
                result.append(
                    (
                        PixelMap(
                            panels: u.effectivePanels(width: w, height: h), frameWidth: w, frameHeight: h,
                            ledCount: u.ledCount), u.correction
                    ))
            case .strip(let strip):
                result.append(
                    (
                        PixelMap(
                            panels: strip.effectivePanels(width: w, height: h), frameWidth: w, frameHeight: h),
                        strip.correction
                    ))
            case .sharedMemory: break
            }
        }
        if result.isEmpty {
            result.append((PixelMap(panels: [Panel(width: w, height: h)], frameWidth: w, frameHeight: h), ColorCorrection()))
        }
        return result
    }

    /// Panels turned, mirrored, run back and partly off the frame, with LEDs no panel covers,
    /// under a CIE curve, a brightness and a white point.
    static func awkward(width w: Int, height h: Int) -> (PixelMap, ColorCorrection) {
        var turned = Panel(width: h, height: h)
        turned.rotation = 90
        turned.serpentine = true
        turned.start = .bottomRight
        var offFrame = Panel(width: 16, height: 8)
        offFrame.x = w - 8
        offFrame.y = h - 4
        offFrame.strip = .columns
        offFrame.mirror = .both
        offFrame.firstLED = h * h + 20
        return (
            PixelMap(panels: [turned, offFrame], frameWidth: w, frameHeight: h, ledCount: h * h + 20 + 128 + 7),
            ColorCorrection(curve: .cie1931, brightness: 0.8, whitePoint: [1, 0.85, 0.7])
        )
    }

    /// Grey (the Framework matrix's) is checked on the example that drives one and on the
    /// demo; colour on every example (the suite stays near a minute in a debug build).
    static let greyConfigs: Set = ["demo.toml", "examples/framework-matrix.toml"]

    @Test("fused colour (and grey) bytes equal the reference's over 1,000 frames", arguments: configs)
    func sameBytes(file: String) throws {
        try Self.compare(file: file, frames: 1000, grey: Self.greyConfigs.contains(file)) { Self.outputs($0) }
    }

    @Test("fused bytes equal the reference's through turned, mirrored, partly covered panels under a CIE curve")
    func sameBytesThroughAwkwardMaps() throws {
        try Self.compare(file: "examples/combined.toml", frames: 200, grey: true) {
            [Self.awkward(width: $0.scene.width, height: $0.scene.height)]
        }
    }

    static func compare(
        file: String, frames: Int, grey greyToo: Bool, outputs: (DaemonConfig) -> [(PixelMap, ColorCorrection)]
    ) throws {
        let fonts = try FontLibrary()
        let path = Self.here.appendingPathComponent("../../../configs/\(file)").standardized.path
        let config = try ConfigLoader.load(path: path, fonts: fonts)
        let scene = try PreparedScene(config.scene, beginTime: 0, fonts: fonts)
        let renderer = Renderer(width: scene.scene.width, height: scene.scene.height)
        var frame = Frame(width: scene.scene.width, height: scene.scene.height)

        struct Variant {
            let map: Int
            let dithering: Bool
            let fading: Bool
            let grey: Bool
        }
        var variants: [Variant] = []
        var new: [LEDPipeline] = []
        var old: [ReferenceLEDPipeline] = []
        for (m, (map, correction)) in outputs(config).enumerated() {
            for dithering in [true, false] {
                for fading in [false, true] {
                    for grey in greyToo ? [false, true] : [false] {
                        variants.append(Variant(map: m, dithering: dithering, fading: fading, grey: grey))
                        new.append(LEDPipeline(map: map, correction: correction, dithering: dithering))
                        old.append(ReferenceLEDPipeline(map: map, correction: correction, dithering: dithering))
                    }
                }
            }
        }
        var newBytes = [[UInt8]](repeating: [], count: variants.count)
        var oldBytes = newBytes
        for k in 0..<frames {
            renderer.render(scene, at: Double(k) / 60, into: &frame)
            // Fading: down to black over the run, with the display off now and then, as a
            // schedule and `signctl display` drive it.
            let fadingScale = k % 97 == 13 ? 0 : DisplaySetting(brightness: 1 - Double(k) / Double(frames - 1)).scale
            for (i, v) in variants.enumerated() {
                let scale: UInt32 = v.fading ? fadingScale : 65536
                if v.grey {
                    new[i].grey(frame, scale: scale, into: &newBytes[i])
                    old[i].grey(frame, scale: scale, into: &oldBytes[i])
                } else {
                    new[i].colour(frame, scale: scale, into: &newBytes[i])
                    old[i].colour(frame, scale: scale, into: &oldBytes[i])
                }
                guard newBytes[i] == oldBytes[i] else {
                    let at = zip(newBytes[i], oldBytes[i]).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    Issue.record(
                        """
                        \(file) frame \(k): \(v.grey ? "grey" : "colour"), map \(v.map), dithering \(v.dithering), \
                        \(v.fading ? "fading" : "full"): byte \(at ?? -1) differs (\(newBytes[i].count) new bytes, \
                        \(oldBytes[i].count) reference bytes)
                        """)
                    return
                }
            }
        }
    }
}
