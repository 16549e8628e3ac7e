import Testing

@testable import SignGraphics

@Suite("Damage")
struct DamageTests {
    @Test("marks keep one span a row: the union of what was painted in it, cut to the canvas")
    func spans() {
        var d = Damage(width: 20, height: 6)
        #expect(d.isEmpty && d.pixelCount == 0)
        d.add((3, 1, 5, 3))
        d.add((10, 2, 12, 4))
        d.add((-4, 5, 2, 9))
        #expect(d.span(0) == nil)
        #expect(d.span(1)! == (3, 5))
        #expect(d.span(2)! == (3, 12))
        #expect(d.span(3)! == (10, 12))
        #expect(d.span(5)! == (0, 2))
        #expect((d.top, d.bottom) == (1, 6))
        #expect(d.pixelCount == 2 + 9 + 2 + 2)
        d.add((5, 0, 5, 6))  // empty: nothing
        #expect(d.span(0) == nil)
    }

    @Test("a row's span with another's covers both; removing all leaves nothing")
    func unionAndRemove() {
        var a = Damage(width: 8, height: 4), b = Damage(width: 8, height: 4)
        a.add((0, 0, 2, 1))
        b.add((6, 0, 8, 1))
        b.add((1, 3, 2, 4))
        #expect(a.span(0, or: b)! == (0, 8) && a.span(3, or: b)! == (1, 2) && a.span(1, or: b) == nil)
        a.removeAll()
        #expect(a.isEmpty && (0..<4).allSatisfy { a.span($0) == nil })
        a.addAll()
        #expect(a.pixelCount == 32)
    }

    /// A canvas of `width` x `height` with a few paints, and a seed to reset to.
    static func paint(_ canvas: inout Canvas, step: Int) {
        let clip = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        let x = Double(step * 3 % canvas.width) + 0.25 * Double(step % 4)
        canvas.draw(
            RoundedRect(rect: Rect(x: x, y: 2, width: 7, height: 5), cornerRadius: 2),
            paint: .color(Color(red: 200, green: UInt8(step * 40 % 256), blue: 30, alpha: 200)), opacity: 1, clip: clip)
        if step % 3 == 0 {
            canvas.draw(
                RoundedRect(rect: Rect(x: 1, y: 9, width: 4, height: 3), cornerRadius: 0), paint: .color(.white),
                opacity: 0.5, clip: clip)
        }
    }

    @Test(
        "writing only what changed gives the frame writing every pixel gives, frame after frame, and resets the canvas to its seed"
    )
    func writesOnlyWhatChanged() {
        let (w, h) = (24, 12)
        var seed = Canvas(width: w, height: h)
        seed.fill(
            Rect(x: 0, y: 0, width: Double(w), height: Double(h)),
            with: Gradient(ramp: ColorRamp(colors: [Color(red: 10, green: 20, blue: 90), .black])), opacity: 1,
            clip: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        var board = seed
        var kept = Frame(width: w, height: h)
        for step in 0..<12 {
            Self.paint(&board, step: step)
            var fresh = Frame(width: w, height: h)
            board.write(into: &fresh, over: .black)
            let changed = board.damage.pixelCount
            board.write(into: &kept, over: .black, resettingTo: seed)
            #expect(kept == fresh, "frame \(step)")
            #expect(board.pixels == seed.pixels, "frame \(step): the canvas is its seed again")
            // The first frame starts from a copy of the seed, which counts as changed.
            #expect(step == 0 || changed < w * h / 2, "frame \(step) changed part of the board")
        }
        // What neither frame changed is not written again: a byte planted there (behind the
        // stamp's back) stays.
        let stamp = kept.stamp
        kept.pixels[kept.pixels.count - 1] = 77
        kept.stamp = stamp
        Self.paint(&board, step: 5)
        board.write(into: &kept, over: .black, resettingTo: seed)
        #expect(kept.pixels[kept.pixels.count - 1] == 77)
        // A frame changed by anyone else is written whole.
        Self.paint(&board, step: 1)
        var fresh = Frame(width: w, height: h)
        board.write(into: &fresh, over: .black)
        kept.pixels[0] = 99
        board.write(into: &kept, over: .black, resettingTo: seed)
        #expect(kept == fresh)
        // So is one written over another background.
        Self.paint(&board, step: 2)
        let grey = Color(red: 60, green: 60, blue: 60)
        board.write(into: &fresh, over: grey)
        board.write(into: &kept, over: grey, resettingTo: seed)
        #expect(kept == fresh)
    }
}

extension Damage {
    /// How many pixels the spans cover.
    var pixelCount: Int {
        guard !isEmpty else { return 0 }
        return (top..<bottom).reduce(0) { n, y in n + (span(y).map { $0.x1 - $0.x0 } ?? 0) }
    }
}
