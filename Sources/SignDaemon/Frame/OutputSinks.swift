import Foundation
import SignConfig
import SignOutput
import SignWire

/// What a configured output becomes when the daemon opens it: a network output's sink, a
/// USB output's controller. The configs are SignConfig's values; the sinks run here.
extension NetworkOutputConfig {
    /// What a reload compares: an output whose config and display are unchanged keeps its
    /// socket, sequence numbers and counters.
    public func identity(width: Int, height: Int, fps: Double) -> String { "\(self) \(width)x\(height)@\(fps)" }

    /// The output's sink for a display of `width` x `height` at `fps`.
    public func sink(width: Int, height: Int, fps: Double, log: @escaping @Sendable (String) -> Void) -> any FrameSink {
        let panels = effectivePanels(width: width, height: height)
        let map = PixelMap(panels: panels, frameWidth: width, frameHeight: height)
        let pipeline = LEDPipeline(map: map, correction: correction, dithering: dithering)
        let cap = FrameRateCap(maxFPS: maxFPS, displayFPS: fps)
        let identity = identity(width: width, height: height, fps: fps)
        switch wire {
        case .ddp:
            return DatagramSink(
                name: name, identity: identity, framer: DDPFramer(), pipeline: pipeline, host: host, port: port,
                cap: cap, log: log)
        case .e131:
            let framer = E131Framer(
                source: E131.Source(cid: Self.componentID(name: name), name: sourceName),
                firstUniverse: UInt16(universe), channelsPerUniverse: channelsPerUniverse, priority: UInt8(priority),
                syncUniverse: UInt16(syncUniverse), multicast: host == nil, ledCount: map.ledCount)
            return DatagramSink(
                name: name, identity: identity, framer: framer, pipeline: pipeline, host: host, port: port,
                ttl: Int32(ttl), cap: cap, log: log)
        case .artnet:
            let framer = ArtNetFramer(
                firstPortAddress: UInt16(universe), channelsPerUniverse: channelsPerUniverse, sync: artSync)
            return DatagramSink(
                name: name, identity: identity, framer: framer, pipeline: pipeline, host: host, port: port, cap: cap,
                log: log)
        case .opc:
            return OPCSink(
                name: name, identity: identity, pipeline: pipeline, host: host ?? "127.0.0.1", port: port,
                channel: UInt8(universe), cap: cap, log: log)
        case .colorlight:
            let framer = ColorlightFramer(width: pictureWidth > 0 ? pictureWidth : width, ledCount: map.ledCount)
            return ColorlightSink(
                name: name, identity: identity, framer: framer, pipeline: pipeline, interface: interface, cap: cap,
                log: log)
        case .flaschenTaschen:
            let framer = FlaschenTaschenFramer(
                width: pictureWidth > 0 ? pictureWidth : width, ledCount: map.ledCount, x: offsetX, y: offsetY,
                layer: layer)
            return DatagramSink(
                name: name, identity: identity, framer: framer, pipeline: pipeline, host: host, port: port, cap: cap,
                log: log)
        }
    }

    /// A CID that stays the same for this machine and output name across restarts (E1.31
    /// receivers track sources by it): 128 bits hashed from /etc/machine-id (or the host
    /// name) and the name, marked as a UUID version 8.
    public static func componentID(name: String) -> [UInt8] {
        let machine =
            (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? ProcessInfo.processInfo.hostName
        let seed = Array("signd e131 \(machine) \(name)".utf8)
        var bytes: [UInt8] = []
        for salt: UInt64 in [0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4] {
            var hash = salt
            for byte in seed {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: hash >> (56 - 8 * $0)) }
        }
        bytes[6] = 0x80 | bytes[6] & 0x0f
        bytes[8] = 0x80 | bytes[8] & 0x3f
        return bytes
    }
}

