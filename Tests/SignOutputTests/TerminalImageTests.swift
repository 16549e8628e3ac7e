import SignGraphics
import Testing

@testable import SignOutput

@Suite("TerminalImage")
struct TerminalImageTests {
    @Test("two pixel rows become one row of upper-half blocks with 24-bit colours")
    func upperHalfBlocks() {
        var frame = Frame(width: 2, height: 2)
        frame.pixels = [255, 0, 0, 0, 255, 0, 0, 0, 255, 1, 2, 3]
        var image = TerminalImage()
        let text = String(decoding: image.update(to: frame), as: UTF8.self)
        #expect(
            text
                == "\u{1B}[1;1H\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀\u{1B}[38;2;0;255;0m\u{1B}[48;2;1;2;3m▀\u{1B}[0m"
        )
    }

    @Test("an unchanged frame writes nothing; a changed pixel rewrites only its cell")
    func diffs() {
        var frame = Frame(width: 4, height: 2)
        var image = TerminalImage()
        _ = image.update(to: frame)
        #expect(image.update(to: frame).isEmpty)
        frame.pixels[3 * 2] = 200
        let text = String(decoding: image.update(to: frame), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[1;3H") && text.filter { $0 == "▀" }.count == 1)
    }

    @Test("a frame wider than the terminal is shrunk by a whole factor")
    func shrinks() {
        let frame = Frame(width: 8, height: 4, fill: .white)
        var image = TerminalImage(columns: 4)
        let text = String(decoding: image.update(to: frame), as: UTF8.self)
        #expect(text.filter { $0 == "▀" }.count == 4)
    }
}
