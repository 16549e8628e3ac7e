import SignOutput

/// An LED strip or a DMX universe on a cable from this computer, as configured
/// (docs/configuration.md, "Serial, DMX and SPI outputs"): a microcontroller on a USB serial
/// port (Adalight, AWA, TPM2), an Enttec DMX USB Pro, or a strip on an SPI device.
public struct StripOutputConfig: Sendable, Equatable {
    /// A serial protocol, as `protocol` names it.
    public enum SerialProtocol: String, Sendable, CaseIterable {
        case adalight, awa, tpm2

        /// The speed the protocol's firmwares listen at unless told otherwise.
        public var defaultBaud: Int { self == .awa ? 2_000_000 : 115_200 }
    }

    /// An SPI LED chip, as `chip` names it.
    public enum SPIChip: String, Sendable, CaseIterable {
        case apa102, sk9822, ws2812

        /// The SPI clock unless `speed_hz` says otherwise.
        public var defaultSpeed: Int { self == .ws2812 ? 2_400_000 : 4_000_000 }
        /// The order of the colour bytes on the wire unless `order` says otherwise.
        public var defaultOrder: String { self == .ws2812 ? "GRB" : "BGR" }
    }

    /// The kind of output, with its own settings.
    public enum Wire: Sendable, Equatable {
        /// `type = "serial"`.
        case serial(SerialProtocol, baud: Int)
        /// `type = "dmx-usb-pro"`: one universe of `channels`, the LEDs from `startChannel`.
        case dmxUSBPro(channels: Int, startChannel: Int)
        /// `type = "spi"`.
        case spi(SPIChip, speedHz: Int, order: String)

        /// The output's `type`.
        public var type: String {
            switch self {
            case .serial: return "serial"
            case .dmxUSBPro: return "dmx-usb-pro"
            case .spi: return "spi"
            }
        }
    }

    /// The `type`s this struct is read from.
    public static let types = ["serial", "dmx-usb-pro", "spi"]

    public var name: String
    public var wire: Wire
    /// A path (`/dev/ttyACM0`, `/dev/spidev0.0`) or, for a serial port, a /dev/serial/by-id/ name.
    public var device: String
    public var maxFPS: Double?
    /// Empty: the whole display, rows left to right from the top.
    public var panels: [Panel] = []
    public var correction = ColorCorrection()
    public var dithering = true

    public init(name: String, wire: Wire, device: String) {
        self.name = name
        self.wire = wire
        self.device = device
    }

    /// The panels in effect for a display of `width` x `height`.
    public func effectivePanels(width: Int, height: Int) -> [Panel] {
        panels.isEmpty ? [Panel(width: width, height: height)] : panels
    }

    /// LEDs on the strip: up to the last panel's end.
    public func ledCount(width: Int, height: Int) -> Int {
        effectivePanels(width: width, height: height).map { $0.firstLED + $0.ledCount }.max() ?? 0
    }
}
