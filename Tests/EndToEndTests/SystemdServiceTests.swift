import Foundation
import Glibc
import SignControl
import Testing

/// signd as systemd runs it: notifications, watchdog, socket activation, reload, saved state
/// and a clean stop, each against the real libsystemd calls.
@Suite("signd under systemd", .serialized)
struct SystemdServiceTests {
    @Test("READY, STATUS, WATCHDOG, RELOADING with MONOTONIC_USEC, READY again and STOPPING arrive in order")
    func notificationOrder() throws {
        let s = try Scratch()
        let listener = try NotifyListener(path: s.dir.appendingPathComponent("notify").path)
        let config = try s.write(s.config(text: "Now Playing"))
        let environment = ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"]
        let daemon = try s.launch(
            Paths.signd, ["run", "--config", config, "--socket", s.socket], environment: environment)
        defer { if daemon.isRunning { daemon.terminate() } }

        let startup = listener.receive(for: 10) { $0.has("READY=1") }
        let ready = try #require(startup.last)
        #expect(ready.has("READY=1"))
        #expect(
            ready.value("STATUS")?.contains("60 fps") == true && ready.value("STATUS")?.contains("Now Playing") == true)
        // Pings every 100 ms (half of WATCHDOG_USEC) while frames advance.
        var pinged = 0
        let pings = listener.receive(for: 10) { message in
            pinged += message.has("WATCHDOG=1") ? 1 : 0
            return pinged >= 3
        }.filter { $0.has("WATCHDOG=1") }
        #expect(pings.count >= 3)

        let before = monotonicNow() / 1000
        kill(daemon.processIdentifier, SIGHUP)
        let reload = listener.receive(for: 5) { $0.has("READY=1") }.filter { !$0.has("WATCHDOG=1") }
        #expect(reload.count == 2)
        let reloading = try #require(reload.first)
        #expect(reloading.has("RELOADING=1"))
        let stamp = UInt64(reloading.value("MONOTONIC_USEC") ?? "") ?? 0
        #expect(stamp >= before && stamp <= monotonicNow() / 1000)
        #expect(reload.last?.has("READY=1") == true)

