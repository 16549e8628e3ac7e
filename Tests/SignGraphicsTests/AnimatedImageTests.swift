import Foundation
import TestSupport
import Testing

@testable import SignGraphics

/// GIF and WebP decoding against Pillow's decoding of the same files (tools/image-reference.py
/// writes them and decodes them), the formats' rules each pinned on a file made for it, the
/// frame shown at a time, and the limits.
@Suite("Animated images (GIF, WebP)")
struct AnimatedImageTests {
    /// The test files, written once into a temporary directory.
    static let directory: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("signd-images-\(getpid())").path
        _ = try? run(["write", dir])
        return dir
    }()

    static func run(_ arguments: [String]) throws -> Data {
        try ReferenceScript("image-reference.py").run(arguments)
    }

    static func path(_ name: String) -> String { directory + "/" + name }

    static var referenceFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasPrefix("bomb-") && !$0.hasPrefix("broken-") && !$0.hasPrefix("x-") }.sorted()
    }

    /// A frame's pixels as premultiplied 8-bit RGBA, as the test compares them.
    static func premultiplied(_ frame: ImageBitmap) -> [Int] {
        frame.pixels.flatMap { p in [p.x, p.y, p.z, p.w].map { Int(($0 * 255).rounded()) } }
    }

    static func premultiplied(straight bytes: [UInt8]) -> [Int] {
        stride(from: 0, to: bytes.count, by: 4).flatMap { i -> [Int] in
            let a = Double(bytes[i + 3])
            return (0..<3).map { Int((Double(bytes[i + $0]) * a / 255).rounded()) } + [Int(bytes[i + 3])]
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            out.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    @Test("every composed frame, its delay and the loop count equal Pillow's decoding", arguments: referenceFiles)
    func matchesPillow(file: String) throws {
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Self.run(["frames", Self.path(file)])) as? [String: Any])
        let image = try ImageFile.read(Self.path(file))
        let frames = try #require(reference["frames"] as? [[String: Any]])
        #expect(image.width == reference["width"] as? Int && image.height == reference["height"] as? Int)
        try #require(image.frames.count == frames.count, "frame count")
        for (k, expected) in frames.enumerated() {
            let want = Self.premultiplied(straight: Self.bytes(hex: expected["rgba"] as! String))
            let got = Self.premultiplied(image.frames[k])
            let worst = zip(want, got).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 1, "frame \(k) differs by up to \(worst) levels")
            if image.isAnimated {
                #expect(Int((image.fileDelays[k] * 1000).rounded()) == expected["duration"] as? Int, "frame \(k) delay")
            }
        }
        // Pillow gives the file's number: NETSCAPE2.0's repetitions for a GIF, the plays for a WebP.
        let loop = reference["loop"] as? Int
        if image.isAnimated {
            let expectedPlays: Int? =
                switch (file.hasSuffix(".gif"), loop) {
                case (_, 0): nil
                case (true, nil): 1
                case (true, let n?): n + 1
                case (false, let n): n
                }
            #expect(image.filePlays == expectedPlays)
        }
    }

    /// The colour at (x, y) of frame `k`, straight 8-bit, alpha last.
    static func pixel(_ image: AnimatedImage, _ k: Int, _ x: Int, _ y: Int) -> [Int] {
        let p = image.frames[k].pixels[y * image.width + x]
        guard p.w > 0 else { return [0, 0, 0, 0] }
        return [p.x / p.w, p.y / p.w, p.z / p.w, p.w].map { Int(($0 * 255).rounded()) }
    }

    @Test("disposal 1 keeps a frame, 2 clears its rectangle to transparent, 3 restores what was under it")
    func disposal() throws {
        let keep = try ImageFile.read(Self.path("dispose-keep.gif"))
        #expect(Self.pixel(keep, 2, 1, 1) == [0, 0, 255, 255])  // the blue square stays
        #expect(Self.pixel(keep, 2, 5, 5) == [0, 200, 0, 255])
        #expect(Self.pixel(keep, 2, 0, 0) == [255, 0, 0, 255])
        let background = try ImageFile.read(Self.path("dispose-background.gif"))
        #expect(Self.pixel(background, 1, 2, 2) == [0, 0, 255, 255])
        #expect(Self.pixel(background, 2, 2, 2) == [0, 0, 0, 0])  // cleared before frame 3
        #expect(Self.pixel(background, 2, 4, 2) == [0, 200, 0, 255])
        #expect(Self.pixel(background, 3, 4, 2) == [0, 0, 0, 0])
        let previous = try ImageFile.read(Self.path("dispose-previous.gif"))
        #expect(Self.pixel(previous, 1, 3, 3) == [255, 0, 0, 255])
        #expect(Self.pixel(previous, 2, 2, 2) == [255, 255, 255, 255])  // red gone: the white below is back
        #expect(Self.pixel(previous, 2, 4, 4) == [0, 0, 255, 255])
        #expect(Self.pixel(previous, 3, 4, 4) == [255, 255, 255, 255])  // and the blue
        #expect(Self.pixel(previous, 3, 0, 0) == [0, 200, 0, 255])
        // Without a transparent index, disposal 2 still clears to transparent (as browsers do).
        let opaque = try ImageFile.read(Self.path("x-dispose-background-opaque.gif"))
        #expect(Self.pixel(opaque, 1, 0, 0) == [0, 0, 0, 0])
        #expect(Self.pixel(opaque, 1, 1, 1) == [0, 0, 255, 255])
    }

    @Test("a frame's transparent index shows what is below it; each frame has its own")
    func transparency() throws {
        let image = try ImageFile.read(Self.path("transparency.gif"))
        // Frame 1: yellow where x + y is even, index 0 (transparent) elsewhere.
        #expect(Self.pixel(image, 0, 0, 0) == [250, 200, 20, 255])
        #expect(Self.pixel(image, 0, 1, 0) == [0, 0, 0, 0])
        // Frame 2: index (3x + 2y) % 4 with 3 transparent; index 0 is opaque black now.
        #expect(Self.pixel(image, 1, 0, 0) == [0, 0, 0, 255])
        #expect(Self.pixel(image, 1, 1, 0) == [0, 0, 0, 0])  // 3 over frame 1's transparent pixel
        #expect(Self.pixel(image, 1, 3, 1) == [250, 200, 20, 255])  // 3 over frame 1's yellow
        #expect(Self.pixel(image, 1, 2, 0) == [0, 200, 0, 255])
        #expect(Self.pixel(image, 1, 3, 0) == [255, 0, 0, 255])
        // Frame 3 (at (1, 1), 4x4): white, and index 2 transparent over frame 2's black.
        #expect(Self.pixel(image, 2, 1, 1) == [255, 255, 255, 255])
        #expect(Self.pixel(image, 2, 2, 1) == [0, 0, 0, 255])
        #expect(Self.pixel(image, 2, 0, 0) == [0, 0, 0, 255])
    }

    @Test("delays of 0 and 1 centisecond show for 100 ms; a loop count of 2 is three plays; no extension one")
    func delaysAndLoops() throws {
        let image = try ImageFile.read(Self.path("delays.gif"))
        #expect(image.fileDelays == [0, 0.01, 0.02, 0.5])
        #expect(image.ends.map { ($0 * 1000).rounded() } == [100, 200, 220, 720])
        #expect(image.filePlays == 3)
        #expect(try ImageFile.read(Self.path("no-loop.gif")).filePlays == 1)
        #expect(try ImageFile.read(Self.path("dispose-keep.gif")).filePlays == nil)
        let webp = try ImageFile.read(Self.path("anim.webp"))
        #expect(webp.fileDelays == [0.04, 0.12, 0.25] && webp.filePlays == 3)
    }

    @Test("the frame at a time: binary search over the delays, the last frame held after the last play")
    func frameAtTime() throws {
        let image = try ImageFile.read(Self.path("delays.gif"))  // ends 0.1 0.2 0.22 0.72, 3 plays
        let times: [(Double, Int)] = [
            (-1, 0), (0, 0), (0.0999, 0), (0.1, 1), (0.2, 2), (0.2199, 2), (0.2201, 3), (0.7199, 3), (0.72, 0),
            (0.72 + 0.15, 1), (1.44 + 0.21, 2), (2.159, 3), (2.16, 3), (100, 3), (.infinity, 3), (.nan, 0),
        ]
        for (t, k) in times { #expect(image.frameIndex(at: t, plays: image.filePlays) == k, "at \(t)") }
        // Forever: 100.05 s is 138 plays (99.36 s) and 0.69 s into the next: the last frame.
        #expect(image.frameIndex(at: 100.05, plays: nil) == 3)
        #expect(image.frameIndex(at: 99.36 + 0.15, plays: nil) == 1)
        #expect(image.frameIndex(at: 0.8, plays: 1) == 3)
        #expect(ImageLoop.times(2).plays(of: image) == 2 && ImageLoop.forever.plays(of: image) == nil)
    }

    @Test("a still GIF or WebP is one frame, as a PNG is")
    func stills() throws {
        for name in ["still.gif", "still.webp"] {
            let image = try ImageFile.read(Self.path(name))
            #expect(image.frames.count == 1 && !image.isAnimated && image.duration == 0)
            #expect(image.frameIndex(at: 5, plays: nil) == 0)
        }
    }

    @Test(
        "bombs and broken files are refused naming the limit, never decoded",
        arguments: [
            ("bomb-screen.gif", "the GIF is 60000x60000; images are limited to 4096 pixels a side"),
            ("bomb-frame.gif", "frame 1 is 5000x1; images are limited to 4096 pixels a side"),
            ("bomb-frames.gif", "the GIF has more than 1024 frames; images are limited to 1024"),
            ("bomb-total.gif", "images are limited to 4194304 pixels over all frames"),
            ("bomb-screen.webp", "the WebP is 16384x16384; images are limited to 4096 pixels a side"),
            ("bomb-frames.webp", "the WebP has 1100 frames; images are limited to 1024"),
            ("broken-truncated.gif", "the GIF is broken"),
            ("broken-header.gif", "the GIF is broken"),
            ("broken-garbage.gif", "the GIF is broken"),
            ("broken-truncated.webp", "the WebP is broken or cut short"),
            ("broken-garbage.webp", "the WebP is broken"),
        ])
    func refused(file: String, message: String) throws {
        do {
            _ = try ImageFile.read(Self.path(file))
            Issue.record("\(file) was decoded")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("a frame partly off the screen is cut to it; one wholly off it, or cleared off it, draws nothing")
    func framesOffTheScreen() throws {
        let image = try ImageFile.read(Self.path("x-offscreen.gif"))
        #expect(image.frames.count == 4)
        let red = Self.pixel(image, 0, 0, 0)
        let blue = Self.pixel(image, 1, 3, 3)
        #expect(Self.pixel(image, 1, 1, 1) == red && blue != red)
        // Frames 3 and 4 lie wholly below or right of the 4x4 screen: each equals the one before.
        for k in 2...3 {
            #expect(Self.premultiplied(image.frames[k]) == Self.premultiplied(image.frames[1]), "frame \(k + 1)")
        }
    }

    @Test("a file of none of the formats is refused by its content, whatever its name")
    func unknownFormat() throws {
        #expect(throws: ImageFile.Error.self) { try ImageFile.decode(Array("hello".utf8), name: "x.gif") }
    }
}
