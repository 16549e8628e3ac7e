import Foundation
import SignGraphics
import SignScene
import Testing

@testable import SignDaemon

@Suite("ConfigLoader")
struct ConfigLoaderTests {
    static let fonts = try! FontLibrary()
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized

    func problems(_ source: String, fonts: FontLibrary? = nil) -> [String] {
        do {
            _ = try ConfigLoader.parse(source, file: "t.toml", fonts: fonts)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("the demo config is valid and describes the demo")
    func demo() throws {
        let config = try ConfigLoader.load(
            path: Self.root.appendingPathComponent("configs/demo.toml").path, fonts: Self.fonts)
        #expect(config.display.width == 128 && config.display.height == 32 && config.display.fps == 60)
        #expect(config.layers.map(\.text) == ["Now Playing"])
        #expect(config.outputs == [.sharedMemory(name: "demo", mode: 0o640, group: nil)])
    }

    @Test("defaults: misc-fixed 6x10 with unifont fallback, 30 px/s, the seed's 2.6 % fade")
    func defaults() throws {
        let config = try ConfigLoader.parse("[[layer]]\ntext = \"x\"\n", file: "t.toml", fonts: nil)
        let layer = config.layers[0]
        #expect(layer.id == "main")
        #expect(layer.font == FontSpec(name: "6x10", size: 10))
        #expect(layer.fallbacks == [.unifont])
        #expect(layer.marquee == Marquee(speed: 30, gap: nil, fade: .fraction(0.026), scroll: .always, motion: .smooth))
        #expect(config.preview.terminal == .auto)
    }

    @Test("fade is pixels as a number and a fraction of the width as a percentage")
    func fade() throws {
        let px = try ConfigLoader.parse("[[layer]]\nfade = 12\n", file: "t", fonts: nil)
        let percent = try ConfigLoader.parse("[[layer]]\nfade = \"10%\"\n", file: "t", fonts: nil)
        #expect(px.layers[0].marquee.fade == .pixels(12))
        #expect(percent.layers[0].marquee.fade == .fraction(0.1))
    }

    @Test("every problem is reported as file:line: key: message")
    func problemsNameFileLineAndKey() {
        let source = """
            [display]
            width = "wide"
            fps = 0

            [[layer]]
            text = "a"

            [[layer]]
            id = "main"
            color = "purplish"
            speed = -1
            scroll = "sometimes"
            colour = "#fff"

            [[output]]
            type = "hdmi"
            """
        #expect(
            problems(source) == [
                "t.toml:2: display.width: expected an integer, found string",
                "t.toml:3: display.fps: 0.0 is out of range 1.0...1000.0",
                "t.toml:13: layer[1].colour: unknown key (expected one of: antialias, color, fade, fallback_fonts, font, font_size, gap, height, id, motion, scroll, speed, text, width, x, y)",
                "t.toml:9: layer[1].id: another layer already has id \"main\"",
                "t.toml:10: layer[1].color: \"purplish\" is not a colour (use #rrggbb, #rrggbbaa or a name such as amber)",
                "t.toml:11: layer[1].speed: -1.0 is out of range 0.0...10000.0",
                "t.toml:12: layer[1].scroll: \"sometimes\" is not one of \"always\", \"overflow\"",
                "t.toml:16: output[0].type: \"hdmi\" is not a known output type (\"shm\")",
            ])
    }

    @Test("a TOML syntax error names its line")
    func syntaxError() {
        let found = problems("[display]\nwidth = 12\nheight = = 3\n")
        #expect(found.count == 1 && found[0].hasPrefix("t.toml:3: -: TOML syntax"))
    }

    @Test("a font that cannot be opened is a problem at the font key")
    func missingFont() {
        let found = problems("[[layer]]\nfont = \"/no/such/font.otf\"\n", fonts: Self.fonts)
        #expect(
            found.count == 1 && found[0].hasPrefix("t.toml:2: layer[0].font: FT_New_Face failed for /no/such/font.otf"))
    }

    @Test("a config with no layer is refused")
    func noLayer() {
        #expect(
            problems("[display]\nwidth = 64\n") == [
                "t.toml:1: layer: no [[layer]]: a sign needs at least one text layer"
            ])
    }

    @Test("an unreadable file is reported, not crashed on")
    func unreadable() {
        #expect(throws: ConfigError.self) { try ConfigLoader.load(path: "/no/such/signd.toml", fonts: Self.fonts) }
    }
}
