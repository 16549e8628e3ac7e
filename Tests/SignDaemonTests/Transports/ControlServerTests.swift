import Foundation
import SignControl
import SignGraphics
import SignScene
import SignTiming
import Testing

@testable import SignDaemon

/// A control server on a temporary socket, serving a small scene.
final class ServerFixture {
    static let fonts = try! FontLibrary()
    let path = "/tmp/signd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    let server: ControlServer
    let store: SceneStore
    let plane: ControlPlane

    /// On the machine's time, or on `time` (scene time, timers and the wall clock `at` is
    /// checked against all on it).
    init(time: VirtualClock? = nil) throws {
        let scene = Scene(
            width: 64, height: 16,
            layers: [TextLayer(id: "main", text: "Now Playing"), TextLayer(id: "footer", text: "x")])
        let clock: FrameClock
        if let time {
            store = try SceneStore(config: scene, fonts: Self.fonts, time: time)
            clock = FrameClock(fps: 60, time: time, realtimeOffset: time.realtimeOffset) { _ in }
        } else {
            store = try SceneStore(config: scene, fonts: Self.fonts)
            clock = FrameClock(fps: 60) { _ in }
        }
        plane = ControlPlane(store: store, clock: clock, startedAt: MonotonicClock.now())
        server = ControlServer(path: path, plane: plane)
        try server.start(mode: 0o660, group: nil)
    }

    deinit { server.stop() }

    func client() throws -> ControlClient { try ControlClient(path: path) }

