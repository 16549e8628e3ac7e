import Foundation
import Glibc
import SignControl
import Testing

/// A network namespace of the test's own, with loopback and a veth pair (10.99.0.1 and
/// .2), removed at the end: olad's plugins bind to every non-loopback interface and
/// broadcast, so they run only in here, never on the machine's own network.
final class TestNetworkNamespace {
    let name = "signd-test-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"

    init() throws {
        for command in [
            ["netns", "add", name],
            ["-n", name, "link", "set", "lo", "up"],
            ["-n", name, "link", "add", "veth0", "type", "veth", "peer", "name", "veth1"],
            ["-n", name, "addr", "add", "10.99.0.1/24", "dev", "veth0"],
            ["-n", name, "addr", "add", "10.99.0.2/24", "dev", "veth1"],
            ["-n", name, "link", "set", "veth0", "up"],
            ["-n", name, "link", "set", "veth1", "up"],
            // Multicast (E1.31 without a host) goes out by veth1, where olad joins the
            // groups; the kernel loops a copy back to members on that interface.
            ["-n", name, "route", "add", "224.0.0.0/4", "dev", "veth1"],
        ] {
            let result = try run("/usr/sbin/ip", command)
            guard result.status == 0 else {
                _ = try? run("/usr/sbin/ip", ["netns", "del", name])
                throw ControlClient.Unreachable(
                    path: name, reason: "ip \(command.joined(separator: " ")): \(result.stderr)")
            }
        }
    }

    deinit { _ = try? run("/usr/sbin/ip", ["netns", "del", name]) }

    /// `ip netns exec NAME` and then `command`.
    func exec(_ command: [String]) -> [String] { ["netns", "exec", name] + command }
}

