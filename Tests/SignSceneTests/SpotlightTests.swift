import SignGraphics
import SignTiming
import Testing

@testable import SignScene

@Suite("Spotlight")
struct SpotlightTests {
    let spotlight = Spotlight(
        id: "spot",
        zones: [
            .init(name: "left", rect: Rect(x: 0, y: 4, width: 40, height: 24)),
            .init(name: "right", rect: Rect(x: 80, y: 8, width: 48, height: 16)),
        ], dim: 0.5, cornerRadius: 6)

    /// The path each of the two layers shows at time t.
    func paths(_ s: Spotlight, at t: Double) -> [AnimatableValue?] {
        s.layerTree(boardWidth: 128, boardHeight: 32).sublayers.map { $0.presentation(at: t)[keyPath: "path"] }
    }

    @Test("half-way through a move the hole and the border share the path midway between the zones")
    func halfway() {
        let moving = spotlight.selecting(1, at: 10)
        // 0.15 s, easeInEaseOut: at 0.075 s the eased progress is exactly 0.5.
        let halfway = paths(moving, at: 10.075)
        #expect(halfway[0] == halfway[1])
        guard case .path(let mid)? = halfway[0] else {
            Issue.record("expected a path")
            return
        }
        let expected = [40.0, 6, 44, 20]
        for (got, want) in zip([mid.rect.minX, mid.rect.minY, mid.rect.width, mid.rect.height], expected) {
            #expect(abs(got - want) < 1e-9)
        }
        #expect(mid.cornerRadius == 6)
        // Before the move starts and after it ends.
        let left = AnimatableValue.path(RoundedRect(rect: spotlight.zones[0].rect, cornerRadius: 6))
        let right = AnimatableValue.path(RoundedRect(rect: spotlight.zones[1].rect, cornerRadius: 6))
        #expect(paths(moving, at: 9) == [left, left])
        #expect(paths(moving, at: 10.2) == [right, right])
    }

    @Test("a quarter of the way in time the move follows easeInEaseOut, corners staying round")
    func eased() {
        let moving = spotlight.selecting(1, at: 0)
        let p = TimingFunction.easeInEaseOut(0.25)
        guard case .path(let path)? = paths(moving, at: 0.0375)[0] else {
            Issue.record("expected a path")
            return
        }
        #expect(abs(path.rect.minX - 80 * p) < 1e-9)
        #expect(path.cornerRadius == 6)
    }

    @Test("outside the selected zone is dimmed by the configured amount, inside is not")
    func dimming() throws {
        let fonts = try FontLibrary()
        let white = Layer(frame: Rect(x: 0, y: 0, width: 128, height: 32), backgroundColor: .white)
        let scene = Scene(width: 128, height: 32, layers: [.layer(white), .spotlight(spotlight)])
        let frame = Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: fonts), at: 0)
        #expect(frame.pixel(x: 20, y: 16) == .white)
        // dim 0.5 is black at alpha 128/255 over white: 255 * 127 / 255.
        #expect(frame.pixel(x: 100, y: 16) == Color(red: 127, green: 127, blue: 127))
        // The corner of the zone is cut round: its very corner pixel is dimmed (mostly).
        #expect(frame.pixel(x: 0, y: 4).red < 200)
    }

    @Test("zones are found by name or index")
    func zoneNames() {
        #expect(spotlight.zoneIndex(named: "right") == 1)
        #expect(spotlight.zoneIndex(named: "0") == 0)
        #expect(spotlight.zoneIndex(named: "2") == nil)
    }
}
