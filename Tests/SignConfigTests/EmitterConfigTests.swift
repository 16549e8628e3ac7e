import Foundation
import SignGraphics
import SignScene
import Testing

@testable import SignConfig

@Suite("Emitter config")
struct EmitterConfigTests {
    static let head = """
        [display]
        width = 128
        height = 32

        [[layer]]
        id = "snow"
        type = "emitter"

        """

    func emitter(_ source: String, file: String = "t.toml") throws -> EmitterContent? {
        let config = try ConfigLoader.parse(Self.head + source, file: file, fonts: nil)
        guard case .layer(let layer)? = config.layers.first, case .emitter(let e) = layer.content else { return nil }
        return e
    }

    @Test("an emitter layer reads Core Animation's emitter and cell keys, with CA's defaults for the rest")
    func readsKeys() throws {
        let e = try #require(
            try emitter(
                """
                emitter_position = [64, -2]
                emitter_size = [130, 0]
                emitter_shape = "line"
                emitter_mode = "outline"
                render_mode = "oldest_last"
                birth_rate = 2
                seed = 9

                [[layer.emitter_cell]]
                name = "flake"
                shape = "circle"
                shape_size = 2
                birth_rate = 5
                lifetime = 6
                lifetime_range = 1
                velocity = 8
                emission_longitude = 1.5708
                y_acceleration = 0.5
                color = "#ff0000"
                alpha_speed = -0.1
                green_range = 0.2
                """))
        #expect(e.position == Point(x: 64, y: -2))
        #expect(e.size == Size(width: 130, height: 0))
        #expect(e.shape == .line && e.mode == .outline && e.renderMode == .oldestLast)
        #expect(e.birthRate == 2 && e.lifetime == 1 && e.seed == 9)
        let cell = try #require(e.cells.first)
        #expect(cell.name == "flake" && cell.enabled)
        #expect(cell.contents == Sprite(look: .circle, width: 2, height: 2))
        #expect(cell.birthRate == 5 && cell.lifetime == 6 && cell.lifetimeRange == 1 && cell.velocity == 8)
        #expect(cell.emissionLongitude == 1.5708 && cell.yAcceleration == 0.5)
        #expect(cell.color == SIMD4(1, 0, 0, 1))
        #expect(cell.colorSpeed == SIMD4(0, 0, 0, -0.1))
        #expect(cell.colorRange == SIMD4(0, 0.2, 0, 0))
        #expect(cell.scale == 1 && cell.spin == 0)
        #expect(e.population(of: 0) == 70)
    }

    @Test("a billion particles a second is refused at its line, with the population and the cap")
    func billionRefused() {
        let problems = configProblems(
            Self.head + """
                [[layer.emitter_cell]]
                shape = "square"
                birth_rate = 1000000000
                lifetime = 10
                """)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("t.toml:10: layer[0].emitter_cell[0].birth_rate: up to 10000000000 particles") == true, "\(problems)")
        #expect(problems.first?.contains("at most 2000") == true)
    }

    @Test("cells within their cap but above the layer's together are refused")
    func layerCap() {
        let cell = """
            [[layer.emitter_cell]]
            shape = "square"
            birth_rate = 500
            lifetime = 3

            """
        let problems = configProblems(Self.head + cell + cell + cell)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("up to 4500 particles alive at once in all cells") == true, "\(problems)")
    }

    @Test("depth CA has and a flat board has not is refused: cuboid, sphere, back to front")
    func depthRefused() {
        let problems = configProblems(
            Self.head + """
                emitter_shape = "sphere"
                render_mode = "back_to_front"
                [[layer.emitter_cell]]
                shape = "square"
                """)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.contains("emitter_shape: \"sphere\" needs depth") })
        #expect(problems.contains { $0.contains("render_mode: \"back_to_front\" sorts by depth") })
    }

    @Test("a cell needs contents or a shape, not both, and a shape signd has")
    func cellContents() {
        let none = configProblems(Self.head + "[[layer.emitter_cell]]\nbirth_rate = 1\n")
        #expect(none.count == 1 && none[0].contains("a cell needs \"contents\""), "\(none)")
        let both = configProblems(Self.head + "[[layer.emitter_cell]]\nshape = \"circle\"\ncontents = \"x.png\"\n")
        #expect(both.contains { $0.contains("not both") }, "\(both)")
        let star = configProblems(Self.head + "[[layer.emitter_cell]]\nshape = \"star\"\n")
        #expect(star.count == 1 && star[0].contains("\"star\" is not one of \"circle\", \"square\""), "\(star)")
        let empty = configProblems(Self.head)
        #expect(empty.count == 1 && empty[0].contains("at least one [[layer.emitter_cell]]"), "\(empty)")
        let typo = configProblems(Self.head + "[[layer.emitter_cell]]\nshape = \"circle\"\nbirthrate = 3\n")
        #expect(typo.count == 1 && typo[0].contains("birth_rate"), "\(typo)")
    }

    @Test("a cell's contents is a PNG read with the image layer's reader; a missing one is a problem")
    func pngContents() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../configs/examples").standardized.path
        let e = try #require(
            try emitter("[[layer.emitter_cell]]\ncontents = \"chevron.png\"\n", file: "\(examples)/x.toml"))
        guard case .image(let image) = e.cells[0].contents.look else {
            Issue.record("the contents is not an image")
            return
        }
        #expect(image.width > 0 && Double(image.width) == e.cells[0].contents.width)
        let missing = configProblems(Self.head + "[[layer.emitter_cell]]\ncontents = \"nope.png\"\n")
        #expect(missing.count == 1 && missing[0].contains("cannot read the image"), "\(missing)")
    }

    @Test("at most 8 cells")
    func cellCount() {
        let cells = String(repeating: "[[layer.emitter_cell]]\nshape = \"square\"\n", count: 9)
        let problems = configProblems(Self.head + cells)
        #expect(problems.count == 1 && problems[0].contains("9 cells: an emitter holds at most 8"), "\(problems)")
    }
}
