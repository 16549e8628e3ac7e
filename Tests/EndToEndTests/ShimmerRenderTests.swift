import Foundation
import Testing

/// The seed shimmer rendered by `signd render`, checked where Core Animation puts the bright
/// stop: `locations` animate from [0, 0, 0.25] to [0.75, 1, 1] over 1.7 s, so the white stop
/// sits at location p = (t mod 1.7) / 1.7 of the layer's width.
@Suite("signd render: the seed shimmer")
struct ShimmerRenderTests {
    @Test("the bright stop is at column 0 at t = 0, the middle columns at 0.85 s, and back at 0 at 1.7 s")
    func brightStop() throws {
        let s = try Scratch()
        // Block characters cover every column, so the text mask hides no column of the gradient.
        let config = try s.write(
            """
            [display]
            width = 128
            height = 16
            fps = 20
            [[layer]]
            type = "shimmer"
            text = "\(String(repeating: "█", count: 22))"
            """)
        let out = s.dir.appendingPathComponent("shimmer.rgb").path
        let rendered = try run(Paths.signd, ["render", "--config", config, "--frames", "35", "--out", out])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let bytes = try #require(FileManager.default.contents(atPath: out))
        let frameBytes = 128 * 16 * 3
        #expect(bytes.count == 35 * frameBytes)

        /// The columns whose brightest pixel is the brightest of the frame.
        func brightestColumns(frame k: Int) -> [Int] {
            let peaks = (0..<128).map { x in (0..<16).map { y in bytes[k * frameBytes + (y * 128 + x) * 3] }.max()! }
            let top = peaks.max()!
            return peaks.indices.filter { peaks[$0] == top }
        }
        // At 20 fps, frames 0, 17 and 34 are t = 0, 0.85 and 1.7 s.
        #expect(brightestColumns(frame: 0) == [0])
        #expect(brightestColumns(frame: 17) == [63, 64])
        #expect(brightestColumns(frame: 34) == [0])
        // Frame 5 is t = 0.25 s, p = 0.147: locations [0.110, 0.147, 0.360], the white stop at
        // 18.8 px. Column 18 (centre 18.5) sits on the steep ramp to its left (0.037 wide) and
        // comes to 246; column 19 (centre 19.5) on the shallow one to its right (0.213 wide)
        // and comes to 252, so 19 is the brightest.
        #expect(brightestColumns(frame: 5) == [19])
    }

    @Test("with a pause the band sweeps in and out, and nothing shimmers while it waits")
    func pauseBetweenPasses() throws {
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
            band = 0.1
            duration = 1
            pause = 1
            """)
        let out = s.dir.appendingPathComponent("pause.rgb").path
        #expect(try run(Paths.signd, ["render", "--config", config, "--frames", "40", "--out", out]).status == 0)
        let bytes = try #require(FileManager.default.contents(atPath: out))
        let frameBytes = 128 * 16 * 3
        func peaks(_ k: Int) -> [UInt8] {
            (0..<128).map { x in (0..<16).map { y in bytes[k * frameBytes + (y * 128 + x) * 3] }.max()! }
        }
        // t = 0.5 s (frame 10): the white stop at the middle.
        let mid = peaks(10)
        #expect(mid.indices.filter { mid[$0] == mid.max()! } == [63, 64])
        // t = 1.5 s (frame 30), in the pause: the band waits beyond the right edge; all grey.
        #expect(Set(peaks(30)) == [128])
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
}
