import Testing

@testable import SignGraphics

/// Writing the board out as RGB888.
@Suite("FrameWriting")
struct FrameWritingTests {
    /// Premultiplied pixels of every kind: opaque, translucent, transparent.
    static func pixels(_ count: Int) -> [Canvas.Pixel] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let straight = Color(
                red: UInt8(truncatingIfNeeded: state >> 24), green: UInt8(truncatingIfNeeded: state >> 32),
                blue: UInt8(truncatingIfNeeded: state >> 40), alpha: [0, 40, 128, 255][Int(state >> 60 & 3)])
            return Canvas.premultiplied(straight)
        }
    }

    @Test(
        "each pixel of a span is written as its R, G, B over the background, and no byte outside the span, for every start and length",
        arguments: [Color.black, Color(red: 30, green: 60, blue: 200)])
    func spans(background: Color) {
        let source = Self.pixels(24), backdrop = Canvas.Backdrop(background)
        let bg = Canvas.premultiplied(Color(red: background.red, green: background.green, blue: background.blue))
        var wrong: [String] = []
        for start in 0..<8 {
            for end in (start + 1)...source.count {
                var bytes = [UInt8](repeating: 0xA5, count: source.count * 3)
                source.withUnsafeBufferPointer { s in
                    bytes.withUnsafeMutableBytes { d in
                        Canvas.convert(s.baseAddress!, into: d.baseAddress!, from: start, to: end, over: backdrop)
                    }
                }
                for i in 0..<source.count {
                    let p = Canvas.over(Canvas.spread(source[i]), bg)
                    let expected =
                        (start..<end).contains(i)
                        ? [UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF)] : [0xA5, 0xA5, 0xA5]
                    if Array(bytes[(3 * i)..<(3 * i + 3)]) != expected { wrong.append("\(start)..<\(end) at \(i)") }
                }
            }
        }
        let count = wrong.count
        #expect(count == 0, "\(count) wrong, first: \(wrong.prefix(3))")
    }

    @Test(
        "a span written out over black and reset in one pass writes the bytes convert writes and leaves the seed's pixels (or transparent) in the span, nothing outside it",
        arguments: [true, false])
    func writtenAndReset(withSeed: Bool) {
        let source = Self.pixels(24), seed = Self.pixels(31).suffix(24).map { $0 | 0x0100_0000 }
        var wrong: [String] = []
        for start in 0..<8 {
            for end in (start + 1)...source.count {
                var fused = [UInt8](repeating: 0xA5, count: source.count * 3), apart = fused
                var board = source
                board.withUnsafeMutableBufferPointer { b in
                    fused.withUnsafeMutableBytes { d in
                        seed.withUnsafeBufferPointer { s in
                            Canvas.convertOverBlack(
                                b.baseAddress!, into: d.baseAddress!, from: start, to: end,
                                resettingTo: withSeed ? s.baseAddress! : nil)
                        }
                    }
                }
                source.withUnsafeBufferPointer { s in
                    apart.withUnsafeMutableBytes { d in
                        Canvas.convert(s.baseAddress!, into: d.baseAddress!, from: start, to: end, over: .init(.black))
                    }
                }
                let reset = (0..<source.count).map {
                    (start..<end).contains($0) ? (withSeed ? seed[$0] : 0) : source[$0]
                }
                if fused != apart { wrong.append("\(start)..<\(end): bytes") }
                if board != reset { wrong.append("\(start)..<\(end): board") }
            }
        }
        let count = wrong.count
        #expect(count == 0, "\(count) wrong, first: \(wrong.prefix(3))")
    }
}
