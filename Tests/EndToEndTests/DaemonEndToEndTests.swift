import Foundation
import Glibc
import SignControl
import Testing

/// signd, signctl and the contract's shm reader as separate processes, as a user runs them.
@Suite("signd end to end", .serialized)
struct DaemonEndToEndTests {
    @Test("set-text reaches the shm framebuffer within two frame periods, and SIGTERM stops cleanly")
    func setTextReachesFramebuffer() throws {
        let s = try Scratch()
        #expect(FileManager.default.isExecutableFile(atPath: Paths.signd), "build signd first: \(Paths.signd)")
        // The frame signd must show: the same scene with "Hello", rendered offline.
        let hello = try s.write(s.config(text: "Hello"), "hello.toml")
        let expected = s.dir.appendingPathComponent("hello.rgb").path
        let rendered = try run(Paths.signd, ["render", "--config", hello, "--frames", "1", "--out", expected])
        #expect(rendered.status == 0 && rendered.stderr.hasPrefix("rendered 1 frames 64x16 in "))

        let daemon = try s.startSignd(config: try s.write(s.config(text: "Now Playing"), "signd.toml"))
        defer { if daemon.isRunning { daemon.terminate() } }

        // Request to frame, timed against the frames' own deadlines. The reader watches before
        // the request is sent, so the frame it reports is the first that shows Hello, however
        // long the reader itself took to start.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        reader.arguments = [Paths.shmReader, s.name, "wait-frame", expected, "--timeout", "5", "--announce"]
        let readerOutput = Pipe()
        reader.standardOutput = readerOutput
        try reader.run()
        let watching = try readLine(readerOutput.fileHandleForReading)
        #expect(watching == "watching")
        let client = try ControlClient(path: s.socket)
        _ = try client.request("set-text", ["text": "Hello"])
        let acknowledged = monotonicNow()
        let shownLine = try readLine(readerOutput.fileHandleForReading)
        reader.waitUntilExit()
        #expect(reader.terminationStatus == 0, "the framebuffer never showed Hello")
        let frame = try JSONValue.parse(Array(shownLine.utf8))
        let deadline = UInt64(frame["time_ns"]?.doubleValue ?? 0)
        #expect(
            deadline <= acknowledged + 2 * 16_666_667,
            "Hello first appeared \(Double(deadline) / 1e6 - Double(acknowledged) / 1e6) ms after set-text")

        // The same through signctl, as a user types it.
        let cli = try run(Paths.signctl, ["set-text", "Now Playing", "--socket", s.socket])
        #expect(cli.status == 0)
        let status = try run(Paths.signctl, ["status", "--json", "--socket", s.socket])
        let result = try JSONValue.parse(Array(status.stdout.utf8))
        #expect(result["text"] == "Now Playing")
        #expect(result["fps"]?.doubleValue == 60)
        #expect((result["frames"]?.doubleValue ?? 0) > 0)
        #expect(result["dropped"]?.doubleValue != nil)
        // The contract's name, type and state; the counters every output that keeps them adds.
        let output = try #require(result["outputs"]?.arrayValue?.first)
        #expect(result["outputs"]?.arrayValue?.count == 1)
        #expect(output["name"] == .string(s.name) && output["type"] == "shm" && output["state"] == "ok")
        #expect(output["device"] == .string("/dev/shm/signd.\(s.name)") && output["last_error"] == .null)
        #expect((output["frames_sent"]?.doubleValue ?? 0) > 0 && output["errors"] == 0)
        // Memory: the heap in use (a few MB for one text layer) is part of the resident set.
        let heap = result["memory"]?["heap_mb"]?.doubleValue ?? -1, rss = result["memory"]?["rss_mb"]?.doubleValue ?? -1
        #expect(heap > 0.1 && heap < rss && rss < 500, "memory \(String(describing: result["memory"]))")

