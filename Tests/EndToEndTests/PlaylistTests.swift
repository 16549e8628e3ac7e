import Foundation
import Glibc
import SignControl
import Testing

/// Playlists on a running daemon: items in turn with their events, `playlist` requests, a
/// `set-text` that holds until the next item, and the position kept over a restart.
@Suite("Playlists, end to end", .serialized)
struct PlaylistTests {
    static func config(_ s: Scratch) -> String {
        s.config(
            text: "Own text",
            extra: """
                [[playlist]]
                name = "offers"
                [[playlist.item]]
                text = "OPEN"
                duration = 1
                [[playlist.item]]
                text = "SALE {var:deal}"
                duration = 1
                [[playlist]]
                name = "closed"
                [[playlist.item]]
                text = "CLOSED"
                duration = 30
                [[playlist.item]]
                text = "See you at 9"
                duration = 30
                [[schedule]]
                days = ["daily"]
                playlist = "offers"
                """)
    }

    /// The next playlist-item event: (playlist, index), and when it came.
    static func nextItem(_ client: ControlClient) throws -> (String, Int64, Date)? {
        while let event = try client.nextEvent() {
            guard event["event"] == "playlist-item", case .string(let name)? = event["playlist"],
                case .int(let index)? = event["index"]
            else { continue }
            return (name, index, Date())
        }
        return nil
    }

    @Test(
        "the schedule's playlist plays its items in turn, each for its duration, with playlist-item events; select, next, pause and resume move it; set-text holds until the next item"
    )
    func playsAndMoves() throws {
        let s = try Scratch()
        let signd = try s.startSignd(config: try s.write(Self.config(s)))
        defer { s.stop(signd) }
        let events = try s.subscribe(["playlist-item"])
        var seen: [(String, Int64, Date)] = []
        while seen.count < 3, let item = try Self.nextItem(events) { seen.append(item) }
        #expect(seen.map { "\($0.0) \($0.1)" }.count == 3)
        for (a, b) in zip(seen, seen.dropFirst()) {
            #expect(b.1 == (a.1 + 1) % 2, "items in turn")
            let gap = b.2.timeIntervalSince(a.2)
            #expect(gap > 0.8 && gap < 3, "each shows for its second: \(gap)")
        }

        #expect(try run(Paths.signctl, ["playlist", "select", "closed", "--socket", s.socket]).status == 0)
        var status = try s.request("status")
        #expect(status["playlist"]?["name"] == "closed" && status["playlist"]?["index"] == 0)
        #expect(status["text"] == "CLOSED")
        _ = try s.request("playlist", ["action": "next"])
        status = try s.request("status")
        #expect(status["text"] == "See you at 9" && status["playlist"]?["index"] == 1)
        _ = try s.request("playlist", ["action": "pause"])
        #expect(try s.request("status")["playlist"]?["paused"] == true)
        let printed = try run(Paths.signctl, ["status", "--socket", s.socket]).stdout
        #expect(printed.contains("playlist: closed, item 2: See you at 9, paused"), "\(printed)")
        _ = try s.request("playlist", ["action": "resume"])
        #expect(try s.request("status")["playlist"]?["paused"] == false)

        // A text set by hand holds until the next item.
        _ = try s.request("set-text", ["text": "Back in 5"])
        #expect(try s.request("status")["text"] == "Back in 5")
        _ = try s.request("playlist", ["action": "previous"])
        #expect(try s.request("status")["text"] == "CLOSED")

        #expect(throws: ControlError.self) { try s.request("playlist", ["action": "select", "name": "nope"]) }
        let refused = try run(Paths.signctl, ["playlist", "select", "--socket", s.socket])
        #expect(refused.status != 0)
    }

    @Test("the playlist and item playing, chosen by hand, survive a restart; the layer's own text is not overwritten")
    func survivesRestart() throws {
        let s = try Scratch()
        let config = try s.write(Self.config(s))
        let environment = ["STATE_DIRECTORY": s.dir.path]
        var signd = try s.startSignd(config: config, environment: environment)
        defer { s.stop(signd) }
        _ = try s.request("playlist", ["action": "select", "name": "closed"])
        _ = try s.request("playlist", ["action": "next"])
        s.stop(signd)
        let saved = try String(contentsOf: s.dir.appendingPathComponent("state.json"), encoding: .utf8)
        #expect(!saved.contains("See you at 9"), "playlist items are not saved as the layer's text: \(saved)")
        signd = try s.startSignd(config: config, environment: environment)
        // The position is in status from the frame that shows the item, which on a loaded
        // machine can come after the socket first answers.
        var status = try s.request("status")
        _ = try eventually {
            status = try s.request("status")
            return status["playlist"] != nil && status["playlist"] != .null
        }
        #expect(status["playlist"]?["name"] == "closed" && status["playlist"]?["index"] == 1, "\(status)")
        #expect(status["text"] == "See you at 9")
    }
}
