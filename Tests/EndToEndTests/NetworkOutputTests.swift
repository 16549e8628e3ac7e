import Foundation
import Glibc
import SignControl
import Testing

/// A receiver made of the protocols' own Python packages (tools/wire-peer.py receive) on
/// 127.0.0.1: every datagram parsed with sacn, python-led-ddp or stupidArtnet, frames
/// assembled as a controller does, one JSON line per frame.
final class WireReceiver {
    let process: Process
    let output: URL
    let port: Int

    init(_ scratch: Scratch, _ proto: String, leds: Int, port: Int = 0, seconds: Double, options: [String] = []) throws
    {
        output = scratch.dir.appendingPathComponent("receiver-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", Paths.root.appendingPathComponent("tools/wire-peer.py").path, "receive", proto, "--port",
                "\(port)",
                "--leds", "\(leds)", "--seconds", "\(seconds)",
            ] + options
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = output
        let found = firstValue(timeout: 20) { Self.lines(of: output).first?["ready"] as? Int } ?? 0
        self.port = found
        if found == 0 {
            process.terminate()
            throw ControlClient.Unreachable(path: "wire-peer.py", reason: "the receiver did not start")
        }
    }

    func lines() -> [[String: Any]] { Self.lines(of: output) }

    static func lines(of output: URL) -> [[String: Any]] {
        guard let text = try? String(contentsOf: output, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The frames received, each with what its packets said.
    func frames() -> [[String: Any]] { lines().filter { $0["frame"] != nil } }

    var summary: [String: Any] { lines().last { $0["summary"] != nil }?["summary"] as? [String: Any] ?? [:] }

    /// Whether everything sent to the receiver has been read: no socket on its port has
    /// bytes waiting (/proc/net/udp and tcp, tx_queue:rx_queue). Once the sender has exited,
    /// nothing more comes, so the receiver can be finished without losing a packet.
    var drained: Bool {
        let local = String(format: ":%04X", port)
        for table in ["/proc/net/udp", "/proc/net/tcp"] {
            let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 4, fields[1].hasSuffix(local) else { continue }
                if fields[4].split(separator: ":").last.flatMap({ Int($0, radix: 16) }) != 0 { return false }
            }
        }
        return true
    }

    func finish() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    static func bytes(_ frame: [String: Any]) -> [UInt8] {
        guard let hex = frame["frame"] as? String else { return [] }
        return bytes(hex: hex)
    }

    /// Bytes from lower-case hex, as the peers print them.
    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var iterator = hex.utf8.makeIterator()
        func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : c - 87 }
        while let hi = iterator.next(), let lo = iterator.next() { bytes.append(nibble(hi) << 4 | nibble(lo)) }
        return bytes
    }
}

@Suite("Network LED outputs against the protocols' own receivers", .serialized)
struct NetworkOutputTests {
    /// A 64x16 scrolling text to a serpentine 64x16 matrix (rows, from the top left),
    /// uncorrected so the bytes on the wire are the rendered ones.
    static func config(_ scratch: Scratch, _ output: String) throws -> String {
        try scratch.write(
            """
            [display]
            width = 64
            height = 16
            fps = 60
            [[layer]]
            id = "main"
            text = "Network LED outputs"
            font = "6x10"
            color = "#ffb000"
            speed = 30
            [preview]
            terminal = "off"
            [[output]]
            name = "net"
            gamma = 1.0
            dithering = false
            \(output)
            [[output.panel]]
            width = 64
            height = 16
            serpentine = true
            """)
    }

