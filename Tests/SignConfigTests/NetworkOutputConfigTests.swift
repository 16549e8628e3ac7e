import Foundation
import SignGraphics
import SignOutput
import Testing

@testable import SignConfig

@Suite("Network output configs")
struct NetworkOutputConfigTests {
    static let fonts = try! FontLibrary()
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized

    static func network(_ example: String) throws -> NetworkOutputConfig {
        let config = try ConfigLoader.load(
            path: root.appendingPathComponent("configs/examples/\(example)").path, fonts: fonts)
        guard case .network(let output) = config.outputs.first else { throw ConfigError(problems: []) }
        return output
    }

    func problems(_ output: String, width: Int = 64, height: Int = 32) -> [String] {
        do {
            _ = try ConfigLoader.parse(
                "[display]\nwidth = \(width)\nheight = \(height)\n[[layer]]\ntext = \"x\"\n[[output]]\nname = \"net\"\n\(output)",
                file: "t.toml", fonts: nil)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("the WLED example: DDP to port 4048 at most 40 fps, a column-serpentine 32x8 matrix")
    func wled() throws {
        let wled = try Self.network("wled-ddp.toml")
        #expect(wled.wire == .ddp && wled.host == "192.168.1.50" && wled.port == 4048 && wled.maxFPS == 40)
        #expect(wled.panels.count == 1 && wled.panels[0].strip == .columns && wled.panels[0].serpentine)
        #expect(wled.correction.brightness == 0.5)
    }

    @Test("the E1.31 example: multicast from universe 1, 2048 pixels in 13 universes")
    func e131() throws {
        let panel = try Self.network("e131-universes.toml")
        #expect(panel.wire == .e131 && panel.host == nil && panel.port == 5568 && panel.universe == 1)
        #expect(panel.ledCount(width: 64, height: 32) == 2048 && panel.channelsPerUniverse == 510)
        #expect(panel.sourceName == "signd window panel" && panel.priority == 100)
    }

    @Test("the FlaschenTaschen example: UDP 1337 to ft-server, a 128-column picture on the background layer")
    func flaschenTaschen() throws {
        let ft = try Self.network("flaschen-taschen.toml")
        #expect(ft.wire == .flaschenTaschen && ft.host == "192.168.1.60" && ft.port == 1337 && ft.maxFPS == 60)
        #expect(ft.pictureWidth == 128 && ft.offsetX == 0 && ft.offsetY == 0 && ft.layer == 0)
        #expect(ft.correction.brightness == 0.6 && ft.dithering)
    }

    @Test("FlaschenTaschen keys: width defaults to the display's, x, y and layer read, a layer past 15 named")
    func flaschenTaschenKeys() throws {
        let config = try ConfigLoader.parse(
            "[display]\nwidth = 96\nheight = 48\n[[layer]]\ntext = \"x\"\n[[output]]\nname = \"ft\"\ntype = \"flaschen-taschen\"\nhost = \"127.0.0.1\"\nx = -4\ny = 7\nlayer = 3",
            file: "t.toml", fonts: nil)
        guard case .network(let ft) = config.outputs.first else {
            Issue.record("no network output")
            return
        }
        #expect(ft.pictureWidth == 96 && ft.offsetX == -4 && ft.offsetY == 7 && ft.layer == 3 && ft.port == 1337)
        #expect(problems("type = \"flaschen-taschen\"\nhost = \"h\"\nlayer = 16").contains {
            $0.hasPrefix("t.toml:10: output[0].layer:")
        })
        #expect(problems("type = \"flaschen-taschen\"\nhost = \"h\"\nuniverse = 1").contains {
            $0.contains("output[0].universe")
        })
        #expect(problems("type = \"flaschen-taschen\"").contains { $0.hasPrefix("t.toml:6: output[0].host: missing") })
    }

    @Test("the Colorlight example and keys: an interface, no host; a missing or odd interface named")
    func colorlight() throws {
        let card = try Self.network("colorlight.toml")
        #expect(card.wire == .colorlight && card.interface == "eth1" && card.host == nil && card.maxFPS == 50)
        #expect(card.pictureWidth == 128 && card.ledCount(width: 128, height: 64) == 128 * 64)
        #expect(problems("type = \"colorlight\"").contains { $0.hasPrefix("t.toml:6: output[0].interface: missing") })
        #expect(problems("type = \"colorlight\"\ninterface = \"a b\"").contains { $0.contains("is not a network interface") })
        #expect(problems("type = \"colorlight\"\ninterface = \"eth1\"\nhost = \"x\"").contains {
            $0.contains("output[0].host: unknown key")
        })
    }

    @Test("defaults: each protocol's port and first universe")
    func defaults() {
        #expect(NetworkOutputConfig(name: "a", wire: .artnet).port == 6454)
        #expect(NetworkOutputConfig(name: "a", wire: .artnet).universe == 0)
        #expect(NetworkOutputConfig(name: "a", wire: .e131).universe == 1)
        #expect(NetworkOutputConfig(name: "a", wire: .opc).port == 7890)
    }

    @Test("mistakes are named with their key and line")
    func mistakes() {
        #expect(problems("type = \"ddp\"").contains { $0.hasPrefix("t.toml:6: output[0].host: missing") })
        #expect(problems("type = \"opc\"\nhost = \"a b\"").contains { $0.contains("output[0].host: \"a b\" is not") })
        let e131 = problems("type = \"e131\"\nuniverse = 63990\npriority = 201\nsource_name = \"\(String(repeating: "x", count: 64))\"\nlisten = \"x\"")
        #expect(e131.contains { $0.contains("output[0].universe: 2048 LEDs take 13 universes; from 63990 they pass 63999") }, "\(e131)")
        #expect(e131.contains { $0.contains("output[0].priority") })
        #expect(e131.contains { $0.contains("output[0].source_name: at most 63 bytes") })
        #expect(e131.contains { $0.contains("output[0].listen: unknown key") })
        let artnet = problems("type = \"artnet\"\nhost = \"127.255.255.255\"\nuniverse = 32767\nmax_fps = 0")
        #expect(artnet.contains { $0.contains("pass port-address 32767") }, "\(artnet)")
        #expect(artnet.contains { $0.contains("output[0].max_fps") })
        #expect(problems("type = \"ddp\"\nhost = \"127.0.0.2\"\nuniverse = 3").contains { $0.contains("universe: unknown key") })
        #expect(problems("type = \"opc\"\nhost = \"::1\"", width: 256, height: 128).contains { $0.contains("more than one OPC message") })
        #expect(problems("type = \"e131\"\nhost = \"127.0.0.2\"\nsync_universe = 20\nchannels_per_universe = 510").isEmpty)
    }
}
