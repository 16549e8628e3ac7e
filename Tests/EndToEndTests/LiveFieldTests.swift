import Foundation
import SignControl
import Testing

/// Live fields end to end: `signd render --at` turning a minute on the exact frame, and
/// `set-var` through signctl, in status and across a restart.
@Suite("Live fields, end to end", .serialized)
struct LiveFieldTests {
    /// A 48x12 board whose one layer shows `text`, standing still.
    static func config(_ text: String, extra: String = "") -> String {
        """
        [display]
        width = 48
        height = 12
        fps = 10
        timezone = "Europe/Berlin"
        [[layer]]
        text = "\(text)"
        font = "6x13"
        speed = 0
        fade = 0
        scroll = "overflow"
        [preview]
        terminal = "off"
        \(extra)
        """
    }

    /// Frames of `signd render`, RGB888 each.
    static func render(_ s: Scratch, _ config: String, frames: Int, at: String) throws -> [[UInt8]] {
        let path = try s.write(config, "render-\(UInt32.random(in: 0...UInt32.max)).toml")
        let out = s.dir.appendingPathComponent("frames-\(UInt32.random(in: 0...UInt32.max)).rgb").path
        let rendered = try run(
            Paths.signd, ["render", "--config", path, "--frames", String(frames), "--at", at, "--out", out])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: out)))
        let size = 48 * 12 * 3
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    @Test(
        "a clock field turns on the frame due at the minute (here the night summer time begins in Berlin), not a frame late"
    )
    func minuteTurnsOnItsFrame() throws {
        let s = try Scratch()
        // The minute turns 0.45 s in: frame 5 (t = 0.5) is the first due at or after it.
        let frames = try Self.render(s, Self.config("{time:%H:%M}"), frames: 10, at: "2026-03-29T01:59:59.55+01:00")
        #expect(frames.count == 10)
        #expect(Set(frames[0..<5]).count == 1 && Set(frames[5..<10]).count == 1)
        let before = try Self.render(s, Self.config("01:59"), frames: 1, at: "2026-03-29T01:00:00+01:00")[0]
        let after = try Self.render(s, Self.config("03:00"), frames: 1, at: "2026-03-29T01:00:00+01:00")[0]
        #expect(frames[4] == before, "01:59 until the turn")
        #expect(frames[5] == after, "03:00 from the frame of the turn: summer time began")
        #expect(before != after)
    }

    @Test("a clock before 2020 (never set) shows dashes")
    func unsetClock() throws {
        let s = try Scratch()
        let frame = try Self.render(s, Self.config("{time:%H:%M}"), frames: 1, at: "1970-01-01T00:00:10Z")[0]
        let dashes = try Self.render(s, Self.config("--:--"), frames: 1, at: "2026-01-01T00:00:00Z")[0]
        #expect(frame == dashes)
    }

    @Test(
        "signctl set-var changes every {var:NAME} field; status shows the text, what is shown and the vars; the vars survive a restart; bad fields are refused"
    )
    func setVariable() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "Now: {var:track}"))
        let environment = ["STATE_DIRECTORY": s.dir.path]
        var signd = try s.startSignd(config: config, environment: environment)
        defer { s.stop(signd) }
        var status = try s.request("status")
        #expect(status["text"] == "Now: {var:track}" && status["shown"] == "Now: ")
        let set = try run(Paths.signctl, ["set-var", "track", "Blue {Monday}", "--socket", s.socket])
        #expect(set.status == 0, "\(set.stderr)")
        status = try s.request("status")
        #expect(status["shown"] == "Now: Blue {{Monday}", "braces in a value are shown, not markup")
        #expect(status["vars"] == ["track": "Blue {Monday}"])
        let printed = try run(Paths.signctl, ["status", "--socket", s.socket]).stdout
        #expect(printed.contains("var:      track = Blue {Monday}"), "\(printed)")

        #expect(try run(Paths.signctl, ["set-var", "bad name", "x", "--socket", s.socket]).status != 0)
        #expect(throws: ControlError.self) { try s.request("set-text", ["text": "{countdown:soon}"]) }
        #expect(throws: ControlError.self) { try s.request("set-var", ["name": "a/b", "value": "x"]) }

        s.stop(signd)
        signd = try s.startSignd(config: config, environment: environment)
        status = try s.request("status")
        #expect(status["shown"] == "Now: Blue {{Monday}")
        _ = try s.request("set-var", ["name": "track", "value": ""])
        status = try s.request("status")
        #expect(status["shown"] == "Now: " && status["vars"] == [:])
    }

    @Test("a running daemon's seconds clock shows each new second")
    func runningClock() throws {
        let s = try Scratch()
        let signd = try s.startSignd(config: try s.write(s.config(text: "{time:%H:%M:%S}")))
        defer { s.stop(signd) }
        var seen = Set<String>()
        // Three different seconds take two to three seconds of the wall clock.
        _ = try eventually(timeout: 15) {
            if let shown = try s.request("status")["shown"]?.stringValue { seen.insert(shown) }
            return seen.count >= 3
        }
        #expect(seen.count >= 3, "\(seen.sorted())")
        #expect(seen.allSatisfy { $0.count == 8 && $0.filter { $0 == ":" }.count == 2 })
    }

    @Test(
        "tools/now-playing-mpris sets the track from an MPRIS player (a fake one on a private session bus): artist and title, a title alone, unset when it stops"
    )
    func nowPlayingFollowsMPRIS() throws {
        let s = try Scratch()
        let config = Paths.root.appendingPathComponent("configs/examples/now-playing.toml").path
        let signd = try s.launch(Paths.signd, ["run", "--config", config, "--socket", s.socket, "--no-preview"])
        defer { s.stop(signd) }
        try s.waitForSocket(signd)
        let tools = Paths.root.appendingPathComponent("tools").path
        let script = """
            \(tools)/now-playing-mpris --socket \(s.socket) & follower=$!
            /usr/bin/python3 \(tools)/mpris-peer.py --signctl \(Paths.signctl) --socket \(s.socket) \\
              'New Order|Blue Monday' '|Untitled' 'Kraftwerk|Computer Love' stop
            code=$?; pkill -P $follower; kill $follower; exit $code
            """
        // The test runner starts its children with SIGTERM blocked; unblocked here, so that
        // the bus, the follower and playerctl end when told and nothing holds the output open.
        let unblocked =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM}); os.execv(sys.argv[1], sys.argv[1:])"
        let followed = try run(
            "/usr/bin/python3", ["-c", unblocked, "/usr/bin/dbus-run-session", "--", "/bin/bash", "-c", script],
            environment: ProcessInfo.processInfo.environment.merging(["SIGNCTL": Paths.signctl]) { $1 })
        #expect(followed.status == 0, "\(followed.stdout)\(followed.stderr)")
        #expect(
            followed.stdout == "ok New Order|Blue Monday\nok |Untitled\nok Kraftwerk|Computer Love\nok stop\n",
            "\(followed.stdout)")
        let status = try s.request("status")
        #expect(status["vars"] == [:] && status["shown"] == "", "stopped: the track is unset")
    }
}
