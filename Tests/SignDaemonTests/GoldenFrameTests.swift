import Foundation
import SignConfig
import SignGraphics
import SignScene
import Testing

@testable import SignDaemon

/// Golden frames: what the renderer draws for the demo config, pinned by reference PNGs in
/// Golden/. They change only when tools/record-golden is run on purpose.
@Suite("Golden frames")
struct GoldenFrameTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let recording = ProcessInfo.processInfo.environment["SIGND_RECORD_GOLDEN"] == "1"

    @Test("the demo marquee", arguments: [0.0, 0.5, 1.234])
    func demo(t: Double) throws {
        let fonts = try FontLibrary()
        let config = try ConfigLoader.load(
            path: Self.here.appendingPathComponent("../../configs/demo.toml").path, fonts: fonts)
        let frame = Renderer.render(try PreparedScene(config.scene, beginTime: 0, fonts: fonts), at: t)
        try Self.compare(frame, golden: "demo-t\(String(format: "%.3f", t)).png")
    }

    static var examples: [String] {
        let dir = here.appendingPathComponent("../../configs/examples").standardized.path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".toml") }
            .sorted()
    }

    /// Live fields as a board in Berlin shows them at 10:04 on 24 November 2026, playing a track.
    static let fields: @Sendable (String) -> String = {
        LiveFields.expand(
            $0, at: LiveFields.instant("2026-11-24T10:04:30+01:00")!,
            LiveFields.Values(
                timeZone: TimeZone(identifier: "Europe/Berlin")!,
                variables: ["track": "New Order - Blue Monday", "bread_until": "noon"]))
    }

    @Test("every example at 0, 0.85 and 2.1 s (live fields at a fixed instant)", arguments: examples)
    func example(file: String) throws {
        let fonts = try FontLibrary()
        let path = Self.here.appendingPathComponent("../../configs/examples/\(file)").standardized.path
        let config = try ConfigLoader.load(path: path, fonts: fonts)
        let scene = try PreparedScene(config.scene, beginTime: 0, fonts: fonts, fields: Self.fields)
        let name = String(file.dropLast(5))
        for t in [0.0, 0.85, 2.1] {
            try Self.compare(Renderer.render(scene, at: t), golden: "\(name)-t\(String(format: "%.3f", t)).png")
        }
    }

    @Test(
        "every example drawn frame after frame into one frame (only what changed written) equals each frame drawn afresh",
        arguments: examples)
    func framesInSequence(file: String) throws {
        let fonts = try FontLibrary()
        let path = Self.here.appendingPathComponent("../../configs/examples/\(file)").standardized.path
        let config = try ConfigLoader.load(path: path, fonts: fonts)
        let scene = try PreparedScene(config.scene, beginTime: 0, fonts: fonts, fields: Self.fields)
        // The scene changed under the renderer as a reload does: another background, the
        // first layer (often the still one the board starts from) gone, then back.
        var other = config.scene
        other.background = Color(red: 40, green: 0, blue: 20)
        other.layers.removeFirst()
        let changed = try PreparedScene(other, beginTime: 0, fonts: fonts, fields: Self.fields)
        let renderer = Renderer(width: scene.scene.width, height: scene.scene.height)
        var frame = Frame(width: scene.scene.width, height: scene.scene.height)
        // 150 frames at 60 fps, a jump (a paused clock resumed), the changed scene, the first.
        let steps =
            (0..<150).map { ($0, scene) } + (400..<420).map { ($0, scene) } + (420..<440).map { ($0, changed) }
            + (440..<460).map { ($0, scene) }
        for (k, shown) in steps {
            let t = Double(k) / 60
            renderer.render(shown, at: t, into: &frame)
            let fresh = Renderer.render(shown, at: t)
            guard frame == fresh else {
                Issue.record("frame \(k) of \(file) differs from the frame drawn afresh")
                return
            }
        }
    }

    @Test("a stream layer with a frame from its sender, under the band and the marquee")
    func streamOverlay() throws {
        let fonts = try FontLibrary()
        let path = Self.here.appendingPathComponent("../../configs/examples/stream-overlay.toml").standardized.path
        let config = try ConfigLoader.load(path: path, fonts: fonts)
        let input = try #require(config.streams.first)
        // A show's frame: red across, green down, blue constant, in the sender's pixel order.
        var rgb: [UInt8] = []
        for k in 0..<input.pixelMap.ledCount { rgb += [UInt8(k % 64 * 4), UInt8(k / 64 * 8), 160] }
        input.feed.publish(
            StreamReceiver.bitmap(rgb, map: input.pixelMap.source, width: input.width, height: input.height))
        let scene = try PreparedScene(config.scene, beginTime: 0, fonts: fonts)
        try Self.compare(Renderer.render(scene, at: 0.85), golden: "stream-overlay-fed-t0.850.png")
    }

    @Test("right-to-left lines with inline icons: Hebrew with a PNG, Arabic with an animated WebP, mixed")
    func rightToLeftIcons() throws {
        let fonts = try FontLibrary()
        let examples = Self.here.appendingPathComponent("../../configs/examples").standardized.path
        let noto = "/usr/share/fonts/truetype/noto/"
        let toml = """
            [display]
            width = 128
            height = 48

            [icons]
            sun = "\(examples)/weather-sun.webp"
            arrow = "\(examples)/chevron.png"

            [[layer]]
            type = "text"
            text = "שלום {icon:arrow} {#ffd060}עולם{/}"
            font = "\(noto)NotoSansHebrew-Regular.ttf"
            font_size = 13
            color = "#80d0ff"
            align = "center"
            y = 0
            height = 16

            [[layer]]
            type = "text"
            text = "الطقس {icon:sun} مشمس"
            font = "\(noto)NotoSansArabic-Regular.ttf"
            font_size = 13
            color = "#ffd070"
            align = "center"
            y = 16
            height = 16

            [[layer]]
            type = "text"
            text = "Today שלום {icon:arrow} sunny"
            font = "\(noto)NotoSansHebrew-Regular.ttf"
            fallback_fonts = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
            font_size = 12
            color = "#a0ffa0"
            align = "center"
            y = 32
            height = 16
            """
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("signd-rtl-icons-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("rtl-icons.toml").path
        try toml.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path, fonts: fonts)
        let scene = try PreparedScene(config.scene, beginTime: 0, fonts: fonts)
        try Self.compare(Renderer.render(scene, at: 0.85), golden: "rtl-icons-t0.850.png")
    }

    /// Frames may also be held against what the floating-point renderer drew (Golden/FloatRenderer,
    /// recorded by it before the 8-bit coverage masks and never re-recorded): within one level per
    /// channel, the bound a change of pixel arithmetic has to keep.
    static func compareWithFloatRenderer(_ frame: Frame, golden name: String) throws {
        let path = here.appendingPathComponent("Golden/FloatRenderer/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let reference = try PNGImage.readFrame(from: path)
        guard reference.width == frame.width, reference.height == frame.height else {
            Issue.record("\(name): the float renderer's frame has another size")
            return
        }
        var worst = 0, off = 0
        for i in frame.pixels.indices {
            let d = abs(Int(frame.pixels[i]) - Int(reference.pixels[i]))
            worst = max(worst, d)
            if d > 1 { off += 1 }
        }
        #expect(
            worst <= 1,
            "\(name): \(off) channels differ from the float renderer's by more than one level (at most \(worst))")
    }

    static func compare(_ frame: Frame, golden name: String) throws {
        try compareWithFloatRenderer(frame, golden: name)
        let path = here.appendingPathComponent("Golden/\(name)").path
        if recording {
            try PNGImage.write(frame, to: path)
            print("recorded \(path)")
            return
        }
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("no golden frame \(name): run tools/record-golden after checking the render is right")
            return
        }
        let expected = try PNGImage.readFrame(from: path)
        if expected != frame {
            let failed = FileManager.default.temporaryDirectory.appendingPathComponent("signd-actual-\(name)").path
            try? PNGImage.write(frame, to: failed)
            let differing = stride(from: 0, to: frame.pixels.count, by: 3).filter {
                frame.pixels.count == expected.pixels.count && frame.pixels[$0..<$0 + 3] != expected.pixels[$0..<$0 + 3]
            }.count
            Issue.record("\(name): \(differing) pixels differ; the frame drawn is in \(failed)")
        }
    }
}
