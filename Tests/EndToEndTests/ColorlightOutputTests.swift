import Foundation
import Glibc
import SignControl
import Testing

/// The Colorlight output on a veth pair in a network namespace the test creates: signd
/// sends on veth0, a scapy capture on veth1 (tools/colorlight-peer.py) decodes every row of
/// every frame as the card reads it.
@Suite("Colorlight 5A-75 output over raw Ethernet", .serialized)
struct ColorlightOutputTests {
    @Test(
        "a 600x8 board: every frame's 8 rows in 16 packets (497 + 103 pixels, B G R) arrive whole, then the display frame; each is the rendered frame, in order",
        .enabled(if: getuid() == 0, "creating a network namespace needs root"))
    func rows() throws {
        let s = try Scratch()
        let namespace = try TestNetworkNamespace()
        let output = s.dir.appendingPathComponent("colorlight.jsonl")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let peer = Process()
        peer.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        peer.arguments = namespace.exec([
            "/usr/bin/env", "python3", Paths.root.appendingPathComponent("tools/colorlight-peer.py").path, "--iface", "veth1",
            "--width", "600", "--rows", "8", "--seconds", "60",
        ])
        peer.standardOutput = try FileHandle(forWritingTo: output)
        peer.standardInput = FileHandle.nullDevice
        try peer.run()
        defer {
            kill(peer.processIdentifier, SIGTERM)
            peer.waitUntilExit()
        }
        try #require(
            eventually(timeout: 30) { WireReceiver.lines(of: output).contains { $0["ready"] != nil } },
            "the capture came up in the namespace")
        let config = try s.write(
            """
            [display]
            width = 600
            height = 8
            fps = 20
            [[layer]]
            text = "Colorlight rows over raw Ethernet, five hundred pixels and more a row"
            font = "5x7"
            color = "#ff8020"
            speed = 40
            [preview]
            terminal = "off"
            [[output]]
            type = "colorlight"
            name = "card"
            interface = "veth0"
            gamma = 1.0
            dithering = false
            """)
        let signd = try s.launch(
            "/usr/sbin/ip", namespace.exec([Paths.signd, "run", "--config", config, "--socket", s.socket]))
        try s.waitForSocket(signd)
        try s.waitForClock(frames: 60)
        let status = try s.request("status")
        let card = try #require(status["outputs"]?.arrayValue?.first { $0["name"]?.stringValue == "card" })
        s.stop(signd)
        let sent = Int(card["frames_sent"]?.doubleValue ?? -1)
        _ = eventually(timeout: 20) { WireReceiver.lines(of: output).filter { $0["frame"] != nil }.count >= sent + 1 }
        kill(peer.processIdentifier, SIGTERM)
        peer.waitUntilExit()

        #expect(card["type"]?.stringValue == "colorlight" && card["state"]?.stringValue == "ok", "\(card)")
        #expect(card["errors"]?.doubleValue == 0 && card["dropped"]?.doubleValue == 0, "\(card)")
        #expect(card["device"]?.stringValue == "colorlight veth0: 8 rows, 16 row packets a frame")
        let lines = WireReceiver.lines(of: output)
        let frames = lines.filter { $0["frame"] != nil }
        let summary = lines.last { $0["summary"] != nil }?["summary"] as? [String: Any] ?? [:]
        #expect(sent >= 60 && frames.count >= sent + 1, "captured \(frames.count), sent \(sent)")
        #expect(summary["malformed"] as? Int == 0, "\(summary)")
        #expect(frames.allSatisfy { $0["whole"] as? Bool == true && $0["rows"] as? Int == 8 && $0["packets"] as? Int == 16 })
        #expect(frames.allSatisfy { $0["brightness"] as? [Int] == [255, 255, 255, 255] })
        #expect(frames.allSatisfy { $0["level"] as? Int == 255 && $0["marker"] as? Int == 5 && $0["levels"] as? [Int] == [255, 255, 255] })

        let rgb = s.dir.appendingPathComponent("frames.rgb").path
        let render = try run(Paths.signd, ["render", "--config", config, "--frames", "\(FlaschenTaschenOutputTests.framesToRender(status))", "--out", rgb])
        #expect(render.status == 0, "\(render.stderr)")
        let rendered = try Data(contentsOf: URL(fileURLWithPath: rgb))
        let size = 600 * 8 * 3
        var index = 0, matched = 0
        for frame in frames.dropLast() {
            let bytes = Data(WireReceiver.bytes(frame))
            while index * size < rendered.count, rendered[index * size..<(index + 1) * size] != bytes { index += 1 }
            if index * size < rendered.count { matched += 1 }
        }
        #expect(matched == frames.count - 1, "\(matched) of \(frames.count - 1) frames match a rendered frame in order")
        #expect(WireReceiver.bytes(try #require(frames.last)).allSatisfy { $0 == 0 }, "blank on stop")
    }

    @Test("an interface that does not exist: the output waits and names it; signd runs on")
    func missingInterface() throws {
        let s = try Scratch()
        let config = try s.write(
            """
            [display]
            width = 64
            height = 16
            [[layer]]
            text = "x"
            [preview]
            terminal = "off"
            [[output]]
            type = "colorlight"
            name = "card"
            interface = "nosuch0"
            """)
        let signd = try s.startSignd(config: config)
        try s.waitForClock(frames: 10)
        let card = try #require(try s.request("status")["outputs"]?.arrayValue?.first { $0["name"]?.stringValue == "card" })
        #expect(card["state"]?.stringValue == "waiting")
        #expect(card["last_error"]?.stringValue?.contains("no network interface \"nosuch0\"") == true, "\(card)")
        #expect(s.stop(signd) < 10)
    }
}
