import Testing

@testable import SignControl

@Suite("ControlMessage")
struct ControlMessageTests {
    func parse(_ s: String) throws(ControlMessage.RejectedRequest) -> ControlMessage.Request {
        try ControlMessage.parseRequest(Array(s.utf8))
    }

    func rejection(_ s: String) -> ControlMessage.RejectedRequest? {
        do {
            _ = try parse(s)
            return nil
        } catch {
            return error
        }
    }

    @Test("a request yields its id, command and the remaining fields as arguments")
    func request() throws {
        let r = try parse(#"{"id": 7, "cmd": "set-text", "text": "Now Playing", "when": "loop-end"}"#)
        #expect(r.id == .int(7))
        #expect(r.command == "set-text")
        #expect(r.arguments == ["text": "Now Playing", "when": "loop-end"])
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
    }

    @Test("responses have the contract's shape")
    func responses() throws {
        #expect(ControlMessage.success(id: 1, result: [:]) == #"{"id":1,"ok":true,"result":{}}"#)
        #expect(
            ControlMessage.failure(id: .null, ControlError(.notFound, "no layer \"x\""))
                == #"{"error":{"code":"not-found","message":"no layer \"x\""},"id":null,"ok":false}"#)
    }

    @Test("a request line carries cmd, id and arguments")
    func requestLine() throws {
        let line = ControlMessage.Request(id: 1, command: "set-text", arguments: ["text": "Hi/there"]).line
        #expect(line == #"{"cmd":"set-text","id":1,"text":"Hi/there"}"#)
    }

    @Test("parseResponse returns the result or throws the daemon's error")
    func parseResponse() throws {
        #expect(try ControlMessage.parseResponse(Array(#"{"id":1,"ok":true,"result":{"a":1}}"#.utf8)) == ["a": 1])
        #expect(throws: ControlError(.busy, "full")) {
            try ControlMessage.parseResponse(
                Array(#"{"id":null,"ok":false,"error":{"code":"busy","message":"full"}}"#.utf8))
        }
    }
}