    /// A frame in LED order (serpentine rows) back in frame order.
    static func unserpentine(_ leds: [UInt8]) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: leds.count)
        for led in 0..<leds.count / 3 {
            let row = led / 64, column = row % 2 == 0 ? led % 64 : 63 - led % 64
            frame[(row * 64 + column) * 3..<(row * 64 + column) * 3 + 3] = leds[led * 3..<led * 3 + 3]
        }
        return frame
    }

    /// Every received frame but the last is one `signd render` draws, in order; the last is
    /// the blank one signd sends when it stops.
    static func expectRendered(_ received: [[UInt8]], config: String, frames: Int, _ scratch: Scratch) throws {
        let rgb = scratch.dir.appendingPathComponent("frames.rgb").path
        let render = try run(Paths.signd, ["render", "--config", config, "--frames", "\(frames + 60)", "--out", rgb])
        #expect(render.status == 0, "\(render.stderr)")
        let rendered = try Data(contentsOf: URL(fileURLWithPath: rgb))
        let size = 64 * 16 * 3
        var index = 0
        var matched = 0
        for leds in received.dropLast() {
            let decoded = unserpentine(leds)
            while index * size < rendered.count, Array(rendered[index * size..<(index + 1) * size]) != decoded {
                index += 1
            }
            if index * size < rendered.count { matched += 1 }
        }
        #expect(
            matched == received.count - 1, "\(matched) of \(received.count - 1) frames match a rendered frame in order")
        #expect(received.last?.allSatisfy { $0 == 0 } == true, "signd blanks the controller on stop")
    }

    static func output(_ scratch: Scratch) throws -> JSONValue? {
        try scratch.request("status")["outputs"]?.arrayValue?.first { $0["name"]?.stringValue == "net" }
    }

    @Test(
        "10 s at 60 fps to each protocol's receiver: every frame arrives, whole and in order, and decodes to the rendered frame",
        arguments: [
            ("ddp", "type = \"ddp\"", [String]()),
            ("e131", "type = \"e131\"\npriority = 150\nsync_universe = 9\nsource_name = \"shop window\"", []),
            ("artnet", "type = \"artnet\"\nartsync = true", ["--artsync"]),
            ("opc", "type = \"opc\"", []),
            ("flaschen-taschen", "type = \"flaschen-taschen\"", ["--width", "64"]),
        ])
    func streams(proto: String, keys: String, options: [String]) throws {
        let scratch = try Scratch()
        let receiver = try WireReceiver(scratch, proto, leds: 1024, seconds: 30, options: options)
        let config = try Self.config(scratch, "\(keys)\nhost = \"127.0.0.1\"\nport = \(receiver.port)")
        let signd = try scratch.startSignd(config: config)
        try scratch.waitForClock(frames: 600)
        let status = try scratch.request("status")
        let net = try #require(try Self.output(scratch))
        scratch.stop(signd)
        #expect(eventually { receiver.drained }, "the receiver never read what signd sent")
        receiver.finish()

        let clockFrames = Int(status["frames"]?.doubleValue ?? 0)
        let sent = Int(net["frames_sent"]?.doubleValue ?? -1)
        #expect(net["state"]?.stringValue == "ok")
        #expect(net["type"]?.stringValue == proto)
        #expect(net["errors"]?.doubleValue == 0 && net["dropped"]?.doubleValue == 0, "\(net)")
        #expect(clockFrames >= 600 && clockFrames - sent <= 2, "rendered \(clockFrames), sent \(sent)")
        let frames = receiver.frames()
        // Every frame sent by the time of `status`, a few more before the stop, and the blank one.
        #expect(frames.count >= sent + 1 && frames.count <= clockFrames + 130, "received \(frames.count), sent \(sent)")
        #expect(receiver.summary["rejected"] as? Int == 0, "\(receiver.summary)")
        try Self.expectRendered(frames.map(WireReceiver.bytes), config: config, frames: clockFrames + 130, scratch)

        switch proto {
        case "ddp":
            // Three packets a frame, one sequence number each frame, 1 to 15 and round again.
            let sequences = frames.compactMap { $0["sequences"] as? [Int] }
            #expect(sequences.allSatisfy { $0.count == 3 && Set($0).count == 1 && (1...15).contains($0[0]) })
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1[0] == $0[0] % 15 + 1 }, "0 frames lost")
        case "e131":
            // 1024 LEDs at 170 a universe: 7 universes, each numbered on its own, with the
            // source's name, CID and priority; a sync packet ends every frame; three
            // stream-terminated packets a universe on stop.
            let universes = frames.compactMap { $0["universes"] as? [String: [String: Any]] }
            #expect(universes.allSatisfy { Set($0.keys) == Set((1...7).map(String.init)) })
            #expect(frames.allSatisfy { $0["sync"] as? Int == 9 })
            let first = try #require(universes.first?["1"])
            #expect(first["priority"] as? Int == 150 && first["source_name"] as? String == "shop window")
            #expect((first["cid"] as? String)?.count == 32)
            #expect(universes.allSatisfy { $0.values.allSatisfy { $0["cid"] as? String == first["cid"] as? String } })
            let sequences = universes.map { $0["4"]?["sequence"] as? Int ?? -1 }
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == ($0 + 1) % 256 }, "0 frames lost")
            #expect(receiver.summary["terminated"] as? Int == 21)
        case "artnet":
            let universes = frames.compactMap { $0["universes"] as? [String: [String: Any]] }
            #expect(universes.allSatisfy { Set($0.keys) == Set((0...6).map(String.init)) })
            #expect(frames.allSatisfy { $0["artsync"] as? Bool == true })
            let sequences = universes.map { $0["0"]?["sequence"] as? Int ?? -1 }
            #expect(sequences.allSatisfy { (1...255).contains($0) })
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 % 255 + 1 }, "0 frames lost")
        case "flaschen-taschen":
            // 64x16 is one datagram a frame: the whole picture at (0, 0) on the background.
            #expect(frames.allSatisfy { $0["whole"] as? Bool == true })
            #expect(frames.allSatisfy { ($0["tiles"] as? [[Int]])?.map { Array($0.prefix(5)) } == [[0, 0, 64, 16, 0]] })
            #expect(receiver.summary["footer_mismatch"] == nil && receiver.summary["outside"] == nil)
        default:
            #expect(receiver.summary["connections"] as? Int == 1)
            #expect(frames.allSatisfy { $0["channel"] as? Int == 0 })
        }
    }

    @Test("a receiver that goes away makes the output wait, and is streamed to again when it returns")
    func receiverReturns() throws {
        let scratch = try Scratch()
        var receiver = try WireReceiver(scratch, "ddp", leds: 1024, seconds: 30)
        let port = receiver.port
        let config = try Self.config(scratch, "type = \"ddp\"\nhost = \"127.0.0.1\"\nport = \(port)")
        let signd = try scratch.startSignd(config: config)
        defer { scratch.stop(signd) }
        #expect(eventually { receiver.frames().count >= 40 })
        receiver.finish()
        var net = try #require(try Self.output(scratch))
        _ = try eventually {
            net = try #require(try Self.output(scratch))
            return net["state"]?.stringValue != "ok"
        }
        #expect(net["state"]?.stringValue == "waiting", "\(net)")
        let lastError = net["last_error"]?.stringValue ?? ""
        #expect(lastError.contains("refused"), "\(net)")
        #expect((net["errors"]?.doubleValue ?? 0) >= 1)
        let frames = try scratch.clockFrames()
        #expect(try eventually { try scratch.clockFrames() >= frames + 25 }, "the clock runs on")

        receiver = try WireReceiver(scratch, "ddp", leds: 1024, port: port, seconds: 30)
        _ = try eventually {
            net = try #require(try Self.output(scratch))
            return net["state"]?.stringValue == "ok" && receiver.frames().count >= 150
        }
        receiver.finish()
        #expect(net["state"]?.stringValue == "ok", "\(net)")
        #expect(net["reconnects"]?.doubleValue == 1)
        #expect(receiver.frames().count >= 150, "streamed to again: \(receiver.frames().count) frames")
    }

    @Test("an OPC server that restarts gets a new connection and the frames again")
    func opcReconnects() throws {
        let scratch = try Scratch()
        var receiver = try WireReceiver(scratch, "opc", leds: 1024, seconds: 30)
        let port = receiver.port
        let config = try Self.config(scratch, "type = \"opc\"\nhost = \"127.0.0.1\"\nport = \(port)")
        let signd = try scratch.startSignd(config: config)
        defer { scratch.stop(signd) }
        #expect(eventually { !receiver.frames().isEmpty }, "the first server gets frames")
        receiver.finish()
        var net = try #require(try Self.output(scratch))
        _ = try eventually {
            net = try #require(try Self.output(scratch))
            return net["state"]?.stringValue == "waiting"
        }
        #expect(net["state"]?.stringValue == "waiting", "\(net)")
        receiver = try WireReceiver(scratch, "opc", leds: 1024, port: port, seconds: 30)
        _ = try eventually {
            net = try #require(try Self.output(scratch))
            return net["state"]?.stringValue == "ok" && receiver.frames().count >= 50
        }
        receiver.finish()
        #expect(net["state"]?.stringValue == "ok" && net["reconnects"]?.doubleValue == 1, "\(net)")
        #expect(receiver.frames().count >= 50)
        #expect(receiver.frames().allSatisfy { WireReceiver.bytes($0).count == 1024 * 3 }, "the stream stays whole")
    }

    @Test("max_fps = 40 under a 60 fps display: two frames of every three go out, evenly")
    func maxFPS() throws {
        let scratch = try Scratch()
        let receiver = try WireReceiver(scratch, "ddp", leds: 1024, seconds: 30)
        let config = try Self.config(
            scratch, "type = \"ddp\"\nhost = \"127.0.0.1\"\nport = \(receiver.port)\nmax_fps = 40")
        let signd = try scratch.startSignd(config: config)
        try scratch.waitForClock(frames: 180)
        let status = try scratch.request("status")
        let net = try #require(try Self.output(scratch))
        scratch.stop(signd)
        receiver.finish()
        let clockFrames = status["frames"]?.doubleValue ?? 0
        let sent = net["frames_sent"]?.doubleValue ?? 0
        #expect(abs(sent - clockFrames * 2 / 3) <= 2, "display frames \(clockFrames), sent \(sent)")
        let times = receiver.frames().compactMap { $0["t"] as? Double }
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
        #expect(gaps.count > 60 && gaps[gaps.count / 2] > 0.012, "median gap \(gaps[gaps.count / 2]) s")
    }
}
