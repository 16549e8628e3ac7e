import Foundation
import Glibc
import SignControl
import Testing

/// Two pseudo-terminals joined by socat: signd writes to one as it would to a USB serial
/// port, a receiver reads the other. Stopping it makes both vanish, as an unplugged board's
/// port does; starting it again brings them back under the same names.
final class SerialLink {
    let signdSide: String
    let peerSide: String
    private var process: Process?

    init(_ scratch: Scratch) throws {
        signdSide = scratch.dir.appendingPathComponent("ttyLED").path
        peerSide = scratch.dir.appendingPathComponent("ttyPeer").path
        try start()
    }

    func start() throws {
        let socat = Process()
        socat.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        socat.arguments = ["pty,raw,echo=0,link=\(signdSide)", "pty,raw,echo=0,link=\(peerSide)"]
        socat.standardInput = FileHandle.nullDevice
        try socat.run()
        process = socat
        let up = eventually { access(self.signdSide, F_OK) == 0 && access(self.peerSide, F_OK) == 0 }
        if !up { throw ControlClient.Unreachable(path: signdSide, reason: "socat made no pseudo-terminals") }
    }

    /// Ends socat: both ports go away. SIGKILL, because socat blocked writing to a side
    /// nobody reads finishes that write before it heeds SIGTERM.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
        unlink(signdSide)
        unlink(peerSide)
    }

    deinit { stop() }
}

/// tools/serial-peer.py: pyserial reading the port and decoding each protocol's frames byte
/// for byte, one JSON line per frame.
final class SerialReceiver {
    let process: Process
    let output: URL

    init(_ scratch: Scratch, _ proto: String, port: String, seconds: Double = 60) throws {
        output = scratch.dir.appendingPathComponent("serial-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Paths.root.appendingPathComponent("tools/serial-peer.py").path, "receive", proto, "--port", port,
            "--seconds", "\(seconds)",
        ]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = output
        if !eventually(timeout: 20, { WireReceiver.lines(of: output).first?["ready"] != nil }) {
            process.terminate()
            throw ControlClient.Unreachable(path: port, reason: "serial-peer.py did not open the port")
        }
    }

    func lines() -> [[String: Any]] { WireReceiver.lines(of: output) }

    func frames() -> [[String: Any]] { lines().filter { $0["frame"] != nil } }

    var summary: [String: Any] { lines().last { $0["summary"] != nil }?["summary"] as? [String: Any] ?? [:] }

