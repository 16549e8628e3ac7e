import Foundation
import Testing

@testable import SignControl

@Suite("Request")
struct RequestTests {
    func parse(_ s: String) throws(Request.Rejected) -> Request {
        try Request(line: Array(s.utf8))
    }

    func rejection(_ s: String) -> Request.Rejected? {
        do {
            _ = try parse(s)
            return nil
        } catch {
            return error
        }
    }

    /// One request of every command of docs/contracts.md's "The control protocol", with every argument set.
    static let everyCommand: [Request] = [
        Request(id: 1, Request.Ping()),
        Request(id: "s", Request.Status()),
        Request(Request.Outputs()),
        Request(Request.Reload()),
        Request(
            id: 2, at: 1_800_000_000.5,
            Request.SetText(
                text: "Now Playing {#ff0000}red{/}", layer: "main", when: .loopEnd, transition: .push, duration: 0.6,
                timingFunction: "easeOut")),
        Request(Request.SelectZone(zone: "right", layer: "spot")),
        Request(Request.SetProperty(layer: "panel", keyPath: "borderColor", value: "#ff0000")),
        Request(Request.SetProperty(layer: "bar", keyPath: "position", value: [10, 4])),
        Request(Request.Stop(layer: "main")),
        Request(Request.Start()),
        Request(Request.LoadScene(path: "/etc/signd/scenes/sale.toml")),
        Request(Request.Subscribe(events: [.loopEnd, .notifyEnd])),
        Request(Request.Subscribe()),
        Request(
            Request.Notify(
                text: "Order 42 ready", layer: "main", loops: 2, duration: 5, priority: 3, transition: .slide)),
        Request(Request.Dismiss(notification: 7)),
        Request(Request.Dismiss(all: true)),
        Request(Request.SetVar(name: "track", value: "Blue in Green")),
        Request(Request.Playlist(action: .select, name: "offers")),
        Request(Request.Playlist(action: .next)),
        Request(Request.SetBrightness(value: 0.2, duration: 600)),
        Request(Request.Display(state: .off)),
    ]

    @Test("every command round-trips through its line and through Codable", arguments: everyCommand)
    func roundTrip(request: Request) throws {
        #expect(try parse(request.line) == request)
        let data = try JSONEncoder().encode(request)
        #expect(try JSONDecoder().decode(Request.self, from: data) == request)
    }

