import Foundation
import SignGraphics
import SignScene
import Testing

@testable import SignConfig

/// Image layers and icons from GIF and WebP: `loop`, and files past the limits refused at
/// FILE:LINE naming the key and the limit.
@Suite("Image config")
struct ImageConfigTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized

    /// A GIF of `frames` 1x1 frames on a `width` x `height` screen, written byte by byte.
    static func gif(width: Int, height: Int, frames: Int) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
        bytes += [0x80, 0, 0, 255, 0, 0, 0, 0, 255]  // a global table of two colours
        for _ in 0..<frames {
            // One pixel of index 0: LZW codes clear, 0, end at 3 bits.
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        }
        return bytes + [0x3B]
    }

    /// The problems of `source`, written as t.toml into a new directory holding `files`.
    func problems(_ source: String, files: [String: [UInt8]]) throws -> [String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("signd-image-config-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, bytes) in files { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
        do {
            _ = try ConfigLoader.parse(source, file: dir.appendingPathComponent("t.toml").path, fonts: nil)
            return []
        } catch {
            return error.problems.map { "t.toml:\($0.line): \($0.key): \($0.message)" }
        }
    }

    @Test("a GIF with a huge screen, too many frames or too many pixels in all is refused at its line, naming the limit")
    func bombs() throws {
        let layer = "[[layer]]\ntype = \"image\"\nimage = \"a.gif\"\n"
        let screen = try problems(layer, files: ["a.gif": Self.gif(width: 60000, height: 60000, frames: 1)])
        #expect(screen.count == 1)
        #expect(
            screen.first?.hasPrefix(
                "t.toml:3: layer[0].image: cannot read the image: the GIF is 60000x60000; images are limited to 4096 pixels a side"
            ) == true, "\(screen)")
        let frames = try problems(layer, files: ["a.gif": Self.gif(width: 1, height: 1, frames: 1100)])
        #expect(frames.first?.contains("the GIF has more than 1024 frames") == true, "\(frames)")
        let total = try problems(layer, files: ["a.gif": Self.gif(width: 4000, height: 1000, frames: 2)])
        #expect(total.first?.contains("images are limited to 4194304 pixels over all frames") == true, "\(total)")
        let icon = try problems(
            "[icons]\nsun = \"a.gif\"\n[[layer]]\ntext = \"{icon:sun}\"\n",
            files: ["a.gif": Self.gif(width: 60000, height: 1, frames: 1)])
        #expect(icon.first?.hasPrefix("t.toml:2: icons.sun: cannot read the image: the GIF is 60000x1") == true, "\(icon)")
        let cut = try problems(layer, files: ["a.gif": Array(Self.gif(width: 2, height: 2, frames: 3).dropLast(8))])
        #expect(cut.first?.contains("the GIF is broken") == true, "\(cut)")
    }

    @Test("`loop` is \"file\", \"forever\" or a number of plays")
    func loop() throws {
        let files = ["a.gif": Self.gif(width: 2, height: 2, frames: 3)]
        let source = { (loop: String) in "[[layer]]\ntype = \"image\"\nimage = \"a.gif\"\nloop = \(loop)\n" }
        #expect(try problems(source("\"forever\""), files: files).isEmpty)
        #expect(try problems(source("\"file\""), files: files).isEmpty)
        #expect(try problems(source("3"), files: files).isEmpty)
        #expect(try problems(source("0"), files: files) == ["t.toml:4: layer[0].loop: 0 is out of range 1...1000000 (or \"forever\", \"file\")"])
        #expect(
            try problems(source("\"sometimes\""), files: files) == [
                "t.toml:4: layer[0].loop: expected \"file\", \"forever\" or a number of plays"
            ])
    }

    @Test("the weather-icon example's image layer plays its GIF forever and its inline icon is the WebP")
    func example() throws {
        let config = try ConfigLoader.load(
            path: Self.root.appendingPathComponent("configs/examples/weather-icon.toml").path, fonts: try FontLibrary())
        guard case .layer(let icon) = config.scene.layers.first, case .image(let image) = icon.content else {
            Issue.record("the first layer is an image layer")
            return
        }
        #expect(image.image.frames.count == 8 && image.image.filePlays == nil && image.loop == ImageLoop.file)
        #expect(image.image.fileDelays.allSatisfy { $0 == 0.15 })
        #expect(config.icons["sun"]?.frames.count == 8)
    }
}