        // SIGTERM: exit 0, the stopped flag set, the socket file gone.
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let header = try JSONValue.parse(
            Array(try run("/usr/bin/python3", [Paths.shmReader, s.name, "header"]).stdout.utf8))
        #expect(header["flags"] == 1)
        #expect(!FileManager.default.fileExists(atPath: s.socket))
    }

    @Test("the control socket and the shm object get their configured modes whatever umask signd starts under")
    func modesWhateverTheUmask() throws {
        for mask: mode_t in [0o000, 0o077] {
            let s = try Scratch()
            let daemon = try s.startSignd(
                config: try s.write(s.config(text: "umask", extra: "[control]\nmode = 0o640\n")), umask: mask)
            defer { s.stop(daemon) }
            var info = stat()
            #expect(lstat(s.socket, &info) == 0 && info.st_mode & 0o777 == 0o640, "socket under umask \(mask)")
            #expect(
                stat("/dev/shm/signd.\(s.name)", &info) == 0 && info.st_mode & 0o777 == 0o640, "shm under umask \(mask)"
            )
        }
    }

    @Test(
        "an shm object another user made first: signd starts, reports the output failed with the owner, and takes the name once it is free"
    )
    func sharedMemoryOfAnotherUser() throws {
        let s = try Scratch()
        let object = "/signd.\(s.name)"
        let fd = shm_open(object, O_CREAT | O_EXCL | O_RDWR, 0o644)
        try #require(fd >= 0)
        defer { shm_unlink(object) }
        // The tests run as root: an object made for nobody is another user's, as a local
        // user's would be to the service user.
        try #require(fchown(fd, 65534, 65534) == 0)
        close(fd)
        let daemon = try s.startSignd(config: try s.write(s.config(text: "Still on")))
        defer { s.stop(daemon) }

        #expect(daemon.isRunning, "signd must not exit over one output")
        let status = try s.request("status")
        let output = try #require(status["outputs"]?.arrayValue?.first { $0["name"]?.stringValue == s.name })
        #expect(output["state"] == "error")
        #expect(output["last_error"]?.stringValue?.contains("belongs to another user (uid 65534") == true, "\(output)")
        #expect(status["text"] == "Still on")
        // signctl does not read the other user's object as the sign's frames.
        let png = s.dir.appendingPathComponent("snapshot.png").path
        for arguments in [["snapshot", png], ["snapshot", png, "--output", s.name], ["watch", s.name]] {
            let refused = try run(Paths.signctl, arguments + ["--socket", s.socket])
            #expect(refused.status == 1 && refused.stderr.contains("is in error"), "\(arguments): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: png))

        // Once the owner removes it, the output is created within its retry interval.
        shm_unlink(object)
        // The retry runs on signd's own timer, every 2 s.
        let recovered = try firstValue {
            try s.request("status")["outputs"]?.arrayValue?.first {
                $0["name"]?.stringValue == s.name && $0["state"] == "ok"
            }
        }
        let back = try #require(recovered, "the output never came back")
        #expect(back["reconnects"] == 1 && back["last_error"] == .null)
        #expect(try s.frame().count == 64 * 16 * 3, "frames reach the framebuffer")
    }

    @Test("signctl exits 1 with the daemon's message on a refused request and 3 when it cannot reach signd")
    func signctlExitCodes() throws {
        let s = try Scratch()
        let unreachable = try run(
            Paths.signctl, ["set-text", "x", "--socket", s.dir.appendingPathComponent("none.sock").path])
        #expect(unreachable.status == 3 && unreachable.stderr.contains("cannot reach signd"))

        let daemon = try s.startSignd(config: try s.write(s.config(text: "a"), "signd.toml"))
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        let refused = try run(Paths.signctl, ["set-text", "x", "--layer", "nope", "--socket", s.socket])
        #expect(refused.status == 1 && refused.stderr.contains("no layer \"nope\""))
        // $SIGND_SOCKET is honoured when there is no --socket.
        var environment = ProcessInfo.processInfo.environment
        environment["SIGND_SOCKET"] = s.socket
        #expect(try run(Paths.signctl, ["ping"], environment: environment).status == 0)

        // A text with terminal escapes is shown escaped, never sent to the operator's terminal.
        _ = try s.request("set-text", ["text": "x\u{1b}]0;owned\u{07}\u{1b}[2J"])
        let status = try run(Paths.signctl, ["status", "--socket", s.socket])
        #expect(status.status == 0 && !status.stdout.contains("\u{1b}"))
        #expect(status.stdout.contains(#"x\u{1b}]0;owned\u{7}\u{1b}[2J"#))
        // signctl checks what it can before sending, and lists the choices.
        let bad = try run(Paths.signctl, ["set-text", "x", "--when", "tomorrow", "--socket", s.socket])
        #expect(bad.status == 64 && bad.stderr.contains("'now' and 'loop-end'"))
    }

    @Test("check-config and run refuse a broken config with file:line: key: message")
    func brokenConfig() throws {
        let s = try Scratch()
        let bad = try s.write("[display]\nwidth = 64\nfps = \"fast\"\n[[layer]]\ntext = \"a\"\n", "bad.toml")
        let checked = try run(Paths.signd, ["check-config", bad])
        #expect(checked.status == 1)
        #expect(checked.stderr == "\(bad):3: display.fps: expected a number, found string\n")
        let ran = try run(Paths.signd, ["run", "--config", bad, "--socket", s.socket])
        #expect(ran.status == 1 && ran.stderr.contains("\(bad):3: display.fps"))
        #expect(
            try run(Paths.signd, ["check-config", Paths.root.appendingPathComponent("configs/demo.toml").path]).status
                == 0)
    }

    @Test("--version names the release and the commit built from, as status does")
    func version() throws {
        let described = try run(
            "/usr/bin/git", ["-C", Paths.root.path, "describe", "--always", "--abbrev=12", "--exclude=*"])
        let commit = described.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(described.status == 0 && !commit.isEmpty, "the tests run from a git checkout")
        for tool in [Paths.signd, Paths.signctl] {
            let printed = try run(tool, ["--version"])
            let said = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(printed.status == 0 && said == "0.9.0 (commit \(commit))", "\(tool): \(said)")
        }
        let s = try Scratch()
        let daemon = try s.startSignd(config: try s.write(s.config(text: "v")))
        defer { s.stop(daemon) }
        let status = try s.request("status")
        #expect(status["version"] == "0.9.0")
        #expect(status["commit"]?.stringValue == commit)
    }

    @Test("signd curve prints X<TAB>Y within 1e-6 of the exact curve")
    func curve() throws {
        // Exact values from a 50-digit bisection.
        let named = try run(Paths.signd, ["curve", "easeInEaseOut", "0.25", "0.5", "0.75"])
        let overshoot = try run(Paths.signd, ["curve", "0.5,-1,0.5,2", "0.2", "0.8"])
        #expect(named.status == 0 && overshoot.status == 0)
        func pairs(_ s: String) -> [(Double, Double)] {
            s.split(separator: "\n").map { line in
                let parts = line.split(separator: "\t")
                return (Double(parts[0])!, Double(parts[1])!)
            }
        }
        let expected: [(Double, Double)] = [(0.25, 0.12916193104731982), (0.5, 0.5), (0.75, 0.87083806895268021)]
        for (got, want) in zip(pairs(named.stdout), expected) { #expect(got.0 == want.0 && abs(got.1 - want.1) < 1e-6) }
        let wantOvershoot: [(Double, Double)] = [(0.2, -0.20651490282055429), (0.8, 1.2065149028205543)]
        for (got, want) in zip(pairs(overshoot.stdout), wantOvershoot) {
            #expect(got.0 == want.0 && abs(got.1 - want.1) < 1e-6)
        }
        #expect(pairs(named.stdout).count == 3 && pairs(overshoot.stdout).count == 2)
        #expect(try run(Paths.signd, ["curve", "bouncy", "0.5"]).status != 0)
        // A negative time is a number, not an option.
        let negative = try run(Paths.signd, ["curve", "linear", "-0.5", "0.5"])
        #expect(negative.status == 0 && pairs(negative.stdout).map(\.0) == [-0.5, 0.5])
        // And `--` ends the options, as POSIX has it, wherever it stands before the values.
        for words in [["0.25,0.1,0.25,1", "--", "0.5"], ["--", "0.25,0.1,0.25,1", "0.5"], ["linear", "--", "-0.5"]] {
            let ended = try run(Paths.signd, ["curve"] + words)
            #expect(ended.status == 0 && pairs(ended.stdout).count == 1, "\(words): \(ended.stderr)")
        }
        #expect(try run(Paths.signd, ["curve", "linear", "--", "--", "0.5"]).status != 0, "a second -- is a value")
    }
}

