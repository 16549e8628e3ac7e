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

    /// One 128x16 sign from two 64x16 boards side by side (`canvas`, `viewport`), or, with
    /// `board` nil, the whole sign as one board (for `signd render`).
    static func halfConfig(_ s: Scratch, board: String?, epoch: String) throws -> String {
        let display =
            board.map {
                "width = 64\nheight = 16\ntimeline = \"realtime\"\nepoch = \"\(epoch)\"\ncanvas = [128, 16]\nviewport = [\($0 == "left" ? 0 : 64), 0]"
            } ?? "width = 128\nheight = 16"
        return try s.write(
            """
            [display]
            \(display)
            fps = 30
            [[layer]]
            text = "One long sign from two boards, each showing its half"
            speed = 40
            fade = 4
            [[output]]
            type = "shm"
            name = "\(s.name)\(board ?? "whole")"
            [preview]
            terminal = "off"
            """, "\(board ?? "whole").toml")
    }

    @Test(
        "two boards, each the half of one canvas: each frame a board shows is its window of the whole sign rendered at that frame"
    )
    func canvasHalves() throws {
        let s = try Scratch()
        defer {
            for board in ["left", "right", "whole"] { shm_unlink("/signd.\(s.name)\(board)") }
        }
        let epoch = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-20))
        var boards: [(String, Process, String)] = []
        defer { for (_, process, _) in boards { s.stop(process) } }
        for board in ["left", "right"] {
            let socket = s.dir.appendingPathComponent("\(board).sock").path
            let process = try s.launch(
                Paths.signd,
                ["run", "--config", try Self.halfConfig(s, board: board, epoch: epoch), "--socket", socket])
            try s.waitForSocket(process, path: socket)
            boards.append((board, process, socket))
            Thread.sleep(forTimeInterval: 0.7)
        }
        let status = try ControlClient(path: boards[1].2).request("status")
        #expect(status["width"] == 64 && status["canvas"] == [128, 16] && status["viewport"] == [64, 0])
        // A few frames from each board, then the whole sign rendered offline up to the last.
        var seen: [(board: String, number: Int, pixels: [UInt8])] = []
        for _ in 0..<3 {
            for (board, _, _) in boards {
                let out = s.dir.appendingPathComponent("\(board).rgb").path
                let read = try run("/usr/bin/env", ["python3", Paths.shmReader, s.name + board, "frame", out])
                let number = Int(try JSONValue.parse(Array(read.stdout.utf8))["frame"]?.doubleValue ?? 0)
                seen.append((board, number, [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))))
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let last = seen.map(\.number).max() ?? 0
        let reference = s.dir.appendingPathComponent("whole.rgb").path
        let rendered = try run(
            Paths.signd,
            [
                "render", "--config", try Self.halfConfig(s, board: nil, epoch: epoch), "--frames", "\(last + 1)",
                "--out", reference,
            ])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: reference)))
        for (board, number, pixels) in seen {
            let frameBytes = 128 * 16 * 3
            let frame = Array(whole[(number * frameBytes)..<((number + 1) * frameBytes)])
            let x0 = board == "left" ? 0 : 64
            var window: [UInt8] = []
            for y in 0..<16 {
                let start = (y * 128 + x0) * 3
                window += frame[start..<(start + 64 * 3)]
            }
            #expect(pixels == window, "\(board) board, frame \(number)")
        }
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