extension USBOutputConfig {
    /// The controller that encodes frames of a `width` x `height` display for this device.
    public func controller(width: Int, height: Int) -> any LEDController {
        let panels = effectivePanels(width: width, height: height)
        switch device {
        case .fadecandy(let dithering, let interpolation):
            let map = PixelMap(
                panels: panels, frameWidth: width, frameHeight: height, ledCount: FadecandyDevice.ledCount)
            return FadecandyDevice(
                serial: serial, map: map, correction: correction, dithering: dithering, interpolation: interpolation)
        case .framework:
            let map = PixelMap(
                panels: panels, frameWidth: width, frameHeight: height,
                ledCount: FrameworkMatrixDevice.columns * FrameworkMatrixDevice.rows)
            var host = correction
            host.brightness = 1
            let level = UInt8((min(max(correction.brightness, 0), 1) * 255).rounded())
            return FrameworkMatrixDevice(
                serial: serial, map: map, correction: host, dithering: dithering, brightness: level)
        case .bulk(let vid, let pid, let interface, let endpoint, let order, let header, let footer, let packetSize):
            let map = PixelMap(panels: panels, frameWidth: width, frameHeight: height, ledCount: ledCount)
            return BulkPanelDevice(
                match: USBMatch(vendorID: vid, productID: pid, serial: serial), interface: interface,
                endpoint: endpoint,
                order: order, header: header, footer: footer, packetSize: packetSize, map: map, correction: correction,
                dithering: dithering)
        }
    }
}

extension StripOutputConfig {
    /// What a reload compares: an output whose config and display are unchanged keeps its
    /// open port and counters.
    public func identity(width: Int, height: Int, fps: Double) -> String { "\(self) \(width)x\(height)@\(fps)" }

    /// The output's sink for a display of `width` x `height` at `fps`.
    public func sink(width: Int, height: Int, fps: Double, log: @escaping @Sendable (String) -> Void) -> any FrameSink {
        let map = PixelMap(panels: effectivePanels(width: width, height: height), frameWidth: width, frameHeight: height)
        let pipeline = LEDPipeline(map: map, correction: correction, dithering: dithering)
        let cap = FrameRateCap(maxFPS: maxFPS, displayFPS: fps)
        let identity = identity(width: width, height: height, fps: fps)
        switch wire {
        case .serial(let proto, let baud):
            let framing: SerialSink.Framing =
                switch proto {
                case .adalight: .adalight
                case .awa: .awa
                case .tpm2: .tpm2
                }
            return SerialSink(
                name: name, kind: wire.type, identity: identity, pipeline: pipeline, framing: framing, device: device,
                baud: baud, cap: cap, log: log)
        case .dmxUSBPro(let channels, let startChannel):
            // The widget's FTDI chip ignores the host's baud rate; 57600 is what its API names.
            return SerialSink(
                name: name, kind: wire.type, identity: identity, pipeline: pipeline,
                framing: .enttecSendDMX(channels: channels, startChannel: startChannel), device: device, baud: 57600,
                cap: cap, log: log)
        case .spi(let chip, let speedHz, let order):
            var host = correction
            var brightness = 1.0
            if chip != .ws2812 {
                // APA102 and SK9822 dim in the LED's own 5-bit brightness (SPISink).
                brightness = correction.brightness
                host.brightness = 1
            }
            let pipeline = LEDPipeline(map: map, correction: host, dithering: dithering)
            let sinkChip: SPISink.Chip =
                switch chip {
                case .apa102: .apa102(.apa102)
                case .sk9822: .apa102(.sk9822)
                // The reader checked the clock; a clock without WS2812 timing never gets here.
                case .ws2812: .ws2812(WS2812SPIFrame(speedHz: speedHz) ?? WS2812SPIFrame(speedHz: 2_400_000)!)
                }
            return SPISink(
                name: name, identity: identity, pipeline: pipeline, chip: sinkChip, order: ColourOrder(order) ?? ColourOrder("RGB")!,
                device: device, speedHz: speedHz, brightness: brightness, cap: cap, log: log)
        }
    }
}
