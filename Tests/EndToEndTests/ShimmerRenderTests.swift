import Foundation
import Testing

/// The seed shimmer rendered by `signd render`, checked where Core Animation puts the bright
/// stop: `locations` animate from [0, 0, 0.25] to [0.75, 1, 1] over 1.7 s, so the white stop
/// sits at location p = (t mod 1.7) / 1.7 of the layer's width.
@Suite("signd render: the seed shimmer")
struct ShimmerRenderTests {
    /// Renders a 128x16 shimmer over block characters (which cover every column, so the text
    /// mask hides no column of the gradient) at 20 fps, and returns each frame's per-column
    /// brightest red value.
    func columnPeaks(extra: String = "", frames: Int) throws -> [[UInt8]] {
        let s = try Scratch()
        let config = try s.write(
            """
            [display]
            width = 128
            height = 16
            fps = 20
            [[layer]]
            type = "shimmer"
            text = "\(String(repeating: "█", count: 22))"
            \(extra)
            """)
        let out = s.dir.appendingPathComponent("shimmer.rgb").path
        let rendered = try run(Paths.signd, ["render", "--config", config, "--frames", String(frames), "--out", out])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let bytes = try #require(FileManager.default.contents(atPath: out))
        let frameBytes = 128 * 16 * 3
        #expect(bytes.count == frames * frameBytes)
        return (0..<frames).map { k in
            (0..<128).map { x in (0..<16).map { y in bytes[k * frameBytes + (y * 128 + x) * 3] }.max()! }
        }
    }

    /// The columns whose brightest pixel is the brightest of the frame.
    func brightest(_ peaks: [UInt8]) -> [Int] { peaks.indices.filter { peaks[$0] == peaks.max()! } }

    @Test("the bright stop is at column 0 at t = 0, the middle columns at 0.85 s, and back at 0 at 1.7 s")
    func brightStop() throws {
        let peaks = try columnPeaks(frames: 35)
        // At 20 fps, frames 0, 17 and 34 are t = 0, 0.85 and 1.7 s.
        #expect(brightest(peaks[0]) == [0])
        #expect(brightest(peaks[17]) == [63, 64])
        #expect(brightest(peaks[34]) == [0])
        // Frame 5 is t = 0.25 s, p = 0.147: locations [0.110, 0.147, 0.360], the white stop at
        // 18.8 px. Column 18 (centre 18.5) sits on the steep ramp to its left (0.037 wide) and
        // comes to 246; column 19 (centre 19.5) on the shallow one to its right (0.213 wide)
        // and comes to 252, so 19 is the brightest.
        #expect(brightest(peaks[5]) == [19])
    }

    @Test("with a pause the band sweeps in and out, and nothing shimmers while it waits")
    func pauseBetweenPasses() throws {
        let peaks = try columnPeaks(extra: "band = 0.1\nduration = 1\npause = 1", frames: 40)
        // t = 0.5 s (frame 10): the white stop at the middle.
        #expect(brightest(peaks[10]) == [63, 64])
        // t = 1.5 s (frame 30), in the pause: the band waits beyond the right edge; all grey.
        #expect(Set(peaks[30]) == [128])
    }

    @Test("render writes an animated GIF that loops, with the frame delay from the fps")
    func gif() throws {
        let s = try Scratch()
        let out = s.dir.appendingPathComponent("demo.gif").path
        let rendered = try run(
            Paths.signd,
            [
                "render", "--config", Paths.root.appendingPathComponent("configs/demo.toml").path, "--frames", "10",
                "--fps", "25", "--out", out,
            ])
        #expect(rendered.status == 0)
        let gif = [UInt8](try #require(FileManager.default.contents(atPath: out)))
        #expect(Array(gif.prefix(6)) == Array("GIF89a".utf8))
        #expect(gif[6] == 128 && gif[8] == 32)
        let text = String(decoding: gif, as: Unicode.ASCII.self)
        #expect(text.contains("NETSCAPE2.0"))
        // Ten graphics control extensions, each with a 4/100 s delay (25 fps).
        let controls = (0..<(gif.count - 5)).filter { gif[$0] == 0x21 && gif[$0 + 1] == 0xF9 && gif[$0 + 2] == 4 }
        #expect(controls.count == 10)
        #expect(controls.allSatisfy { gif[$0 + 4] == 4 && gif[$0 + 5] == 0 })
        #expect(gif.last == 0x3B)
    }

    @Test(
        "an --out that cannot be written is refused with the reason, before anything renders",
        arguments: ["gif", "png", "rgb"])
    func unwritableOut(kind: String) throws {
        let s = try Scratch()
        let out = s.dir.appendingPathComponent("no-such-dir/first.\(kind)").path
        let rendered = try run(
            Paths.signd,
            ["render", "--config", Paths.root.appendingPathComponent("configs/demo.toml").path, "--frames", "2", "--out", out])
        #expect(rendered.status == 1)
        #expect(rendered.stderr == "signd: cannot write \(out): No such file or directory\n")
    }

    @Test("render --help names every kind of --out it writes")
    func helpNamesEveryOut() throws {
        let help = try run(Paths.signd, ["render", "--help"]).stdout.split(separator: "\n").joined(separator: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(help.contains("--out <out> Where to write: .gif"))
        #expect(help.contains(".png (the last frame)") && help.contains(".rgb (raw RGB888"))
    }
}
