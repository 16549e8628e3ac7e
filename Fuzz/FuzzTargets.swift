import Foundation
import NIOCore
import NIOEmbedded
import SignConfig
import SignControl
import SignDaemon
import SignGraphics
import SignScene
import SignWire

/// What signd reads from outside, one entry each: every input must come back as a value or
/// as an error, never as a trap, an abort or a hang. libFuzzer drives them (`make fuzz`); a
/// plain build replays files through them (`signd-fuzz TARGET FILE...`), which is how the
/// corpus and every crash once found run in CI.
enum FuzzTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "request": request,
        "framing": framing,
        "config": config,
        "markup": markup,
        "png": png,
        "image": image,
        "wire": wire,
    ]

    /// A control request line, as every transport decodes it.
    static func request(_ data: [UInt8]) {
        if let request = try? Request(line: data) {
            // What decodes must encode and decode to the same request. A whole number
            // written as a double (1.3e17) comes back as an integer: the same number, so
            // the two are compared as JSON with every number a double.
            guard let again = try? Request(line: Array(request.line.utf8)),
                again == request || numbersAsDoubles(again.line) == numbersAsDoubles(request.line)
            else {
                fatalError("a request did not survive its own encoding: \(request.line)")
            }
        }
    }

    /// A JSON line's value with each integer made a double.
    static func numbersAsDoubles(_ line: String) -> JSONValue? {
        func normal(_ v: JSONValue) -> JSONValue {
            switch v {
            case .int(let i): return .double(Double(i))
            case .array(let a): return .array(a.map(normal))
            case .object(let o): return .object(o.mapValues(normal))
            default: return v
            }
        }
        return (try? JSONValue.parse(Array(line.utf8))).map(normal)
    }

    /// The socket's framing: the bytes in arbitrary chunks through the line decoder, each
    /// line decoded as a request.
    static func framing(_ data: [UInt8]) {
        let channel = EmbeddedChannel()
        try! channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(maxLength: 4096)))
        var offset = 0
        var chunk = 1
        while offset < data.count {
            let end = min(data.count, offset + chunk)
            _ = try? channel.writeInbound(channel.allocator.buffer(bytes: data[offset..<end]))
            offset = end
            chunk = Int(data[offset - 1] % 17) + 1
        }
        _ = try? channel.finish()
        while let frame = try? channel.readInbound(as: LineFrameDecoder.Frame.self) {
            if case .line(let line) = frame { _ = try? Request(line: line.readableBytesView) }
        }
    }

    /// A config file's text, read and checked as `signd check-config` does (without fonts).
    static func config(_ data: [UInt8]) {
        _ = try? ConfigLoader.parse(String(decoding: data, as: UTF8.self), file: "fuzz.toml", fonts: nil)
    }

    static let fonts = try! FontLibrary()

    static let fieldValues = LiveFields.Values(
        timeZone: TimeZone(identifier: "Europe/Berlin")!, variables: ["track": "{#ff0000}x{{", "t": "21 C"])

    /// Text markup and live fields, checked, expanded (at an instant the bytes choose) and laid
    /// out as a set-text's would be; an expansion is never longer than the limit.
    static func markup(_ data: [UInt8]) {
        let text = String(decoding: data.prefix(512), as: UTF8.self)
        _ = LiveFields.problems(in: text)
        _ = LiveFields.granularity(of: text)
        let seconds = data.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let expanded = LiveFields.expand(text, at: Date(timeIntervalSince1970: Double(seconds) * 0.5), fieldValues)
        precondition(expanded.unicodeScalars.count <= LiveFields.maxExpandedLength)
        _ = RichText.parse(expanded)
        _ = try? TextRaster(TextContent(text: expanded), fonts: fonts)
    }

    /// A PNG file, decoded as an image layer's, a mask's or an icon's.
    static func png(_ data: [UInt8]) {
        _ = try? PNGImage.readImage(bytes: data, name: "fuzz.png")
    }

    /// An image file of any format signd reads (PNG, GIF, WebP, told apart by content), decoded
    /// as an image layer's or an icon's: every frame within the limits, or an error.
    static func image(_ data: [UInt8]) {
        guard let image = try? ImageFile.decode(data, name: "fuzz") else { return }
        precondition(image.frames.count <= AnimatedImage.maxFrames)
        precondition(image.frames.count * image.width * image.height <= AnimatedImage.maxDecodedPixels)
    }

    /// A datagram or stream chunk as each LED network protocol's parser reads it; what parses
    /// must lie inside the datagram. Then twice into a stream layer's assembler of each
    /// protocol.
    static func wire(_ data: [UInt8]) {
        data.withUnsafeBytes { d in
            if let (_, range) = try? DDP.parse(d) { precondition(range.upperBound <= d.count) }
            if case .data(let packet)? = try? E131.parse(d) { precondition(packet.slots.upperBound <= d.count) }
            if case .dmx(let dmx)? = try? ArtNet.parse(d) { precondition(dmx.data.upperBound <= d.count) }
            if let (message, length) = OPC.next(in: d) {
                precondition(message.data.upperBound <= d.count && length <= d.count)
            }
            // And as a stream layer takes it: placed, counted, never written past its frame.
            for wire in StreamAssembler.Wire.allCases {
                var assembler = StreamAssembler(wire: wire, pixelCount: 200, firstUniverse: wire == .e131 ? 1 : 0)
                _ = assembler.take(d, now: 1)
                _ = assembler.take(d, now: 2)
                precondition(assembler.pixels.count == 600 && assembler.counters.packets == 2)
            }
        }
    }
}
