import SignGraphics
import Testing

@testable import SignScene

/// What the board holds between frames, and what a frame must do to start from it.
@Suite("BoardSeed")
struct BoardSeedTests {
    static let fonts = try! FontLibrary()
    static func layer() throws -> PreparedLayer {
        try PreparedLayer(Layer(frame: Rect(x: 0, y: 0, width: 2, height: 2), backgroundColor: .white), fonts: fonts)
    }

    @Test("the first frame clears the board; one that started transparent leaves the next nothing to do")
    func transparentFrames() {
        var seed = BoardSeed<PreparedLayer>()
        seed.begin()
        #expect(seed.pending)
        #expect(seed.prepare(startingFrom: nil) == .clear, "nothing is known of the board yet")
        #expect(!seed.pending)
        #expect(seed.finish() == nil, "written out and reset to transparent")
        seed.begin()
        #expect(seed.prepare(startingFrom: nil) == .none)
    }

    @Test("a static first layer is copied in once; while frames keep starting from it, never again")
    func keptFirstLayer() throws {
        let first = try Self.layer(), other = try Self.layer()
        var seed = BoardSeed<PreparedLayer>()
        seed.begin()
        #expect(seed.prepare(startingFrom: first) == .copy(first))
        #expect(seed.finish() === first, "the board is reset to the first layer's pixels")
        for _ in 0..<3 {
            seed.begin()
            #expect(seed.prepare(startingFrom: first) == .none)
            _ = seed.finish()
        }
        seed.begin()
        #expect(seed.prepare(startingFrom: other) == .copy(other), "another static first layer is copied")
        _ = seed.finish()
        seed.begin()
        #expect(seed.prepare(startingFrom: nil) == .clear, "the board holds a layer's pixels: cleared")
        #expect(seed.finish() == nil)
    }
}
