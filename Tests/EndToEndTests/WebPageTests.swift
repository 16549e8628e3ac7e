import Foundation
import Glibc
import SignControl
import Testing

/// The web page in a real browser (Debian's chromium, driven by tools/web-peer.py through
/// Selenium) and the API's refusals from plain HTTP clients, against a signd on a loopback
/// address of the test's own.
@Suite("Web page", .serialized)
struct WebPageTests {
    /// A loopback address no other test uses.
    static func address() -> String { "127.78.\(UInt8.random(in: 1...254)).\(UInt8.random(in: 1...254))" }

    /// A 128x32 board holding still (so the live picture and the shm frame can be compared
    /// pixel for pixel), two playlists, and the web page on `listen`.
    static func config(_ s: Scratch, listen: String, tokenFile: String? = nil) throws -> String {
        try s.write(
            """
            [display]
            width = 128
            height = 32
            fps = 60
            [[layer]]
            id = "main"
            text = "Hello"
            font = "9x18B"
            color = "#ffb000"
            speed = 0
            fade = 0
            [[playlist]]
            name = "day"
            [[playlist.item]]
            text = "Good morning"
            duration = 600
            [[playlist.item]]
            text = "Coffee 2 for 1"
            duration = 600
            [[playlist]]
            name = "evening"
            [[playlist.item]]
            text = "{green}OPEN{/} late"
            duration = 600
            [[playlist.item]]
            text = "Pizza tonight"
            duration = 600
            [[output]]
            type = "shm"
            name = "\(s.name)"
            [preview]
            terminal = "off"
            fps = 30
            [web]
            listen = "\(listen)"
            \(tokenFile.map { "token_file = \"\($0)\"" } ?? "")
            """)
    }

    /// signd serving the page on a loopback address of its own with a token file: the
    /// scratch directory, the address, the token file's path and the process.
    static func startWithToken() throws -> (Scratch, String, String, Process) {
        let s = try Scratch()
        let listen = "\(address()):8080"
        let token = s.dir.appendingPathComponent("web.token").path
        try "signd-test-token-\(UInt64.random(in: 0...UInt64.max))\n".write(
            toFile: token, atomically: true, encoding: .utf8)
        return (s, listen, token, try s.startSignd(config: try config(s, listen: listen, tokenFile: token)))
    }

    /// Runs tools/web-peer.py (at most three minutes) and fails the test with its output if
    /// any of its checks failed.
    static func peer(_ arguments: [String]) throws -> String {
        let done = try run(
            "/usr/bin/timeout",
            ["180", "python3", Paths.root.appendingPathComponent("tools/web-peer.py").path] + arguments)
        #expect(done.status == 0, "web-peer.py \(arguments.first ?? ""): \(done.stdout)\(done.stderr)")
        return done.stdout
    }

    /// Width and height from a PNG file's header.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        func be(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    @Test(
        "in the browser: no console errors; Send changes the board and the live picture then equals the shm frame; brightness, display, playlists and notify work; screenshots at phone and desktop width"
    )
    func page() throws {
        let s = try Scratch()
        let listen = "\(Self.address()):8080"
        let signd = try s.startSignd(config: try Self.config(s, listen: listen))
        defer { s.stop(signd) }
        // SIGND_SCREENSHOTS=docs refreshes the page's pictures in docs/ (shown in docs/configuration.md).
        let shots =
            ProcessInfo.processInfo.environment["SIGND_SCREENSHOTS"] ?? s.dir.appendingPathComponent("shots").path
        let out = try Self.peer([
            "page", "http://\(listen)", "--shm", s.name, "--playlists", "day,evening", "--screenshots", shots,
        ])
        #expect(out.contains("ok: no console errors at the end"))
        #expect(try Self.pngSize(shots + "/web-phone.png") == (390, 844))
        #expect(try Self.pngSize(shots + "/web-desktop.png") == (1280, 800))
        let status = try s.request("status")
        #expect(status["web"]?["listen"]?.stringValue == listen)
    }

    @Test("with a token file the page asks for it: a wrong one is refused, the right one logs in with a strict cookie")
    func login() throws {
        let (s, listen, token, signd) = try Self.startWithToken()
        defer { s.stop(signd) }
        _ = try Self.peer(["login", "http://\(listen)", "--token-file", token])
    }

    @Test(
        "without the token every API route and the WebSocket answer 401; a cross-site form post 403, any form post 415, 64 KiB + 1 413; `bearer` works; the sixth wrong login in a minute 429 from that address only"
    )
    func refusals() throws {
        let (s, listen, token, signd) = try Self.startWithToken()
        defer { s.stop(signd) }
        _ = try Self.peer(["refusals", "http://\(listen)", "--token-file", token])
        // The socket still answers: nothing above hurt signd.
        _ = try s.request("ping")
    }

    @Test(
        "70 clients without a token trickling requests a byte a second, from 14 addresses or from one, never turn the owner away: token and cookie answered 200; no trickler held past the head's limit"
    )
    func slowloris() throws {
        let (s, listen, token, signd) = try Self.startWithToken()
        defer { s.stop(signd) }
        for (addresses, seconds) in [("14", "12"), ("1", "8")] {
            let out = try Self.peer([
                "slowloris", "http://\(listen)", "--token-file", token, "--connections", "70", "--addresses",
                addresses, "--seconds", seconds,
            ])
            print(out)
        }
        _ = try s.request("ping")
    }

    @Test("GET /metrics: 401 without the token; with it, Prometheus's text format that prometheus_client parses, agreeing with status")
    func metrics() throws {
        let (s, listen, token, signd) = try Self.startWithToken()
        defer { s.stop(signd) }
        print(try Self.peer(["metrics", "http://\(listen)", "--token-file", token]))
    }

    @Test("signd refuses to start with the page on a network address and no token file, saying why")
    func refusesOpenPage() throws {
        let s = try Scratch()
        let config = try s.write(s.config(text: "x", extra: "[web]\nlisten = \"0.0.0.0:8080\""))
        let signd = try s.launch(Paths.signd, ["run", "--config", config, "--socket", s.socket])
        #expect(s.exits(signd, within: 10))
        #expect(signd.terminationStatus == 1)
        #expect(s.stderr(of: signd).contains("web.token_file: required when web.listen is not a loopback address"))
    }
}
