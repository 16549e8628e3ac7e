import Foundation
import SignWire
import Testing

@testable import SignOutput

/// FlaschenTaschen datagrams as Pillow's PPM reader decodes them (tools/wire-peer.py parse
/// flaschen-taschen), put back together from their tiles.
@Suite("FlaschenTaschen datagrams")
struct FlaschenTaschenFramerTests {
    /// Every datagram parsed by the peer: size, `#FT:` offset, footer, pixels.
    static func parse(_ datagrams: [[UInt8]]) throws -> [[String: Any]] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../tools/wire-peer.py").standardized.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "parse", "flaschen-taschen"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Written from another thread: the peer's answers fill its pipe while we write.
        let text = datagrams.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n") + "\n"
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try String(decoding: out, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    static func leds(_ count: Int) -> [UInt8] { (0..<count * 3).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 761) } }

    static func frame(_ framer: inout FlaschenTaschenFramer, _ leds: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        leds.withUnsafeBytes { framer.writeFrame($0) { datagram, destination in
            #expect(destination == 0)
            out.append(Array(datagram))
        } }
        return out
    }

    @Test("a 64x16 picture is one datagram Pillow decodes to the LEDs, #FT: offset and footer both x y layer")
    func oneDatagram() throws {
        var framer = FlaschenTaschenFramer(width: 64, ledCount: 1024, x: 3, y: 5, layer: 2)
        let leds = Self.leds(1024)
        let datagrams = Self.frame(&framer, leds)
        #expect(datagrams.count == 1)
        let parsed = try Self.parse(datagrams)
        let p = try #require(parsed.first)
        #expect(p["width"] as? Int == 64 && p["height"] as? Int == 16)
        #expect(p["offset"] as? [Int] == [3, 5, 2] && p["footer"] as? [Int] == [3, 5, 2])
        #expect(p["data"] as? String == leds.map { String(format: "%02x", $0) }.joined())
    }

    @Test(
        "a picture past 65,507 bytes goes as tiles of whole rows, each datagram within the limit, and they rebuild it",
        arguments: [(512, 128, 512 * 128), (300, 250, 300 * 250 - 7), (4096, 64, 4096 * 64)])
    func tiles(width: Int, height: Int, ledCount: Int) throws {
        var framer = FlaschenTaschenFramer(width: width, ledCount: ledCount, x: 10, y: 20, layer: 1)
        #expect(framer.height == height)
        let leds = Self.leds(ledCount)
        let datagrams = Self.frame(&framer, leds)
        #expect(datagrams.count > 1)
        #expect(datagrams.allSatisfy { $0.count <= FlaschenTaschen.maxDatagram })
        // No more tiles than the byte count needs, with one spare for the rounding to rows.
        #expect(datagrams.count <= width * height * 3 / (FlaschenTaschen.maxDatagram - 128) + 2)
        var picture = [UInt8](repeating: 0xee, count: width * height * 3)
        var covered = 0
        for p in try Self.parse(datagrams) {
            let offset = try #require(p["offset"] as? [Int])
            #expect(p["footer"] as? [Int] == offset && offset[2] == 1)
            let w = try #require(p["width"] as? Int), h = try #require(p["height"] as? Int)
            let x = offset[0] - 10, y = offset[1] - 20
            #expect(w == width && x == 0, "whole rows a tile")
            let data = Array(hex: try #require(p["data"] as? String))
            for row in 0..<h {
                let start = ((y + row) * width + x) * 3
                picture[start..<start + w * 3] = data[row * w * 3..<(row + 1) * w * 3]
            }
            covered += w * h
        }
        #expect(covered == width * height, "every pixel in exactly one tile")
        // LEDs past the last fill the final row black.
        #expect(Array(picture[0..<leds.count]) == leds)
        #expect(picture[leds.count...].allSatisfy { $0 == 0 })
    }

    @Test("the same tiles and headers every frame; the pixels are each frame's")
    func everyFrame() throws {
        var framer = FlaschenTaschenFramer(width: 256, ledCount: 256 * 128)
        let first = Self.frame(&framer, Self.leds(256 * 128))
        let second = Self.frame(&framer, [UInt8](repeating: 9, count: 256 * 128 * 3))
        #expect(first.count == 2 && second.count == 2)
        let parsed = try Self.parse(second)
        #expect(parsed.map { $0["offset"] as? [Int] } == [[0, 0, 0], [0, 85, 0]])
        #expect(parsed.allSatisfy { Array(hex: $0["data"] as? String ?? "").allSatisfy { $0 == 9 } })
    }
}

extension Array where Element == UInt8 {
    /// Bytes from the peer's lower-case hex.
    init(hex: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var iterator = hex.utf8.makeIterator()
        func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : c - 87 }
        while let hi = iterator.next(), let lo = iterator.next() { bytes.append(nibble(hi) << 4 | nibble(lo)) }
        self = bytes
    }
}
