import SignOutput
import SignWire

/// Reads `[[output]]` tables of type `ddp`, `e131`, `artnet`, `opc`, `flaschen-taschen` and `colorlight` (docs/configuration.md,
/// "Network outputs"): each protocol's own keys, then the colour keys and panels a USB output has.
extension ConfigLoader {
    static func readNetworkOutput(
        _ t: ConfigTable, wire: NetworkOutputConfig.Wire, name: String, at path: String,
        display: DaemonConfig.Display, _ r: inout ConfigReader
    ) -> NetworkOutputConfig? {
        var keys: Set<String> = [
            "type", "name", "host", "port", "max_fps", "brightness", "gamma", "white_point", "dithering", "panel",
        ]
        if wire == .colorlight { keys.subtract(["host", "port"]) }
        switch wire {
        case .ddp: break
        case .e131: keys.formUnion(["universe", "channels_per_universe", "priority", "sync_universe", "ttl", "source_name"])
        case .artnet: keys.formUnion(["universe", "channels_per_universe", "artsync"])
        case .opc: keys.formUnion(["universe"])
        case .flaschenTaschen: keys.formUnion(["width", "x", "y", "layer"])
        case .colorlight: keys.formUnion(["interface", "width"])
        }
        r.rejectUnknownKeys(t, at: path, allowed: keys)
        var output = NetworkOutputConfig(name: name, wire: wire)
        output.host = r.string(t, "host", at: path)
        if let host = output.host, host.isEmpty || host.utf8.count > 253 || host.contains(where: { $0.isWhitespace }) {
            r.problem("\(path).host", "\"\(host)\" is not a host name or address")
        } else if output.host == nil && wire != .e131 && wire != .colorlight {
            r.problem(
                "\(path).host",
                "missing: the controller's address (e.g. host = \"192.168.1.50\")\(wire == .artnet ? "; a broadcast address such as 192.168.1.255 is allowed" : "")"
            )
        }
        if let port = r.int(t, "port", at: path, in: 1...65535) { output.port = UInt16(port) }
        switch wire {
        case .ddp: break
        case .e131:
            output.universe = r.int(t, "universe", at: path, in: Int(E131.universes.lowerBound)...Int(E131.universes.upperBound)) ?? 1
            output.priority = r.int(t, "priority", at: path, in: 0...200) ?? 100
            output.syncUniverse = r.int(t, "sync_universe", at: path, in: 0...Int(E131.universes.upperBound)) ?? 0
            output.ttl = r.int(t, "ttl", at: path, in: 1...255) ?? 1
            if let source = r.string(t, "source_name", at: path) {
                if source.utf8.count > 63 || source.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                    r.problem("\(path).source_name", "at most 63 bytes of UTF-8, without control characters")
                } else {
                    output.sourceName = source
                }
            }
        case .artnet:
            output.universe = r.int(t, "universe", at: path, in: 0...Int(ArtNet.maxPortAddress)) ?? 0
            output.artSync = r.bool(t, "artsync", at: path) ?? false
        case .opc:
            output.universe = r.int(t, "universe", at: path, in: 0...255) ?? 0
        case .flaschenTaschen:
            output.pictureWidth = r.int(t, "width", at: path, in: 1...4096) ?? display.width
            output.offsetX = r.int(t, "x", at: path, in: -4096...4096) ?? 0
            output.offsetY = r.int(t, "y", at: path, in: -4096...4096) ?? 0
            output.layer = r.int(t, "layer", at: path, in: FlaschenTaschen.layers) ?? 0
        case .colorlight:
            output.pictureWidth = r.int(t, "width", at: path, in: 1...4096) ?? display.width
            if let interface = r.string(t, "interface", at: path) {
                if interface.isEmpty || interface.utf8.count > 15 || interface.contains(where: { $0.isWhitespace || $0 == "/" }) {
                    r.problem("\(path).interface", "\"\(interface)\" is not a network interface name (e.g. \"eth1\")")
                } else {
                    output.interface = interface
                }
            } else {
                r.problem("\(path).interface", "missing: the network interface the card is cabled to (e.g. interface = \"eth1\")")
            }
        }
        if wire == .e131 || wire == .artnet {
            output.channelsPerUniverse = r.int(t, "channels_per_universe", at: path, in: 3...512) ?? 510
        }
        output.maxFPS = r.number(t, "max_fps", at: path, in: 1...1000)
        output.correction = readCorrection(t, at: path, gamma: 2.2, &r)
        output.dithering = r.bool(t, "dithering", at: path) ?? true
        output.panels = readPanels(t, at: path, &r)

        // The frame must fit the protocol's numbering.
        let leds = output.ledCount(width: display.width, height: display.height)
        let perUniverse = max(1, output.channelsPerUniverse / 3)
        let universes = (leds + perUniverse - 1) / perUniverse
        switch wire {
        case .e131 where output.universe + universes - 1 > Int(E131.universes.upperBound):
            r.problem(
                "\(path).universe", "\(leds) LEDs take \(universes) universes; from \(output.universe) they pass 63999")
        case .artnet where output.universe + universes - 1 > Int(ArtNet.maxPortAddress):
            r.problem(
                "\(path).universe",
                "\(leds) LEDs take \(universes) universes; from \(output.universe) they pass port-address 32767")
        case .colorlight where (leds + max(1, output.pictureWidth) - 1) / max(1, output.pictureWidth) > Colorlight.maxRows:
            r.problem("\(path).width", "\(leds) LEDs in rows of \(output.pictureWidth) are more rows than the card numbers (65536)")
        case .opc where leds * 3 > OPC.maxData:
            r.problem("\(path).panel", "\(leds) LEDs are more than one OPC message carries (21845)")
        default: break
        }
        return output
    }
}
