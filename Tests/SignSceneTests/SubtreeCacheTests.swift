import SignGraphics
import Testing

@testable import SignScene

/// The static subtrees' kept pixels.
@Suite("SubtreeCache")
struct SubtreeCacheTests {
    static let fonts = try! FontLibrary()
    static let board = Rect(x: 0, y: 0, width: 16, height: 4)

    /// A cache whose fills paint the tree's frame white at its origin, and count.
    final class Painter {
        var calls = 0
        lazy var cache = SubtreeCache(width: 16, height: 4, limit: 2) { [unowned self] layer, origin, clip, canvas in
            self.calls += 1
            let frame = layer.model.frame.offsetBy(dx: origin.x, dy: origin.y)
            canvas.fill(
                frame, with: Gradient(ramp: ColorRamp(colors: [.white, .white])), opacity: 1, clip: clip)
        }
    }

    static func tree(width: Double = 4) throws -> PreparedLayer {
        try PreparedLayer(Layer(frame: Rect(x: 0, y: 0, width: width, height: 2)), fonts: fonts)
    }

    @Test("a tree is drawn once for a place; another place draws it again, in its entry's storage")
    func keptPerPlace() throws {
        let painter = Painter(), tree = try Self.tree()
        painter.cache.beginFrame()
        let first = painter.cache.entry(tree, origin: Point(x: 1, y: 0), clip: Self.board)
        _ = painter.cache.entry(tree, origin: Point(x: 1, y: 0), clip: Self.board)
        #expect(painter.calls == 1 && painter.cache.fills == 1)
        #expect(first.occupied == (1, 0, 5, 2) && first.runs == [0, 1, 5, 1, 1, 5])
        _ = painter.cache.entry(tree, origin: Point(x: 3, y: 0), clip: Self.board)
        #expect(painter.calls == 2 && painter.cache.count == 1, "one entry per tree")
        painter.cache.beginFrame()
        #expect(painter.cache.fills == 0)
    }

    @Test("beyond its limit the least recently drawn entry is given up")
    func limit() throws {
        let painter = Painter()
        let a = try Self.tree(), b = try Self.tree(), c = try Self.tree()
        for (frame, tree) in [a, b, a, c].enumerated() {
            painter.cache.beginFrame()
            _ = painter.cache.entry(tree, origin: .zero, clip: Self.board)
            _ = frame
        }
        #expect(painter.cache.count == 2)
        let before = painter.calls
        _ = painter.cache.entry(a, origin: .zero, clip: Self.board)
        #expect(painter.calls == before, "a, drawn more recently than b, was kept")
        _ = painter.cache.entry(b, origin: .zero, clip: Self.board)
        #expect(painter.calls == before + 1, "b was given up")
    }

    @Test("a mask moved by whole pixels is placed, not drawn again; a fractional move draws it at its phase")
    func movingMask() throws {
        let painter = Painter(), mask = try Self.tree(width: 3)
        painter.cache.beginFrame()
        let at2 = painter.cache.mask(mask, origin: Point(x: 2, y: 0))
        #expect(at2.coverage.x0 == 2 && at2.occupied == (2, 0, 5, 2))
        for x in [3.0, 7.0, 12.0, -1.0] {
            let moved = painter.cache.mask(mask, origin: Point(x: x, y: 1))
            #expect(moved.coverage.x0 == Int(x) && moved.coverage.y0 == 1)
            #expect(moved.occupied == (Int(x), 1, Int(x) + 3, 3))
        }
        #expect(painter.calls == 1)
        let half = painter.cache.mask(mask, origin: Point(x: 4.5, y: 0))
        #expect(painter.calls == 2 && half.coverage.x0 == 4)
        #expect(half.coverage.coverage[0] == 128 && half.coverage.coverage[3] == 128, "half-covered edge columns")
    }
}
