import Foundation
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

    @Test("every example at 0, 0.85 and 2.1 s", arguments: examples)
    func example(file: String) throws {
        let fonts = try FontLibrary()
        let path = Self.here.appendingPathComponent("../../configs/examples/\(file)").standardized.path
        let config = try ConfigLoader.load(path: path, fonts: fonts)
        let scene = try PreparedScene(config.scene, beginTime: 0, fonts: fonts)
        let name = String(file.dropLast(5))
        for t in [0.0, 0.85, 2.1] {
            try Self.compare(Renderer.render(scene, at: t), golden: "\(name)-t\(String(format: "%.3f", t)).png")
        }
    }

    static func compare(_ frame: Frame, golden name: String) throws {
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
