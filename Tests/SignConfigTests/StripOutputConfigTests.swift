import Foundation
import SignGraphics
import SignOutput
import Testing

@testable import SignConfig

@Suite("Serial, DMX and SPI output configs")
struct StripOutputConfigTests {
    static func strip(_ example: String) throws -> StripOutputConfig {
        let config = try ConfigLoader.load(
            path: NetworkOutputConfigTests.root.appendingPathComponent("configs/examples/\(example)").path,
            fonts: NetworkOutputConfigTests.fonts)
        guard case .strip(let output) = config.outputs.first else { throw ConfigError(problems: []) }
        return output
    }

    func problems(_ output: String) -> [String] {
        configProblems(
            "[display]\nwidth = 64\nheight = 16\n[[layer]]\ntext = \"x\"\n[[output]]\nname = \"s\"\n\(output)")
    }

    @Test("the examples: each type with its own keys and the panels and colour keys of any LED output")
    func examples() throws {
        let adalight = try Self.strip("adalight.toml")
        #expect(adalight.wire == .serial(.adalight, baud: 115_200) && adalight.maxFPS == 14)
        #expect(adalight.device == "usb-1a86_USB_Serial-if00-port0" && adalight.panels[0].strip == .columns)
        #expect(try Self.strip("awa.toml").wire == .serial(.awa, baud: 2_000_000))
        #expect(try Self.strip("tpm2.toml").wire == .serial(.tpm2, baud: 1_000_000))
        let dmx = try Self.strip("dmx-usb-pro.toml")
        #expect(dmx.wire == .dmxUSBPro(channels: 512, startChannel: 1) && !dmx.dithering)
        let apa = try Self.strip("apa102-spi.toml")
        #expect(apa.wire == .spi(.apa102, speedHz: 4_000_000, order: "BGR") && apa.correction.brightness == 0.3)
        #expect(try Self.strip("ws2812-spi.toml").wire == .spi(.ws2812, speedHz: 2_400_000, order: "GRB"))
    }

    @Test(
        "defaults: AWA at 2,000,000 baud, the others at 115,200; a whole universe from channel 1; each chip's clock and order"
    )
    func defaults() {
        #expect(problems("type = \"serial\"\nprotocol = \"awa\"\ndevice = \"/dev/ttyACM0\"").isEmpty)
        #expect(StripOutputConfig.SerialProtocol.awa.defaultBaud == 2_000_000)
        #expect(StripOutputConfig.SerialProtocol.tpm2.defaultBaud == 115_200)
        #expect(StripOutputConfig.SPIChip.ws2812.defaultSpeed == 2_400_000)
        #expect(StripOutputConfig.SPIChip.sk9822.defaultOrder == "BGR")
    }

    @Test("mistakes are named with their key and line")
    func mistakes() {
        #expect(
            problems("type = \"serial\"\ndevice = \"/dev/ttyUSB0\"").contains {
                $0.contains("output[0].protocol: missing")
            })
        #expect(
            problems("type = \"serial\"\nprotocol = \"ada\"\ndevice = \"/dev/ttyUSB0\"").contains {
                $0.hasPrefix("t.toml:9: output[0].protocol: \"ada\" is not one of")
            })
        #expect(
            problems("type = \"serial\"\nprotocol = \"tpm2\"").contains { $0.contains("output[0].device: missing") })
        #expect(
            problems("type = \"serial\"\nprotocol = \"tpm2\"\ndevice = \"/dev/x\"\nbaud = 10").contains {
                $0.contains("output[0].baud: 10 is out of range")
            })
        let spi = problems(
            "type = \"spi\"\nchip = \"ws2812\"\ndevice = \"spidev0.0\"\nspeed_hz = 8000000\norder = \"RGBW\"")
        #expect(spi.contains { $0.contains("output[0].device: \"spidev0.0\" is not a path") })
        #expect(spi.contains { $0.contains("output[0].speed_hz: 8000000 Hz makes no WS2812 timing") })
        #expect(spi.contains { $0.contains("output[0].order: \"RGBW\" is not a colour order") })
        #expect(
            problems("type = \"spi\"\ndevice = \"/dev/spidev0.0\"").contains { $0.contains("output[0].chip: missing") })
        // 64x16 = 1024 LEDs: 3072 channels, more than a universe.
        #expect(
            problems("type = \"dmx-usb-pro\"\ndevice = \"/dev/ttyUSB0\"").contains {
                $0.contains(
                    "output[0].start_channel: 1024 LEDs take 3072 channels; from channel 1 they pass the last of 512")
            })
        #expect(
            problems("type = \"dmx-usb-pro\"\ndevice = \"/dev/x\"\nchannels = 12").contains {
                $0.contains("output[0].channels: 12 is out of range 24...512")
            })
        #expect(
            problems("type = \"serial\"\nprotocol = \"tpm2\"\ndevice = \"/dev/x\"\nhost = \"a\"").contains {
                $0.contains("output[0].host")
            })
    }

    @Test("a TPM2 frame carries at most 21845 LEDs")
    func tpm2Limit() {
        let big = configProblems(
            "[display]\nwidth = 256\nheight = 128\n[[layer]]\ntext = \"x\"\n[[output]]\nname = \"s\"\ntype = \"serial\"\nprotocol = \"tpm2\"\ndevice = \"/dev/x\""
        )
        #expect(big.contains { $0.contains("32768 LEDs are more than one tpm2 frame carries (21845)") })
    }
}
