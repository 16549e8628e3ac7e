import SignOutput

/// Reads `[[output]]` tables: the shm framebuffer, the USB LED controllers and the network
/// ones (NetworkOutputConfigReader.swift), and the serial, DMX and SPI strips
/// (StripOutputConfigReader.swift).
extension ConfigLoader {
    static let outputTypes = ["shm", "fadecandy", "framework", "bulk"] + NetworkOutputConfig.Wire.allCases.map(\.rawValue)
        + StripOutputConfig.types

    static func readOutputs(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        var names = Set<String>()
        for (i, t) in r.tables(root, "output", at: "").enumerated() {
            let path = "output[\(i)]"
            let known = outputTypes.map { "\"\($0)\"" }.joined(separator: ", ")
            guard let type = r.string(t, "type", at: path) else {
                r.problem("\(path).type", "missing: the kind of output (\(known))")
                continue
            }
            guard outputTypes.contains(type) else {
                r.problem("\(path).type", "\"\(type)\" is not a known output type (\(known))")
                continue
            }
            guard let name = r.string(t, "name", at: path) else {
                r.problem("\(path).name", "missing: the output's name (shm outputs: /dev/shm/signd.<name>)")
                continue
            }
            let allowed = name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
            if name.isEmpty || name.count > 64 || !allowed {
                r.problem("\(path).name", "\"\(name)\" must be 1 to 64 letters, digits, '-' or '_'")
            } else if !names.insert(name).inserted {
                r.problem("\(path).name", "another output is already named \"\(name)\"")
            }
            if type == "shm" {
                r.rejectUnknownKeys(t, at: path, allowed: ["type", "name", "mode", "group"])
                let mode = r.int(t, "mode", at: path, in: 0...0o777).map(UInt32.init) ?? 0o640
                config.outputs.append(.sharedMemory(name: name, mode: mode, group: r.string(t, "group", at: path)))
            } else if let wire = NetworkOutputConfig.Wire(rawValue: type) {
                if let network = readNetworkOutput(t, wire: wire, name: name, at: path, display: config.display, &r) {
                    config.outputs.append(.network(network))
                }
            } else if StripOutputConfig.types.contains(type) {
                if let strip = readStripOutput(t, type: type, name: name, at: path, display: config.display, &r) {
                    config.outputs.append(.strip(strip))
                }
            } else if let usb = readUSBOutput(t, type: type, name: name, at: path, &r) {
                config.outputs.append(.usb(usb))
            }
        }
    }

    private static func readUSBOutput(
        _ t: ConfigTable, type: String, name: String, at path: String, _ r: inout ConfigReader
    ) -> USBOutputConfig? {
        var keys: Set<String> = ["type", "name", "serial", "brightness", "gamma", "white_point", "dithering", "panel"]
        switch type {
        case "fadecandy": keys.formUnion(["interpolation"])
        case "bulk":
            keys.formUnion(["vid", "pid", "interface", "endpoint", "order", "header", "footer", "packet_size", "leds"])
        default: break
        }
        r.rejectUnknownKeys(t, at: path, allowed: keys)

        let correction = readCorrection(t, at: path, gamma: type == "fadecandy" ? 2.5 : 2.2, &r)
        let dithering = r.bool(t, "dithering", at: path) ?? true
        let device: USBOutputConfig.Device
        var ledCount: Int?
        switch type {
        case "fadecandy":
            device = .fadecandy(dithering: dithering, interpolation: r.bool(t, "interpolation", at: path) ?? true)
        case "framework":
            device = .framework
        default:
            guard let vid = r.int(t, "vid", at: path, in: 0...0xffff),
                let pid = r.int(t, "pid", at: path, in: 0...0xffff)
            else {
                if t["vid"] == nil || t["pid"] == nil {
                    r.problem(path, "a bulk output needs vid and pid (e.g. vid = 0x1209, pid = 0x0001)")
                }
                return nil
            }
            let order = (r.string(t, "order", at: path) ?? "RGB").uppercased()
            if !BulkPanelDevice.orders.contains(order) {
                r.problem(
                    "\(path).order",
                    "\"\(order)\" is not a pixel order (\(BulkPanelDevice.orders.joined(separator: ", ")))")
            }
            let endpoint = r.int(t, "endpoint", at: path, in: 1...15) ?? 1
            ledCount = r.int(t, "leds", at: path, in: 1...65536)
            device = .bulk(
                vendorID: UInt16(vid), productID: UInt16(pid),
                interface: Int32(r.int(t, "interface", at: path, in: 0...255) ?? 0),
                endpoint: UInt8(endpoint), order: order, header: readBytes(t, "header", at: path, &r),
                footer: readBytes(t, "footer", at: path, &r),
                packetSize: r.int(t, "packet_size", at: path, in: 0...65536) ?? 64)
        }
        var output = USBOutputConfig(name: name, device: device, correction: correction)
        output.serial = r.string(t, "serial", at: path)
        output.dithering = dithering
        output.ledCount = ledCount
        output.panels = readPanels(t, at: path, &r)
        return output
    }