    /// Waits until no new frame has come for half a second (everything sent has been read),
    /// then ends the receiver.
    func finish() {
        var last = -1
        _ = firstValue(timeout: 20, every: 0.5) { () -> Bool? in
            let now = frames().count
            defer { last = now }
            return now == last ? true : nil
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}

@Suite("Serial and DMX outputs through a pseudo-terminal, decoded by pyserial", .serialized)
struct SerialOutputTests {
    @Test(
        "5 s at 60 fps down a serial port: every frame arrives whole, checks out, and decodes to the rendered frame",
        arguments: ["adalight", "awa", "tpm2"])
    func streams(proto: String) throws {
        let scratch = try Scratch()
        let link = try SerialLink(scratch)
        defer { link.stop() }
        let receiver = try SerialReceiver(scratch, proto, port: link.peerSide)
        let config = try NetworkOutputTests.config(
            scratch, "type = \"serial\"\nprotocol = \"\(proto)\"\ndevice = \"\(link.signdSide)\"\nbaud = 2000000")
        let signd = try scratch.startSignd(config: config)
        try scratch.waitForClock(frames: 300)
        let status = try scratch.request("status")
        let out = try #require(try NetworkOutputTests.output(scratch))
        scratch.stop(signd)
        receiver.finish()

        let clockFrames = Int(status["frames"]?.doubleValue ?? 0)
        let sent = Int(out["frames_sent"]?.doubleValue ?? -1)
        let dropped = Int(out["dropped"]?.doubleValue ?? -1)
        #expect(out["type"]?.stringValue == "serial" && out["state"]?.stringValue == "ok", "\(out)")
        #expect(out["errors"]?.doubleValue == 0, "\(out)")
        #expect(out["device"]?.stringValue == "\(link.signdSide) at 2000000 baud", "\(out)")
        // A frame the pseudo-terminal could not take whole at once is dropped, never queued.
        #expect(abs(clockFrames - sent - dropped) <= 2 && sent >= clockFrames / 2, "rendered \(clockFrames), \(out)")
        let frames = receiver.frames()
        #expect(receiver.summary["bad"] as? Int == 0 && receiver.summary["skipped"] as? Int == 0, "\(receiver.summary)")
        #expect(frames.count >= sent + 1, "received \(frames.count), sent \(sent) by the time of status")
        #expect(frames.allSatisfy { $0["leds"] as? Int == 1024 })
        try NetworkOutputTests.expectRendered(
            frames.map(WireReceiver.bytes), config: config, frames: clockFrames + 130, scratch)
    }

    @Test("a port that disappears makes the output wait while the clock runs on, and is reopened when it returns")
    func portReturns() throws {
        let scratch = try Scratch()
        let link = try SerialLink(scratch)
        defer { link.stop() }
        let receiver = try SerialReceiver(scratch, "adalight", port: link.peerSide)
        let config = try NetworkOutputTests.config(
            scratch, "type = \"serial\"\nprotocol = \"adalight\"\ndevice = \"\(link.signdSide)\"")
        let signd = try scratch.startSignd(config: config)
        defer { scratch.stop(signd) }
        #expect(eventually { receiver.frames().count >= 30 })

        link.stop()
        var out = try #require(try NetworkOutputTests.output(scratch))
        _ = try eventually {
            out = try #require(try NetworkOutputTests.output(scratch))
            return out["state"]?.stringValue == "waiting"
        }
        #expect(out["state"]?.stringValue == "waiting", "\(out)")
        #expect((out["errors"]?.doubleValue ?? 0) >= 1, "\(out)")
        let reason = out["last_error"]?.stringValue ?? ""
        #expect(reason.contains(link.signdSide), "the reason names the port: \(out)")
        let frames = try scratch.clockFrames()
        #expect(try eventually { try scratch.clockFrames() >= frames + 25 }, "the clock runs on")

        let before = receiver.frames().count
        try link.start()
        _ = try eventually(timeout: 20) {
            out = try #require(try NetworkOutputTests.output(scratch))
            return out["state"]?.stringValue == "ok" && receiver.frames().count >= before + 30
        }
        #expect(out["state"]?.stringValue == "ok" && out["reconnects"]?.doubleValue == 1, "\(out)")
        #expect(receiver.frames().count >= before + 30, "frames again after the port came back")
        #expect(receiver.lines().contains { $0["reopened"] as? Int == 1 }, "the receiver saw the port go and come back")
        #expect(receiver.frames().allSatisfy { $0["leds"] as? Int == 1024 })
    }

    @Test("a path that is not a serial port: the output waits, naming it, and the clock runs on")
    func notATTY() throws {
        let scratch = try Scratch()
        let file = try scratch.write("not a port", "ttyFile")
        let config = try NetworkOutputTests.config(
            scratch, "type = \"serial\"\nprotocol = \"tpm2\"\ndevice = \"\(file)\"")
        let signd = try scratch.startSignd(config: config)
        defer { scratch.stop(signd) }
        try scratch.waitForClock(frames: 30)
        let out = try #require(try NetworkOutputTests.output(scratch))
        #expect(out["state"]?.stringValue == "waiting", "\(out)")
        #expect(out["last_error"]?.stringValue == "\(file) is not a serial port (not a tty)", "\(out)")
        #expect(scratch.stderr(of: signd).contains("\(file) is not a serial port (not a tty)"))
    }

    @Test("an Enttec DMX USB Pro gets label 6 packets: start code 0, 400 channels, two rows of LEDs from channel 5")
    func dmxUSBPro() throws {
        let scratch = try Scratch()
        let link = try SerialLink(scratch)
        defer { link.stop() }
        let receiver = try SerialReceiver(scratch, "enttec", port: link.peerSide)
        let config = try scratch.write(
            """
            [display]
            width = 64
            height = 16
            fps = 40
            [[layer]]
            id = "main"
            text = "Network LED outputs"
            font = "6x10"
            color = "#ffb000"
            speed = 30
            [preview]
            terminal = "off"
            [[output]]
            type = "dmx-usb-pro"
            name = "net"
            device = "\(link.signdSide)"
            channels = 400
            start_channel = 5
            gamma = 1.0
            dithering = false
            [[output.panel]]
            y = 4
            width = 64
            height = 2
            """)
        let signd = try scratch.startSignd(config: config)
        try scratch.waitForClock(frames: 120)
        let out = try #require(try NetworkOutputTests.output(scratch))
        scratch.stop(signd)
        receiver.finish()
        #expect(out["type"]?.stringValue == "dmx-usb-pro" && out["errors"]?.doubleValue == 0, "\(out)")
        let frames = receiver.frames()
        #expect(frames.count >= 100 && receiver.summary["bad"] as? Int == 0, "\(frames.count) \(receiver.summary)")
        #expect(frames.allSatisfy { $0["label"] as? Int == 6 && $0["channels"] as? Int == 400 })

        // Channels 5...388 are rows 4 and 5 of a rendered frame, in order; the rest stay 0.
        let rgb = scratch.dir.appendingPathComponent("frames.rgb").path
        let render = try run(
            Paths.signd, ["render", "--config", config, "--frames", "400", "--fps", "40", "--out", rgb])
        #expect(render.status == 0, "\(render.stderr)")
        let rendered = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rgb)))
        let size = 64 * 16 * 3
        var index = 0
        var matched = 0
        for frame in frames.dropLast() {
            let channels = WireReceiver.bytes(frame)
            #expect(channels[0..<4].allSatisfy { $0 == 0 } && channels[388...].allSatisfy { $0 == 0 })
            let rows = Array(channels[4..<388])
            while (index + 1) * size <= rendered.count,
                Array(rendered[(index * size + 4 * 64 * 3)..<(index * size + 6 * 64 * 3)]) != rows
            {
                index += 1
            }
            if (index + 1) * size <= rendered.count { matched += 1 }
        }
        #expect(matched == frames.count - 1, "\(matched) of \(frames.count - 1) frames match a rendered frame in order")
        #expect(frames.last.map(WireReceiver.bytes)?.allSatisfy { $0 == 0 } == true, "blank on stop")
    }
}
