import Foundation
import Glibc
import SignControl
import Testing

/// The realtime timeline (CONTRACTS.md section 8): boards with the same config and the
/// machine's clock show the same frame number with the same picture at the same instant,
/// whenever each started.
@Suite("Realtime timeline", .serialized)
struct TimelineTests {
    /// A 64x16 board at 30 fps on the realtime grid from `epoch`, a scrolling text, its own shm.
    static func config(_ s: Scratch, board: String, epoch: String) throws -> String {
        try s.write(
            """
            [display]
            width = 64
            height = 16
            fps = 30
            timeline = "realtime"
            epoch = "\(epoch)"
            [[layer]]
            text = "One timeline for many boards"
            speed = 40
            fade = 4
            [[output]]
            type = "shm"
            name = "\(s.name)\(board)"
            [preview]
            terminal = "off"
            """, "\(board).toml")
    }

    /// Reads both boards' framebuffers for `seconds` (tools/shm-read.py compare).
    static func compare(_ s: Scratch, seconds: Double) throws -> JSONValue {
        let done = try run(
            "/usr/bin/env",
            ["python3", Paths.shmReader, s.name + "a", "compare", s.name + "b", "--seconds", "\(seconds)"])
        #expect(done.status == 0, "\(done.stderr)")
        return try JSONValue.parse(Array(done.stdout.utf8))
    }

    @Test(
        "two boards started 0.7 s apart publish the same picture for every frame number both show; a set-text with at switches both on the same frame"
    )
    func twoBoards() throws {
        let s = try Scratch()
        defer {
            shm_unlink("/signd.\(s.name)a")
            shm_unlink("/signd.\(s.name)b")
        }
        let formatter = ISO8601DateFormatter()
        let epoch = formatter.string(from: Date().addingTimeInterval(-30))
        let socketA = s.dir.appendingPathComponent("a.sock").path
        let socketB = s.dir.appendingPathComponent("b.sock").path
        let a = try s.launch(
            Paths.signd, ["run", "--config", try Self.config(s, board: "a", epoch: epoch), "--socket", socketA])
        defer { s.stop(a) }
        try s.waitForSocket(a, path: socketA)
        Thread.sleep(forTimeInterval: 0.7)
        let b = try s.launch(
            Paths.signd, ["run", "--config", try Self.config(s, board: "b", epoch: epoch), "--socket", socketB])
        defer { s.stop(b) }
        try s.waitForSocket(b, path: socketB)
        Thread.sleep(forTimeInterval: 0.3)

        let steady = try Self.compare(s, seconds: 3)
        #expect((steady["both"]?.doubleValue ?? 0) >= 60, "\(steady)")
        #expect(steady["differ"]?.doubleValue == 0, "\(steady)")
        // Frame n is due at epoch + n / 30: the numbers are the grid's, 30 s after the epoch.
        let first = steady["first"]?.doubleValue ?? 0
        #expect(first > 30 * 30 && first < 30 * 40, "\(steady)")
        for socket in [socketA, socketB] {
            let status = try ControlClient(path: socket).request("status")
            #expect(status["timeline"]?.stringValue == "realtime")
        }

        // One request with the same `at` to both, as a group topic would carry it.
        let at = Date().timeIntervalSince1970 + 1
        for socket in [socketA, socketB] {
            _ = try ControlClient(path: socket).request(Request.SetText(text: "Now"), at: at)
        }
        let switching = try Self.compare(s, seconds: 2.5)
        #expect(switching["differ"]?.doubleValue == 0, "\(switching)")
        for socket in [socketA, socketB] {
            #expect(try ControlClient(path: socket).request("status")["text"]?.stringValue == "Now")
        }
    }
}