@Suite("OLA's olad receiving signd's E1.31, Art-Net and OPC, in a network namespace", .serialized)
struct OLAReceiverTests {
    @Test(
        "10 s at 60 fps: olad's E1.31 (unicast and multicast), Art-Net and OPC ports get every frame signd renders, in order",
        .enabled(if: getuid() == 0, "creating a network namespace needs root"))
    func olad() throws {
        let s = try Scratch()
        let namespace = try TestNetworkNamespace()
        let output = s.dir.appendingPathComponent("ola.jsonl")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let peer = Process()
        peer.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        peer.arguments = namespace.exec(
            [
                "/usr/bin/python3", Paths.root.appendingPathComponent("tools/ola-peer.py").path, "--ip", "10.99.0.2",
                "--seconds", "60",
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
            "olad came up in the namespace")

        func outputKeys(_ type: String, _ name: String, _ keys: String) -> String {
            """
            [[output]]
            type = "\(type)"
            name = "\(name)"
            \(keys)
            gamma = 1.0
            dithering = false
            [[output.panel]]
            width = 16
            height = 8
            """
        }
        let config = try s.write(
            """
            [display]
            width = 16
            height = 8
            fps = 60
            [[layer]]
            text = "OLA receives"
            font = "6x10"
            color = "#40c0ff"
            speed = 20
            [preview]
            terminal = "off"
            \(outputKeys("e131", "unicast", "host = \"10.99.0.2\"\nuniverse = 1"))
            \(outputKeys("artnet", "artnet", "host = \"10.99.0.2\"\nuniverse = 2"))
            \(outputKeys("opc", "opc", "host = \"127.0.0.1\""))
            \(outputKeys("e131", "multicast", "universe = 4"))
            """)
        let signd = try s.launch(
            "/usr/sbin/ip", namespace.exec([Paths.signd, "run", "--config", config, "--socket", s.socket]))
        try s.waitForSocket(signd)
        try s.waitForClock(frames: 600)
        let status = try s.request("status")
        s.stop(signd)
        // olad passes frames on in its own time: wait until each UDP port has what signd
        // counted as sent and the blank frame, then stop reading (OPC: see below).
        _ = eventually(timeout: 20) {
            let lines = WireReceiver.lines(of: output)
            return [(1, "unicast"), (2, "artnet"), (4, "multicast")].allSatisfy { universe, name in
                let out = status["outputs"]?.arrayValue?.first { $0["name"]?.stringValue == name }
                let sent = Int(out?["frames_sent"]?.doubleValue ?? 0)
                let frames = lines.compactMap { $0["universe"] as? Int == universe ? $0["data"] as? String : nil }
                let blanked = frames.last.map { WireReceiver.bytes(hex: $0).prefix(16 * 8 * 3).allSatisfy { $0 == 0 } }
                return frames.count >= sent + 1 && blanked == true
            }
        }
        kill(peer.processIdentifier, SIGTERM)
        peer.waitUntilExit()

        let rgb = s.dir.appendingPathComponent("frames.rgb").path
        let clockFrames = Int(status["frames"]?.doubleValue ?? 0)
        let render = try run(
            Paths.signd, ["render", "--config", config, "--frames", "\(clockFrames + 120)", "--out", rgb])
        #expect(render.status == 0, "\(render.stderr)")
        let rendered = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rgb)))
        let size = 16 * 8 * 3
        let lines = WireReceiver.lines(of: output)
        for (universe, name) in [(1, "unicast"), (2, "artnet"), (3, "opc"), (4, "multicast")] {
            let out = status["outputs"]?.arrayValue?.first { $0["name"]?.stringValue == name }
            let sent = Int(out?["frames_sent"]?.doubleValue ?? -1)
            #expect(out?["state"] == "ok" && out?["errors"] == 0, "\(name): \(String(describing: out))")
            var frames: [[UInt8]] = lines.filter { $0["universe"] as? Int == universe }.compactMap {
                guard let hex = $0["data"] as? String else { return nil }
                return Array(WireReceiver.bytes(hex: hex).prefix(size))
            }
            // Every frame sent by the time of `status`, a few more before the stop, and the
            // blank one; but olad's OPC server does not always pass on the message that arrives
            // with the connection's close (tools/wire-peer.py's OPC receiver always gets it).
            let blank = name != "opc"
            // When olad's OPC server does pass the blank frame on, it is not a rendered one.
            if !blank, frames.count > 1, frames.last?.allSatisfy({ $0 == 0 }) == true { frames.removeLast() }
            #expect(frames.count <= clockFrames + 130, "\(name): olad got \(frames.count) of \(sent)")
            // olad's OPC server skips frames when it falls behind on a busy machine (it got
            // 571 of 600 with 20 s to catch up, where TCP loses none), and then at times passes
            // on one frame that is none signd rendered (1 of 576 while it skipped 28): known,
            // and only then. That every frame goes out whole over OPC is pinned against
            // wire-peer.py's receiver in NetworkOutputTests.
            let oladFellBehind = !blank && frames.count < sent
            withKnownIssue("olad's OPC server skips frames under load", isIntermittent: true) {
                #expect(frames.count >= sent + (blank ? 1 : 0), "\(name): olad got \(frames.count) of \(sent)")
            } when: {
                oladFellBehind
            }
            // Each frame is looked for from the last one matched on, so that one that matches
            // nothing is named and does not hide the ones after it.
            var index = 0, unmatched: [Int] = []
            for (position, frame) in (blank ? frames.dropLast() : frames[...]).enumerated() {
                var next = index
                while (next + 1) * size <= rendered.count, Array(rendered[next * size..<(next + 1) * size]) != frame {
                    next += 1
                }
                if (next + 1) * size <= rendered.count { index = next } else { unmatched.append(position) }
            }
            let matched = frames.count - (blank ? 1 : 0) - unmatched.count
            let compared = frames.count - (blank ? 1 : 0)
            withKnownIssue("olad's OPC server, behind, passes on a mixed frame", isIntermittent: true) {
                #expect(
                    matched == compared,
                    "\(name): \(matched) of \(compared) frames are rendered frames, in order; not: \(unmatched.prefix(20))"
                )
            } when: {
                oladFellBehind
            }
            if blank { #expect(frames.last?.allSatisfy { $0 == 0 } == true, "\(name): blanked on stop") }
        }
    }
}