    /// Sends raw text and returns the next response as an object.
    func exchange(_ client: ControlClient, _ line: String) throws -> JSONValue {
        try client.send(raw: Array((line + "\n").utf8))
        return try JSONValue.parse(try #require(try client.readLine()))
    }
}

@Suite("ControlServer", .serialized)
struct ControlServerTests {
    @Test("ping answers an empty result and echoes the id")
    func ping() throws {
        let f = try ServerFixture()
        let r = try f.exchange(try f.client(), #"{"id": "p1", "cmd": "ping"}"#)
        #expect(r == ["id": "p1", "ok": true, "result": [:]])
    }

    @Test("status reports text, fps, frames, dropped, uptime and outputs")
    func status() throws {
        let f = try ServerFixture()
        let result = try f.client().request("status")
        #expect(result["text"] == "Now Playing")
        #expect(result["fps"]?.doubleValue == 60)
        #expect(result["frames"] == 0 && result["dropped"] == 0)
        #expect(result["uptime_s"]?.doubleValue != nil)
        #expect(result["outputs"] == [])
    }

    @Test("set-text changes the main layer, or the layer named")
    func setText() throws {
        let f = try ServerFixture()
        let c = try f.client()
        _ = try c.request("set-text", ["text": "Hello"])
        _ = try c.request("set-text", ["text": "bottom", "layer": "footer"])
        let status = try c.request("status")
        #expect(status["text"] == "Hello")
        #expect(status["layers"] == [["id": "main", "text": "Hello"], ["id": "footer", "text": "bottom"]])
    }

    @Test(
        "each error has its code",
        arguments: [
            ("not json at all", "bad-request"),
            (#"[1, 2, 3]"#, "bad-request"),
            (#"{"cmd": "set-text", "text": 12}"#, "bad-request"),
            (#"{"cmd": "set-text", "text": "a", "layer": 3}"#, "bad-request"),
            (#"{"cmd": "dance"}"#, "unknown-command"),
            (#"{"cmd": "set-text"}"#, "invalid-argument"),
            (#"{"cmd": "set-text", "text": "a", "when": "tomorrow"}"#, "invalid-argument"),
            (#"{"cmd": "set-text", "text": "a", "layer": "nope"}"#, "not-found"),
            (#"{"cmd": "select-zone", "zone": "left"}"#, "not-found"),
            (#"{"cmd": "select-zone"}"#, "invalid-argument"),
            (#"{"cmd": "select-zone", "zone": [1]}"#, "bad-request"),
            (#"{"cmd": "subscribe", "events": ["sunrise"]}"#, "invalid-argument"),
            (#"{"cmd": "set-text", "text": "x {icon:cup}"}"#, "invalid-argument"),
            (#"{"cmd": "subscribe", "events": "loop-end"}"#, "bad-request"),
            (#"{"cmd": "set-property", "layer": "main", "key_path": "opactiy", "value": 1}"#, "invalid-argument"),
            (
                #"{"cmd": "set-property", "layer": "main", "key_path": "position.x", "value": 1e308}"#,
                "invalid-argument"
            ),
            (
                #"{"cmd": "set-property", "layer": "main", "key_path": "bounds", "value": [0, 0, 1e308, 1e308]}"#,
                "invalid-argument"
            ),
            (
                #"{"cmd": "set-property", "layer": "main", "key_path": "anchorPoint", "value": [-1e18, -1e18]}"#,
                "invalid-argument"
            ),
        ])
    func errors(line: String, code: String) throws {
        let f = try ServerFixture()
        let c = try f.client()
        let r = try f.exchange(c, line)
        #expect(r["ok"] == false)
        #expect(r["error"]?["code"]?.stringValue == code)
        #expect(r["error"]?["message"]?.stringValue?.isEmpty == false)
        // The connection stays usable after an error.
        #expect(try f.exchange(c, #"{"cmd": "ping"}"#)["ok"] == true)
    }

    @Test("pipelined requests are answered in order")
    func pipelined() throws {
        let f = try ServerFixture()
        let c = try f.client()
        let batch =
            (1...20).map { #"{"id": \#($0), "cmd": "\#($0 % 2 == 0 ? "ping" : "status")"}"# }.joined(separator: "\n")
            + "\n"
        try c.send(raw: Array(batch.utf8))
        for id in 1...20 {
            let r = try JSONValue.parse(try #require(try c.readLine()))
            #expect(r["id"] == .int(Int64(id)))
        }
    }

    @Test("a request of exactly 64 KiB is served; one byte more gets request-too-large and the connection closes")
    func sizeLimit() throws {
        let f = try ServerFixture()
        let base = #"{"cmd": "ping", "pad": ""}"#
        let padding = String(repeating: "a", count: ControlMessage.maxRequestLength - base.utf8.count)
        let exact = #"{"cmd": "ping", "pad": "\#(padding)"}"#
        #expect(exact.utf8.count == ControlMessage.maxRequestLength)
        let c = try f.client()
        #expect(try f.exchange(c, exact)["ok"] == true)
        let r = try f.exchange(c, #"{"cmd": "ping", "pad": "\#(padding)a"}"#)
        #expect(r["error"]?["code"] == "request-too-large")
        #expect(try c.readLine() == nil)
    }

    @Test("a line that never ends is cut off at the limit too")
    func endlessLine() throws {
        let f = try ServerFixture()
        let c = try f.client()
        try c.send(raw: [UInt8](repeating: UInt8(ascii: "x"), count: ControlMessage.maxRequestLength + 100))
        let r = try JSONValue.parse(try #require(try c.readLine()))
        #expect(r["error"]?["code"] == "request-too-large")
        #expect(try c.readLine() == nil)
    }

    @Test("64 clients are served at once; the 65th is told busy and closed; a freed place is reused")
    func clientLimit() throws {
        let f = try ServerFixture()
        var clients = try (0..<64).map { _ in try f.client() }
        for c in clients { _ = try c.request("ping") }
        let extra = try f.client()
        let r = try JSONValue.parse(try #require(try extra.readLine()))
        #expect(r["error"]?["code"] == "busy")
        #expect(try extra.readLine() == nil)
        clients.removeLast()
        // The server notices the close on its own thread; a new client gets in once it has.
        #expect(eventually { (try? f.client().request("ping")) != nil })
        #expect(clients.count == 63)
    }

    @Test("a client that never reads its responses does not hold up another")
    func stuckClient() throws {
        let f = try ServerFixture()
        let stuck = try f.client()
        let flood = Array(String(repeating: #"{"cmd": "status"}"# + "\n", count: 2000).utf8)
        // About 36 KB of requests fits the socket buffer; the ~800 KB of responses do not.
        try stuck.send(raw: flood)
        // Real time: the server answers the flood on its own threads until the stuck client's
        // buffer is full, which nothing outside shows; this gives it a head start. Had it not
        // got that far, the ping below would still have to be answered.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try f.client().request("ping") == [:])
    }

    @Test("a ping from one client is answered while another client's long text is being prepared")
    func pingDuringLongSetText() throws {
        let f = try ServerFixture()
        // The changes lane held until the ping is answered: the set-text is still in it then,
        // however fast the machine.
        let release = DispatchSemaphore(value: 0)
        f.plane.onChangesLane { release.wait() }
        var released = false
        defer { if !released { release.signal() } }
        let busy = try f.client()
        let text = String(repeating: "Now Playing 안녕하세요 ", count: 400)
        try busy.send(raw: Array((Request(id: 1, Request.SetText(text: text)).line + "\n").utf8))
        #expect(try f.client().request(Request.Ping()) == [:])
        var poller = pollfd(fd: busy.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 0) == 0, "the set-text waits its turn in the changes lane")
        release.signal()
        released = true
        let done = try #require(try busy.readLine())
        #expect(Response(line: done).outcome.isSuccess)
    }

    @Test("set-text with a future at is answered scheduled, pending until then, then shown")
    func scheduledSetText() throws {
        let time = VirtualClock()
        let f = try ServerFixture(time: time)
        let c = try f.client()
        let at = time.date().timeIntervalSince1970 + 0.6
        #expect(try c.request(Request.SetText(text: "Later"), at: at) == ["scheduled": true])
        time.advance(by: 0.59)
        let before = try c.request(Request.Status())
        #expect(before["text"] == "Now Playing")
        #expect(before["pending"]?["text"] == "Later")
        time.advance(by: 0.02)
        #expect(try c.request(Request.Status())["text"] == "Later")
    }

    @Test("a reload or a property change with a future at runs then, not before")
    func scheduledChange() throws {
        let time = VirtualClock()
        let f = try ServerFixture(time: time)
        let c = try f.client()
        let at = time.date().timeIntervalSince1970 + 0.6
        #expect(try c.request(Request.Stop(), at: at) == ["scheduled": true])
        time.advance(by: 0.59)
        #expect(try c.request(Request.Status())["layers"]?.arrayValue?.first?["stopped"] == nil)
        time.advance(by: 0.02)
        #expect(try c.request(Request.Status())["layers"]?.arrayValue?.first?["stopped"] == true)
        #expect(throws: ControlError.self) {
            try c.request(Request.Ping(), at: time.date().timeIntervalSince1970 + 2 * 86400)
        }
    }

    // Whatever the umask: signd under umask 000 and 077 in DaemonEndToEndTests (a test that
    // set this process's umask would change every file the concurrent tests create).
    @Test("the socket file gets its mode and group before it listens")
    func socketPermissions() throws {
        let scene = Scene(width: 8, height: 8, layers: [TextLayer(id: "main", text: "x")])
        let store = try SceneStore(config: scene, fonts: ServerFixture.fonts)
        let path = "/tmp/signd-perm-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let server = ControlServer(
            path: path, plane: ControlPlane(store: store, clock: FrameClock(fps: 60) { _ in }, startedAt: 0))
        try server.start(mode: 0o600, group: "nogroup")
        defer { server.stop() }
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(info.st_gid == getgrnam("nogroup").pointee.gr_gid)
    }

    @Test("a stale socket file is replaced; a live socket is not taken over")
    func staleSocket() throws {
        let f = try ServerFixture()
        let clash = ControlServer(
            path: f.path, plane: ControlPlane(store: f.store, clock: FrameClock(fps: 60) { _ in }, startedAt: 0))
        #expect(throws: ControlServer.Error.self) { try clash.start(mode: 0o660, group: nil) }
        #expect(try f.client().request("ping") == [:])
    }
}