@Suite("signd events")
struct EventTests {
    @Test("a subscribed client gets a loop-end event each time the marquee completes a loop")
    func loopEnd() throws {
        let s = try Scratch()
        // 18 px of text + 22 px gap at 100 px/s: a loop every 0.4 s.
        let config = try s.write(
            s.config(text: "abc").replacingOccurrences(of: "speed = 0", with: "speed = 100\ngap = 22"))
        let daemon = try s.startSignd(config: config)
        defer { s.stop(daemon) }
        let client = try s.subscribe(["loop-end"])
        var loops: [Int64] = []
        while loops.count < 3, let event = try client.nextEvent() {
            #expect(event["event"] == "loop-end" && event["layer"] == "main")
            if case .int(let n)? = event["loop"] { loops.append(n) }
        }
        #expect(loops.count == 3)
        #expect(zip(loops, loops.dropFirst()).allSatisfy { $1 == $0 + 1 })
        // Requests still work on a subscribed connection; their responses are told apart by "ok".
        _ = try client.send(raw: Array(#"{"id": 9, "cmd": "ping"}"#.utf8) + [10])
        var answered = false
        while !answered, let line = try client.readLine() {
            answered = try JSONValue.parse(line)["id"] == 9
        }
        #expect(answered)
    }
}

@Suite("signctl layer commands")
struct LayerCommandTests {
    @Test("set-property, stop, start and load-scene work from signctl against a running signd")
    func commands() throws {
        let s = try Scratch()
        let config = try s.write(
            s.config(
                text: "Moving",
                extra: "[[layer]]\nid = \"panel\"\ntype = \"plain\"\nx = 0\ny = 0\nwidth = 4\nheight = 4\n"
            )
            .replacingOccurrences(of: "speed = 0", with: "speed = 40"))
        let daemon = try s.startSignd(config: config)
        defer { s.stop(daemon) }
        func ctl(_ args: [String]) throws -> Finished { try run(Paths.signctl, args + ["--socket", s.socket]) }

        #expect(try ctl(["set-property", "panel", "backgroundColor", "#ff0000"]).status == 0)
        #expect(try eventually { Array(try s.frame().prefix(3)) == [255, 0, 0] })
        let wrongKind = try ctl(["set-property", "panel", "opacity", "#ff0000"])
        #expect(wrongKind.status == 1 && wrongKind.stderr.contains("takes a number"))
        #expect(try ctl(["set-property", "nope", "opacity", "0.5"]).status == 1)
        // A value starting with - goes after the `--` that ends the options.
        let negative = try run(
            Paths.signctl, ["set-property", "--socket", s.socket, "panel", "position.x", "--", "-5"])
        #expect(negative.status == 0, "\(negative.stderr)")
        #expect(try s.request("status")["text"] == "Moving")
        #expect(try run(Paths.signctl, ["set-text", "--socket", s.socket, "--", "-50% today"]).status == 0)
        #expect(try s.request("status")["text"] == "-50% today")
        #expect(try run(Paths.signctl, ["set-text", "--socket", s.socket, "--", "Moving"]).status == 0)

        #expect(try ctl(["stop"]).status == 0)
        let a = try s.settled()
        // 20 frames at 40 px/s: a marquee still moving would have gone 13 px.
        #expect(try s.published(atLeast: a.number + 20).pixels == a.pixels, "a stopped marquee stands still")
        #expect(try ctl(["start"]).status == 0)
        #expect(try eventually { try s.frame() != a.pixels }, "a started marquee moves again")

        let scene = try s.write(s.config(text: "Loaded scene"), "scene.toml")
        #expect(try ctl(["load-scene", scene]).status == 0)
        #expect(try s.request("status")["text"] == "Loaded scene")
        let wrongSize = try s.write(
            s.config(text: "x").replacingOccurrences(of: "width = 64", with: "width = 32"), "small.toml")
        let refused = try ctl(["load-scene", wrongSize])
        #expect(refused.status == 1 && refused.stderr.contains("not the running board's (64x16)"))

        // Outside the scene directories (here the config's own), existing or not, a file is
        // refused with the same words; a bad scene's problems never quote its values.
        let outside = "/etc/os-release"
        let refusedOutside = try ctl(["load-scene", outside])
        let refusedMissing = try ctl(["load-scene", "/etc/no-such-scene.toml"])
        #expect(refusedOutside.status == 1 && refusedOutside.stderr.contains("scenes are loaded only from"))
        #expect(
            refusedOutside.stderr.replacingOccurrences(of: outside, with: "X")
                == refusedMissing.stderr.replacingOccurrences(of: "/etc/no-such-scene.toml", with: "X"))
        let secret = try s.write(
            s.config(text: "x").replacingOccurrences(of: "[[layer]]", with: "[display2]\nkey = \"hunter2\"\n[[layer]]")
                + "\nscroll = \"hunter3\"\n", "bad.toml")
        chmod(secret, 0o600)
        let refusedBad = try ctl(["load-scene", secret])
        #expect(refusedBad.status == 1 && refusedBad.stderr.contains("display2"))
        #expect(!refusedBad.stderr.contains("hunter"))

        // The daemon parses in a child process: a document the parser would abort on is a
        // syntax problem with its line, and signd keeps running.
        let aborting = try s.write("# a scene\n[[{x]]\n", "abort.toml")
        let refusedSyntax = try ctl(["load-scene", aborting])
        #expect(refusedSyntax.status == 1 && refusedSyntax.stderr.contains("abort.toml:2: -: TOML syntax"))
        #expect(try s.request("status")["text"] == "Loaded scene")
    }
}

/// One line from a pipe, read byte by byte (so nothing after it is consumed).
func readLine(_ handle: FileHandle) throws -> String {
    var bytes: [UInt8] = []
    while let byte = try handle.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { bytes.append(byte) }
    return String(decoding: bytes, as: UTF8.self)
}