    @Test("the table names every command of the contract")
    func table() {
        #expect(
            Set(Request.commands.keys) == [
                "ping", "status", "outputs", "reload", "set-text", "select-zone", "set-property", "stop", "start",
                "load-scene", "subscribe", "notify", "dismiss", "set-var", "playlist", "set-brightness", "display",
            ])
    }

    @Test("signctl's set-text sends exactly the contract's fields")
    func setTextLine() {
        #expect(
            Request(id: 1, Request.SetText(text: "Now Playing")).line
                == #"{"cmd":"set-text","id":1,"text":"Now Playing"}"#)
    }

    @Test("a request yields its id, typed command and at")
    func typed() throws {
        let r = try parse(#"{"id": 7, "cmd": "set-text", "text": "Now Playing", "when": "loop-end", "at": 1e9}"#)
        #expect(r.id == .int(7))
        #expect(r.at == 1e9)
        let command = try #require(r.command as? Request.SetText)
        #expect(command == Request.SetText(text: "Now Playing", when: .loopEnd))
    }

    @Test("unknown fields are ignored, so a newer client's request works on an older server")
    func unknownFields() throws {
        let r = try parse(#"{"cmd": "set-text", "text": "a", "sparkle": true, "colour": {"r": 1}}"#)
        #expect(r.command as? Request.SetText == Request.SetText(text: "a"))
    }

    @Test(
        "each wrong argument is refused with its code and names the field",
        arguments: [
            (#"{"cmd": "set-text", "text": 12}"#, "bad-request", "\"text\" must be a string"),
            (#"{"cmd": "set-text", "text": "a", "layer": 3}"#, "bad-request", "\"layer\" must be a string"),
            (#"{"cmd": "set-text", "text": "a", "when": 1}"#, "bad-request", "\"when\" must be a string"),
            (#"{"cmd": "set-text", "text": "a", "duration": "long"}"#, "bad-request", "\"duration\" must be a number"),
            (#"{"cmd": "set-text"}"#, "invalid-argument", "set-text needs \"text\""),
            (#"{"cmd": "set-text", "text": "a", "when": "tomorrow"}"#, "invalid-argument", "now, loop-end"),
            (#"{"cmd": "set-text", "text": "a", "transition": "wipe"}"#, "invalid-argument", "cut, crossfade"),
            (#"{"cmd": "set-text", "text": "a", "duration": 61}"#, "invalid-argument", "from 0 to 60"),
            (#"{"cmd": "select-zone"}"#, "invalid-argument", "select-zone needs \"zone\""),
            (#"{"cmd": "select-zone", "zone": [1]}"#, "bad-request", "\"zone\" must be"),
            (#"{"cmd": "set-property", "layer": "p", "key_path": "opacity"}"#, "invalid-argument", "needs \"value\""),
            (#"{"cmd": "load-scene", "path": false}"#, "bad-request", "\"path\" must be a string"),
            (#"{"cmd": "subscribe", "events": "loop-end"}"#, "bad-request", "\"events\" must be an array"),
            (#"{"cmd": "subscribe", "events": ["sunrise"]}"#, "invalid-argument", "no event \"sunrise\""),
            (#"{"cmd": "notify", "text": "a", "loops": 1.5}"#, "bad-request", "\"loops\" must be a whole number"),
            (#"{"cmd": "notify", "text": "a", "loops": 0}"#, "invalid-argument", "\"loops\" must be from 1"),
            (#"{"cmd": "notify", "text": "a", "priority": "high"}"#, "bad-request", "\"priority\""),
            (#"{"cmd": "dismiss"}"#, "invalid-argument", "either \"notification\""),
            (#"{"cmd": "dismiss", "all": "yes"}"#, "bad-request", "\"all\" must be true or false"),
            (#"{"cmd": "set-var", "name": "a b", "value": "x"}"#, "invalid-argument", "\"name\" must be"),
            (#"{"cmd": "set-var", "name": "track", "value": 3}"#, "bad-request", "\"value\" must be a string"),
            (#"{"cmd": "playlist", "action": "shuffle"}"#, "invalid-argument", "next, previous"),
            (#"{"cmd": "playlist", "action": "select"}"#, "invalid-argument", "needs \"name\""),
            (#"{"cmd": "set-brightness", "value": 1.5}"#, "invalid-argument", "from 0 to 1"),
            (#"{"cmd": "set-brightness"}"#, "invalid-argument", "needs \"value\""),
            (#"{"cmd": "display", "state": "dim"}"#, "invalid-argument", "on, off"),
            (#"{"cmd": "ping", "at": "soon"}"#, "bad-request", "\"at\" must be a number"),
            (#"{"cmd": "ping", "at": -5}"#, "invalid-argument", "\"at\""),
            (#"{"cmd": "dance"}"#, "unknown-command", "no command \"dance\""),
        ])
    func wrongArguments(line: String, code: String, message: String) throws {
        let error = try #require(rejection(line)).error
        #expect(error.code.rawValue == code)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("a text over the limit is refused")
    func longText() {
        let text = String(repeating: "a", count: Request.maxTextLength + 1)
        #expect(rejection(Request(Request.SetText(text: text)).line)?.error.code == .invalidArgument)
        #expect(rejection(Request(Request.SetText(text: String(text.dropLast()))).line) == nil)
    }

    @Test("any JSON value may be an id", arguments: [#""abc""#, "1.5", "null", #"{"a": [1]}"#, "[true]"])
    func anyID(id: String) throws {
        let r = try parse(#"{"id": \#(id), "cmd": "ping"}"#)
        #expect(r.id == (try JSONValue.parse(Array(id.utf8))))
    }

    @Test(
        "malformed requests are bad-request",
        arguments: ["not json", "[1, 2]", "\"ping\"", #"{"id": 3}"#, #"{"cmd": 5}"#, #"{"cmd": "ping""#])
    func badRequests(line: String) {
        #expect(rejection(line)?.error.code == .badRequest)
    }

    @Test("a bad request still echoes the id when it can be read")
    func badRequestEchoesID() {
        #expect(rejection(#"{"id": "x1", "cmd": 5}"#)?.id == "x1")
        #expect(rejection(#"{"id": "x2", "cmd": "set-text"}"#)?.id == "x2")
    }

    @Test("responses have the contract's shape")
    func responses() throws {
        #expect(Response.success(id: 1).line == #"{"id":1,"ok":true,"result":{}}"#)
        #expect(
            Response.failure(id: .null, ControlError(.notFound, "no layer \"x\"")).line
                == #"{"error":{"code":"not-found","message":"no layer \"x\""},"id":null,"ok":false}"#)
    }

    @Test("a response line gives the result or throws the daemon's error")
    func parseResponse() throws {
        #expect(try Response(line: Array(#"{"id":1,"ok":true,"result":{"a":1}}"#.utf8)).result() == ["a": 1])
        #expect(throws: ControlError(.busy, "full")) {
            try Response(line: Array(#"{"id":null,"ok":false,"error":{"code":"busy","message":"full"}}"#.utf8))
                .result()
        }
        #expect(throws: ControlError.self) { try Response(line: Array("garbage".utf8)).result() }
    }

    @Test("control characters are escaped for logs, systemd and terminals")
    func escaping() {
        #expect("x\nWATCHDOG=trigger\ny".escapingControlCharacters == #"x\u{a}WATCHDOG=trigger\u{a}y"#)
        #expect("\u{1b}]0;pwned\u{07}".escapingControlCharacters == #"\u{1b}]0;pwned\u{7}"#)
        #expect("안녕 ☕".escapingControlCharacters == "안녕 ☕")
    }
}
