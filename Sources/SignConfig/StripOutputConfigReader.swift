import SignOutput

/// Reads `[[output]]` tables of type `serial`, `dmx-usb-pro` and `spi` (docs/configuration.md,
/// "Serial, DMX and SPI outputs"): each one's own keys, then the colour keys and panels every
/// LED output has.
extension ConfigLoader {
    static func readStripOutput(
        _ t: ConfigTable, type: String, name: String, at path: String, display: DaemonConfig.Display,
        _ r: inout ConfigReader
    ) -> StripOutputConfig? {
        var keys: Set<String> = [
            "type", "name", "device", "max_fps", "brightness", "gamma", "white_point", "dithering", "panel",
        ]
        switch type {
        case "serial": keys.formUnion(["protocol", "baud"])
        case "dmx-usb-pro": keys.formUnion(["channels", "start_channel"])
        default: keys.formUnion(["chip", "speed_hz", "order"])
        }
        r.rejectUnknownKeys(t, at: path, allowed: keys)
        let device = r.string(t, "device", at: path)
        if device == nil {
            let example =
                type == "spi" ? "/dev/spidev0.0" : "/dev/ttyUSB0\", or a name in /dev/serial/by-id/"
            r.problem("\(path).device", "missing: the port (e.g. device = \"\(example))")
        } else if let device, device.isEmpty || device.utf8.count > 4096 || device.contains("\0") {
            r.problem("\(path).device", "\"\(device)\" is not a device path")
        } else if let device, type == "spi", !device.hasPrefix("/") {
            r.problem("\(path).device", "\"\(device)\" is not a path (e.g. /dev/spidev0.0)")
        }

        let leds = readPanels(t, at: path, &r)
        let count = leds.isEmpty ? display.width * display.height : leds.map { $0.firstLED + $0.ledCount }.max() ?? 0
        let wire: StripOutputConfig.Wire
        switch type {
        case "serial":
            guard t["protocol"] != nil else {
                r.problem("\(path).protocol", "missing: \"adalight\", \"awa\" or \"tpm2\"")
                return nil
            }
            guard let proto: StripOutputConfig.SerialProtocol = r.choice(t, "protocol", at: path) else { return nil }
            let baud = r.int(t, "baud", at: path, in: 50...20_000_000) ?? proto.defaultBaud
            wire = .serial(proto, baud: baud)
            let most = proto == .tpm2 ? TPM2.maxData / 3 : Adalight.maxLEDs
            if count > most {
                r.problem("\(path).panel", "\(count) LEDs are more than one \(proto.rawValue) frame carries (\(most))")
            }
        case "dmx-usb-pro":
            let channels =
                r.int(t, "channels", at: path, in: EnttecDMXUSBPro.channelRange)
                ?? EnttecDMXUSBPro.channelRange.upperBound
            let start = r.int(t, "start_channel", at: path, in: 1...512) ?? 1
            if start - 1 + count * 3 > channels {
                r.problem(
                    "\(path).start_channel",
                    "\(count) LEDs take \(count * 3) channels; from channel \(start) they pass the last of \(channels)")
            }
            wire = .dmxUSBPro(channels: channels, startChannel: start)
        default:
            guard t["chip"] != nil else {
                r.problem("\(path).chip", "missing: \"apa102\", \"sk9822\" or \"ws2812\"")
                return nil
            }
            guard let chip: StripOutputConfig.SPIChip = r.choice(t, "chip", at: path) else { return nil }
            let speed = r.int(t, "speed_hz", at: path, in: 10_000...50_000_000) ?? chip.defaultSpeed
            if chip == .ws2812, WS2812SPIFrame(speedHz: speed) == nil {
                r.problem(
                    "\(path).speed_hz",
                    "\(speed) Hz makes no WS2812 timing: use 2100000 to 2900000 (3 SPI bits a bit, 2400000 is usual) or 3000000 to 3400000 (4 bits)"
                )
            }
            let order = (r.string(t, "order", at: path) ?? chip.defaultOrder).uppercased()
            if ColourOrder(order) == nil {
                r.problem(
                    "\(path).order", "\"\(order)\" is not a colour order (\(ColourOrder.names.joined(separator: ", ")))"
                )
            }
            if count > 65536 { r.problem("\(path).panel", "\(count) LEDs are more than an SPI output drives (65536)") }
            wire = .spi(chip, speedHz: speed, order: order)
        }
        guard let device else { return nil }
        var output = StripOutputConfig(name: name, wire: wire, device: device)
        output.maxFPS = r.number(t, "max_fps", at: path, in: 1...1000)
        output.correction = readCorrection(t, at: path, gamma: 2.2, &r)
        output.dithering = r.bool(t, "dithering", at: path) ?? true
        output.panels = leds
        return output
    }
}
