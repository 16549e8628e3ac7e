import Foundation
import Glibc
import SignControl
import Testing

/// A display larger than one UDP datagram, to a FlaschenTaschen receiver on 127.0.0.1 that
/// decodes every datagram with Pillow's PPM reader (tools/wire-peer.py receive).
@Suite("FlaschenTaschen output in tiles", .serialized)
struct FlaschenTaschenOutputTests {
    /// Frames to render to cover every frame signd numbered by the end: those shown and
    /// dropped by the time of `status`, and the ones before the stop.
    static func framesToRender(_ status: JSONValue) -> Int {
        Int(status["frames"]?.doubleValue ?? 0) + Int(status["dropped"]?.doubleValue ?? 0) + 150
    }

    @Test("a 256x128 display goes as two tiles a frame; every frame arrives whole and is the rendered frame, in order")
    func tiles() throws {
        let scratch = try Scratch()
        let receiver = try WireReceiver(
            scratch, "flaschen-taschen", leds: 256 * 128, seconds: 60, options: ["--width", "256"])
        let config = try scratch.write(
            """
            [display]
            width = 256
            height = 128
            fps = 30
            [[layer]]
            id = "main"
            text = "FlaschenTaschen tiles"
            font = "10x20"
            color = "#30a0ff"
            speed = 30
            [preview]
            terminal = "off"
            [[output]]
            name = "ft"
            type = "flaschen-taschen"
            host = "127.0.0.1"
            port = \(receiver.port)
            layer = 2
            gamma = 1.0
            dithering = false
            """)
        let signd = try scratch.startSignd(config: config)
        try scratch.waitForClock(frames: 90)
        let status = try scratch.request("status")
        let ft = try #require(status["outputs"]?.arrayValue?.first { $0["name"]?.stringValue == "ft" })
        scratch.stop(signd)
        #expect(eventually { receiver.drained }, "the receiver never read what signd sent")
        receiver.finish()

        let sent = Int(ft["frames_sent"]?.doubleValue ?? -1)
        #expect(ft["type"]?.stringValue == "flaschen-taschen" && ft["state"]?.stringValue == "ok")
        #expect(ft["errors"]?.doubleValue == 0 && ft["dropped"]?.doubleValue == 0, "\(ft)")
        let frames = receiver.frames()
        #expect(sent >= 90 && frames.count >= sent + 1, "received \(frames.count), sent \(sent)")
        #expect(receiver.summary["rejected"] as? Int == 0, "\(receiver.summary)")
        // 256 x 128 x 3 = 98,304 bytes: rows 0-84 and 85-127, each on layer 2, both offsets agreeing.
        #expect(frames.allSatisfy { $0["whole"] as? Bool == true })
        #expect(
            frames.allSatisfy {
                ($0["tiles"] as? [[Int]])?.map { Array($0.prefix(5)) } == [[0, 0, 256, 85, 2], [0, 85, 256, 43, 2]]
            })
        #expect(frames.allSatisfy { ($0["tiles"] as? [[Int]])?.allSatisfy { $0[5] <= 65_507 } == true })
        #expect(receiver.summary["footer_mismatch"] == nil && receiver.summary["outside"] == nil)

        // Every frame but the blank last one is a rendered frame, in order.
        let rgb = scratch.dir.appendingPathComponent("frames.rgb").path
        let render = try run(Paths.signd, ["render", "--config", config, "--frames", "\(Self.framesToRender(status))", "--out", rgb])
        #expect(render.status == 0, "\(render.stderr)")
        let rendered = try Data(contentsOf: URL(fileURLWithPath: rgb))
        let size = 256 * 128 * 3
        var index = 0, matched = 0
        for frame in frames.dropLast() {
            let bytes = Data(WireReceiver.bytes(frame))
            while index * size < rendered.count, rendered[index * size..<(index + 1) * size] != bytes { index += 1 }
            if index * size < rendered.count { matched += 1 }
        }
        #expect(matched == frames.count - 1, "\(matched) of \(frames.count - 1) frames match a rendered frame in order")
        #expect(WireReceiver.bytes(try #require(frames.last)).allSatisfy { $0 == 0 }, "blank on stop")
    }
}
