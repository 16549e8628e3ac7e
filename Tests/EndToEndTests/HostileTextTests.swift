import Foundation
import SignControl
import Testing

/// Text a client sends that shaping finds hardest, through the control socket of a running
/// signd: it is taken and laid out off the frame clock, and signd goes on drawing frames and
/// answering requests without a stall of its own.
@Suite("hostile text end to end", .serialized)
struct HostileTextTests {
    /// 8,192 scalars of mixed scripts with unpaired bidi controls, lone joiners and emoji
    /// sequences, cut at the request's limit.
    static var mixed: String {
        let piece = "مرحبا 42 नमस्ते שלום (ok) 👩‍👩‍👧 🇯🇵 \u{202E}abc\u{200D} \u{2067}x\u{200C}ก่ "
        var scalars = String.UnicodeScalarView()
        while scalars.count < Request.maxTextLength {
            for s in piece.unicodeScalars where scalars.count < Request.maxTextLength { scalars.append(s) }
        }
        return String(scalars)
    }

    @Test(
        "8,192 mixed-script characters with bidi controls and joiners, and 8,000 combining marks on one letter: each is taken, frames go on, status answers, no stall of signd's own"
    )
    func hostileTextKeepsSigndAnswering() throws {
        let s = try Scratch()
        let fonts = """
            [[layer]]
            id = "world"
            text = "ready"
            font = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"
            fallback_fonts = ["/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
            font_size = 12
            speed = 40
            """
        let daemon = try s.startSignd(config: try s.write(s.config(text: "x", extra: fonts)))
        defer { s.stop(daemon) }
        let marks = "a" + String(repeating: "\u{0301}", count: 8000)
        let before = try s.request("status")
        let stallsBefore = before["stalls_own"]?.doubleValue ?? 0
        var frames = before["frames"]?.doubleValue ?? 0
        for text in [Self.mixed, marks, Self.mixed] {
            // A refusal would throw: each must be taken.
            _ = try s.request("set-text", ["text": .string(text), "layer": "world"])
            // Frames keep coming after the text is taken.
            let advanced = try eventually {
                (try s.request("status")["frames"]?.doubleValue ?? 0) > frames + 30
            }
            #expect(advanced, "no frames after set-text of \(text.unicodeScalars.count) scalars")
            frames = try s.request("status")["frames"]?.doubleValue ?? 0
        }
        let after = try s.request("status")
        #expect((after["stalls_own"]?.doubleValue ?? 0) == stallsBefore, "\(after)")
        #expect(daemon.isRunning)
    }
}