        kill(daemon.processIdentifier, SIGTERM)
        let stopping = listener.receive(for: 5) { $0.has("STOPPING=1") }
        #expect(stopping.last?.has("STOPPING=1") == true)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
    }

    @Test("a stalled frame loop stops the watchdog pings")
    func stalledLoopStopsPings() throws {
        let s = try Scratch()
        let listener = try NotifyListener(path: s.dir.appendingPathComponent("notify").path)
        let config = try s.write(s.config(text: "x"))
        // Frame 30 blocks forever: half a second in at 60 fps.
        let environment = [
            "NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "100000", "SIGND_TEST_STALL_AT_FRAME": "30",
        ]
        let daemon = try s.launch(
            Paths.signd, ["run", "--config", config, "--socket", s.socket], environment: environment)
        defer {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        var messages = listener.receive(for: 10) { $0.has("READY=1") }
        try #require(messages.contains { $0.has("READY=1") })
        // Until the framebuffer stops at frame 29 (however long the machine takes to get
        // there), the messages as they come.
        #expect(
            eventually(timeout: 30) {
                messages += listener.receive(for: 0.02)
                return ((try? s.published().number) ?? 0) >= 29
            }, "the loop never reached its stall")
        let stalled = monotonicNow()
        // Twenty of the watchdog's 50 ms checks, with the frame counter standing still.
        let after = listener.receive(for: 1).filter { $0.has("WATCHDOG=1") }
        let before = messages.filter { $0.has("WATCHDOG=1") && $0.at < stalled }
        #expect(!before.isEmpty, "pings while frames advance")
        // One check may still see the last frame or two counted as the reader saw frame 29.
        #expect(after.count <= 2, "pings after the loop stalled: \(after.map { Double($0.at - stalled) / 1e9 })")
        #expect(daemon.isRunning)
    }

    @Test("under systemd-socket-activate signd serves the inherited socket and leaves its file alone")
    func socketActivation() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "activated"))
        let activator = try s.launch(
            "/usr/bin/systemd-socket-activate", ["-l", s.socket, Paths.signd, "run", "--config", config])
        try s.waitForSocket(activator)
        let status = try s.request("status")
        #expect(status["text"] == "activated")
        #expect(s.stop(activator) < 1.0)
        #expect(activator.terminationStatus == 0)
        var info = stat()
        #expect(lstat(s.socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK, "the socket file must stay")
    }

    @Test("a broken config on SIGHUP is refused with file:line: key: message and the old one keeps rendering")
    func reloadKeepsOldConfigOnError() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "Old"))
        let daemon = try s.startSignd(config: config)
        defer { s.stop(daemon) }

        try s.write(s.config(text: "New").replacingOccurrences(of: "fps = 60", with: "fps = \"fast\""))
        kill(daemon.processIdentifier, SIGHUP)
        // The refusal logged: the reload has been handled.
        #expect(
            eventually { s.stderr(of: daemon).contains("\(config):4: display.fps: expected a number, found string") })
        let first = try s.request("status")
        #expect(first["text"] == "Old" && first["fps"]?.doubleValue == 60)
        let frames = first["frames"]?.doubleValue ?? 0
        #expect(try eventually { try s.clockFrames() > Int(frames) }, "frames must keep coming")

        // signctl reload reports the problems and exits 1.
        let refused = try run(Paths.signctl, ["reload", "--socket", s.socket])
        #expect(refused.status == 1 && refused.stderr.contains("display.fps"))
    }

    @Test(
        "a good config on SIGHUP puts its text and fps in effect; a text set at run time survives an unrelated change")
    func reloadAppliesGoodConfig() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "Old"))
        let daemon = try s.startSignd(config: config)
        defer { s.stop(daemon) }

        try s.write(s.config(text: "New", fps: 30))
        kill(daemon.processIdentifier, SIGHUP)
        var status = try s.request("status")
        _ = try eventually {
            status = try s.request("status")
            return status["text"] == "New"
        }
        #expect(status["text"] == "New" && status["fps"]?.doubleValue == 30)
        #expect(status["dropped"] == 0)

        _ = try s.request("set-text", ["text": "Set by hand"])
        try s.write(s.config(text: "New", fps: 50))
        #expect(try run(Paths.signctl, ["reload", "--socket", s.socket]).status == 0)
        status = try s.request("status")
        #expect(status["text"] == "Set by hand" && status["fps"]?.doubleValue == 50)
    }

    @Test("texts set at run time survive a restart")
    func stateSurvivesRestart() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "From config"))
        let environment = ["STATE_DIRECTORY": s.dir.path]
        var daemon = try s.startSignd(config: config, environment: environment)
        _ = try s.request("set-text", ["text": "Saved 안녕"])
        s.stop(daemon)
        daemon = try s.startSignd(config: config, environment: environment)
        #expect(try s.request("status")["text"] == "Saved 안녕")
        s.stop(daemon)

        // An edited config text wins over the saved one.
        try s.write(s.config(text: "Edited"))
        daemon = try s.startSignd(config: config, environment: environment)
        #expect(try s.request("status")["text"] == "Edited")
        s.stop(daemon)
    }

    @Test("set-text, load-scene, restart: the saved text outlives the loaded scene and shows after the restart")
    func savedTextOutlivesLoadedScene() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "From config"))
        let scene = try s.write(s.config(text: "Loaded scene"), "scene.toml")
        let environment = ["STATE_DIRECTORY": s.dir.path]
        var daemon = try s.startSignd(config: config, environment: environment)
        _ = try s.request("set-text", ["text": "Hello at runtime"])
        _ = try s.request("load-scene", ["path": .string(scene)])
        let status = try s.request("status")
        #expect(status["text"] == "Loaded scene")
        #expect(status["scene"] == .string(scene))
        s.stop(daemon)
        let saved = try JSONValue.parse(Data(contentsOf: s.dir.appendingPathComponent("state.json")))
        #expect(saved["layers"]?["main"]?["text"] == "Hello at runtime")
        daemon = try s.startSignd(config: config, environment: environment)
        #expect(try s.request("status")["text"] == "Hello at runtime")
        s.stop(daemon)
    }

    @Test("a loop-end text is pending in status and on the STATUS line until it shows, then both show it")
    func pendingTextIsReportedAsPending() throws {
        let s = try Scratch()
        let listener = try NotifyListener(path: s.dir.appendingPathComponent("notify").path)
        // 64 px wide, about 100 px of text and gap at 100 px/s: a loop of about a second.
        let config = try s.write(
            s.config(text: "Old text here").replacingOccurrences(of: "speed = 0", with: "speed = 100"))
        let daemon = try s.launch(
            Paths.signd, ["run", "--config", config, "--socket", s.socket],
            environment: ["NOTIFY_SOCKET": listener.path])
        defer { s.stop(daemon) }
        _ = listener.receive(for: 10) { $0.has("READY=1") }
        _ = try s.request("set-text", ["text": "Next song", "when": "loop-end"])
        let status = try s.request("status")
        #expect(status["text"] == "Old text here")
        #expect(status["pending"]?["text"] == "Next song")
        let told = listener.receive(for: 2) { $0.value("STATUS") != nil }
        #expect(told.last?.value("STATUS")?.contains(#""Old text here" (next: "Next song")"#) == true)
        let shown = listener.receive(for: 5) { $0.value("STATUS")?.contains(#""Next song" ·"#) == true }
        #expect(shown.last?.value("STATUS")?.contains("next:") == false)
        let after = try s.request("status")
        #expect(after["text"] == "Next song" && after["pending"] == nil)
    }

    @Test(
        "a temporary state file planted as a link is never written through; a world-writable state directory is refused"
    )
    func stateFileCannotBeRedirected() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "From config"))
        let state = s.dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let victim = try s.write("precious\n", "victim.txt")
        let environment = ["STATE_DIRECTORY": state.path]
        let daemon = try s.startSignd(config: config, environment: environment)
        try FileManager.default.createSymbolicLink(
            atPath: state.appendingPathComponent(".state.json.\(daemon.processIdentifier)").path,
            withDestinationPath: victim)
        _ = try s.request("set-text", ["text": "Saved"])
        s.stop(daemon)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        let saved = try JSONValue.parse(Data(contentsOf: state.appendingPathComponent("state.json")))
        #expect(saved["layers"]?["main"]?["text"] == "Saved")

        chmod(state.path, 0o777)
        let refused = try s.launch(
            Paths.signd, ["run", "--config", config, "--socket", s.socket], environment: environment)
        #expect(s.exits(refused, within: 10))
        #expect(refused.terminationStatus == 1)
        #expect(s.stderr(of: refused).contains("is writable by other users"))
    }

    @Test("kill -9 in the middle of saving leaves the previous state, which is restored")
    func killDuringSave() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "From config"))
        let state = s.dir.appendingPathComponent("state.json").path
        // Each save pauses 1.5 s half-way through writing its temporary file.
        var environment = ["STATE_DIRECTORY": s.dir.path, "SIGND_TEST_PAUSE_IN_STATE_WRITE_MS": "1500"]
        var daemon = try s.startSignd(config: config, environment: environment)
        _ = try s.request("set-text", ["text": "First"])
        #expect(
            eventually {
                FileManager.default.contents(atPath: state).map {
                    String(decoding: $0, as: UTF8.self).contains("First")
                }
                    ?? false
            }, "the first save never finished")
        func leftovers() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: s.dir.path).filter { $0.hasPrefix(".state.json.") }
        }
        _ = try s.request("set-text", ["text": "Second"])
        // Killed while the second save's temporary file is written (the save pauses there).
        #expect(try eventually { try !leftovers().isEmpty }, "the second save never began its temporary file")
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        #expect(try !leftovers().isEmpty, "the kill should have landed mid-save")

        environment["SIGND_TEST_PAUSE_IN_STATE_WRITE_MS"] = nil
        daemon = try s.startSignd(config: config, environment: environment)
        #expect(try s.request("status")["text"] == "First")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.dir.path).filter { $0.hasPrefix(".state.json.") }
                .isEmpty)
        s.stop(daemon)
    }

    @Test("a corrupt state file is set aside with a warning, never fatal")
    func corruptState() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "From config"))
        try s.write("{ not json", "state.json")
        let daemon = try s.startSignd(config: config, environment: ["STATE_DIRECTORY": s.dir.path])
        #expect(try s.request("status")["text"] == "From config")
        s.stop(daemon)
        #expect(s.stderr(of: daemon).contains("set aside"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.dir.path).contains {
                $0.hasPrefix("state.json.corrupt-")
            })
    }

    @Test("SIGTERM while the daemon is still starting stops it; it is never lost")
    func stopWhileStarting() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "Starting"))
        // From just after exec to just after the control socket answers.
        for delay in [0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2] {
            let daemon = try s.launch(Paths.signd, ["run", "--config", config, "--socket", s.socket])
            // Real time on purpose: the signal is to land at moments spread over signd's startup,
            // which has no event to wait for before it is up (on a slow machine they land
            // earlier in it, still within it).
            Thread.sleep(forTimeInterval: delay)
            kill(daemon.processIdentifier, SIGTERM)
            let ended = s.exits(daemon, within: 5)
            #expect(ended, "SIGTERM \(Int(delay * 1000)) ms after exec was lost: \(s.stderr(of: daemon))")
            if !ended { kill(daemon.processIdentifier, SIGKILL) }
            daemon.waitUntilExit()
        }
    }

    @Test("SIGTERM blanks the outputs, sets the stopped flag and exits 0 within a second")
    func gracefulStop() throws {
        let s = try Scratch()
        let daemon = try s.startSignd(config: try s.write(s.config(text: "Lit")))
        // Lit first, so that the black last frame is the stop's doing.
        #expect(try eventually { try s.frame().contains { $0 != 0 } })
        let seconds = s.stop(daemon)
        #expect(daemon.terminationStatus == 0)
        #expect(seconds < 1.0)
        let out = s.dir.appendingPathComponent("last.rgb").path
        let header = try JSONValue.parse(
            Array(try run("/usr/bin/python3", [Paths.shmReader, s.name, "header"]).stdout.utf8))
        #expect(header["flags"] == 1)
        _ = try run("/usr/bin/python3", [Paths.shmReader, s.name, "frame", out])
        #expect(FileManager.default.contents(atPath: out) == Data(count: 64 * 16 * 3), "the last frame is black")
    }
}
