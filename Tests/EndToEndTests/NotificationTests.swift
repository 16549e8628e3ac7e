import Foundation
import Glibc
import SignControl
import Testing

/// `notify` and `dismiss` on a running daemon: the queue by priority then arrival, a higher
/// priority replacing the one showing, the events with their reasons, and the board given
/// back as it was.
@Suite("Notifications, end to end", .serialized)
struct NotificationTests {
    /// The next notify-start or notify-end event, as (event, id, reason); a test whose
    /// events stop coming fails, the run goes on.
    func next(_ client: ControlClient) throws -> (String, Int64, String?) {
        while true {
            let event = try #require(try client.nextEvent(), "the daemon closed the event connection")
            guard case .string(let name)? = event["event"], case .int(let id)? = event["notification"] else { continue }
            return (name, id, event["reason"]?.stringValue)
        }
    }

    @Test(
        "queued by priority then arrival; a higher priority replaces the one showing; dismiss ends one; events name each end's reason; the board comes back as it was"
    )
    func queueAndEvents() throws {
        let s = try Scratch()
        let daemon = try s.startSignd(config: try s.write(s.config(text: "Open")))
        defer { s.stop(daemon) }
        let events = try s.subscribe(["notify-start", "notify-end"])
        let before = try s.settled().pixels

        let first = try s.request("notify", ["text": "Order 41", "duration": 30])["notification"]
        #expect(try next(events) == ("notify-start", 1, nil))
        #expect(first == 1)
        _ = try s.request("notify", ["text": "Order 42", "duration": 0.5])  // 2 waits
        _ = try s.request("notify", ["text": "Low", "duration": 30, "priority": -1])  // 3 waits after 2
        var status = try s.request("status")
        #expect(status["notification"]?["id"] == 1 && status["queued"] == 2)
        #expect(status["text"] == "Open", "the layer's own text stays what status reports")
        #expect(try eventually { try s.frame() != before }, "the notification shows")

        _ = try s.request("notify", ["text": "Fire drill", "duration": 30, "priority": 5])  // 4 replaces 1
        #expect(try next(events) == ("notify-end", 1, "replaced"))
        #expect(try next(events) == ("notify-start", 4, nil))
        _ = try s.request("dismiss", ["notification": 4])
        #expect(try next(events) == ("notify-end", 4, "dismissed"))
        #expect(try next(events) == ("notify-start", 2, nil))
        #expect(try next(events) == ("notify-end", 2, "done"))
        #expect(try next(events) == ("notify-start", 3, nil))
        _ = try s.request("dismiss", ["all": true])
        #expect(try next(events) == ("notify-end", 3, "dismissed"))

        #expect(throws: ControlError.self) { try s.request("dismiss", ["notification": 99]) }
        #expect(throws: ControlError.self) { try s.request("notify", ["text": "x", "layer": "nowhere"]) }
        // The way back takes the layer's transition (a cut here): the board as before.
        status = try s.request("status")
        #expect(status["notification"] == .null && status["queued"] == 0)
        #expect(try eventually { try s.frame() == before })
    }

    @Test("at most 256 notifications wait; the next is refused busy, and one more fits once one has gone")
    func queueIsBounded() throws {
        let s = try Scratch()
        let daemon = try s.startSignd(config: try s.write(s.config(text: "Open")))
        defer { s.stop(daemon) }
        let client = try ControlClient(path: s.socket)
        for i in 0...256 {  // one showing, 256 waiting
            _ = try client.request("notify", ["text": .string("Notice \(i)"), "duration": 30])
        }
        #expect(try s.request("status")["queued"] == 256)
        #expect {
            try client.request("notify", ["text": "One too many", "duration": 30])
        } throws: { ($0 as? ControlError)?.code == .busy }
        _ = try client.request("dismiss", ["notification": 200])
        _ = try client.request("notify", ["text": "Fits again", "duration": 30])
        #expect(try s.request("status")["queued"] == 256)
    }

    @Test(
        "signctl notify prints the id, dismiss takes it; set-brightness and display reach the daemon and status shows them"
    )
    func signctlCommands() throws {
        let s = try Scratch()
        let daemon = try s.startSignd(config: try s.write(s.config(text: "Open")))
        defer { s.stop(daemon) }
        let notify = try run(Paths.signctl, ["notify", "Order 42", "--duration", "30", "--socket", s.socket])
        #expect(notify.status == 0 && notify.stdout == "notification 1\n", "\(notify.stderr)")
        #expect(try run(Paths.signctl, ["dismiss", "1", "--socket", s.socket]).status == 0)
        let missing = try run(Paths.signctl, ["dismiss", "1", "--socket", s.socket])
        #expect(missing.status == 1 && missing.stderr.contains("no notification 1"))
        #expect(try run(Paths.signctl, ["set-brightness", "0.3", "--socket", s.socket]).status == 0)
        #expect(try run(Paths.signctl, ["display", "off", "--socket", s.socket]).status == 0)
        let status = try run(Paths.signctl, ["status", "--socket", s.socket])
        #expect(status.stdout.contains("display:  off, brightness 0.3"), "\(status.stdout)")
        #expect(try run(Paths.signctl, ["set-brightness", "1.5", "--socket", s.socket]).status != 0)
    }
}