    /// The colour keys every LED output has: `gamma` (an exponent or "cie1931"),
    /// `brightness` and `white_point`.
    static func readCorrection(_ t: ConfigTable, at path: String, gamma: Double, _ r: inout ConfigReader)
        -> ColorCorrection
    {
        var correction = ColorCorrection(curve: .exponent(gamma))
        if let value = t["gamma"] {
            if value.string == "cie1931" {
                correction.curve = .cie1931
            } else if let e = r.number(t, "gamma", at: path, in: 0.1...5) {
                correction.curve = .exponent(e)
            } else if value.string != nil {
                r.problem("\(path).gamma", "expected an exponent from 0.1 to 5 or \"cie1931\"")
            }
        }
        correction.brightness = r.number(t, "brightness", at: path, in: 0...1) ?? 1
        if let value = t["white_point"] {
            let gains = value.array.map { $0.map { $0.double ?? $0.int.map(Double.init) ?? -1 } } ?? []
            if gains.count == 3, gains.allSatisfy({ (0...1).contains($0) }) {
                correction.whitePoint = gains
            } else {
                r.problem("\(path).white_point", "expected three gains from 0 to 1, e.g. [1.0, 0.9, 0.8]")
            }
        }
        return correction
    }

    /// The `[[panel]]` tables under an output (or a stream layer), each starting where the
    /// one before ended unless it says `first`.
    static func readPanels(_ t: ConfigTable, at path: String, _ r: inout ConfigReader) -> [Panel] {
        var panels: [Panel] = []
        for (j, p) in r.tables(t, "panel", at: path).enumerated() {
            if let panel = readPanel(
                p, at: "\(path).panel[\(j)]", previousEnd: panels.last.map { $0.firstLED + $0.ledCount } ?? 0, &r
            ) {
                panels.append(panel)
            }
        }
        return panels
    }

    /// Bytes as a hex string ("AA 55 01") or an array of integers.
    private static func readBytes(_ t: ConfigTable, _ key: String, at path: String, _ r: inout ConfigReader) -> [UInt8]
    {
        guard let value = t[key] else { return [] }
        if let text = value.string {
            let digits = text.filter { !$0.isWhitespace }
            var bytes: [UInt8] = []
            var index = digits.startIndex
            while index < digits.endIndex {
                let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex) ?? digits.endIndex
                guard let byte = UInt8(digits[index..<next], radix: 16), digits.distance(from: index, to: next) == 2
                else {
                    r.problem("\(path).\(key)", "\"\(text)\" is not hex bytes (e.g. \"AA 55\")")
                    return []
                }
                bytes.append(byte)
                index = next
            }
            return bytes
        }
        if let array = value.array {
            let bytes = array.compactMap { $0.int.flatMap { (0...255).contains($0) ? UInt8($0) : nil } }
            if bytes.count == array.count { return bytes }
        }
        r.problem("\(path).\(key)", "expected hex bytes (\"AA 55\") or an array of integers 0 to 255")
        return []
    }

    private static func readPanel(_ t: ConfigTable, at path: String, previousEnd: Int, _ r: inout ConfigReader)
        -> Panel?
    {
        r.rejectUnknownKeys(
            t, at: path,
            allowed: ["x", "y", "width", "height", "strip", "serpentine", "start", "rotate", "mirror", "first"])
        guard let width = r.int(t, "width", at: path, in: 1...4096),
            let height = r.int(t, "height", at: path, in: 1...4096)
        else {
            if t["width"] == nil || t["height"] == nil {
                r.problem(path, "a panel needs width and height (in frame pixels)")
            }
            return nil
        }
        var panel = Panel(width: width, height: height)
        panel.x = r.int(t, "x", at: path, in: -4096...4096) ?? 0
        panel.y = r.int(t, "y", at: path, in: -4096...4096) ?? 0
        panel.strip = r.choice(t, "strip", at: path) ?? .rows
        panel.serpentine = r.bool(t, "serpentine", at: path) ?? false
        panel.start = r.choice(t, "start", at: path) ?? .topLeft
        panel.mirror = r.choice(t, "mirror", at: path) ?? Panel.Mirror.none
        if let rotation = r.int(t, "rotate", at: path, in: 0...270) {
            if rotation % 90 == 0 {
                panel.rotation = rotation
            } else {
                r.problem("\(path).rotate", "\(rotation) is not 0, 90, 180 or 270")
            }
        }
        panel.firstLED = r.int(t, "first", at: path, in: 0...65535) ?? previousEnd
        return panel
    }
}
