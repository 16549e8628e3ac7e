import SignWire
import Testing

@testable import SignOutput

/// The Colorlight framer's packets byte by byte (the capture test in EndToEndTests reads
/// them off a veth pair with scapy).
@Suite("Colorlight 5A-75 packets")
struct ColorlightFramerTests {
    static func frame(_ framer: inout ColorlightFramer, _ leds: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        leds.withUnsafeBytes { framer.writeFrame($0) { packet, _ in out.append(Array(packet)) } }
        return out
    }

    @Test("brightness first, rows 0 to 299 in packets of 497 and 103 pixels (B G R), the display frame last")
    func layout() throws {
        var framer = ColorlightFramer(width: 600, ledCount: 600 * 300)
        let leds = (0..<600 * 300 * 3).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 / 1800) }
        let packets = Self.frame(&framer, leds)
        #expect(packets.count == 1 + 300 * 2 + 1 && framer.packetsPerFrame == 600)
        let mac = Colorlight.receiverMAC + Colorlight.senderMAC
        #expect(packets.allSatisfy { Array($0[0..<12]) == mac })
        let brightness = try #require(packets.first)
        #expect(brightness.count == 77 && Array(brightness[12..<17]) == [0x0A, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(brightness[17...].allSatisfy { $0 == 0 })
        let display = try #require(packets.last)
        #expect(display.count == 112 && display[12] == 0x01 && display[13] == 0x07)
        #expect(display[35] == 0xFF && display[36] == 0x05 && Array(display[38...40]) == [0xFF, 0xFF, 0xFF])
        for (i, p) in packets.dropFirst().dropLast().enumerated() {
            let row = i / 2, part = i % 2
            let count = part == 0 ? 497 : 103
            #expect(p[12] == 0x55 && Int(p[13]) == row >> 8 && Int(p[14]) == row & 0xff, "row \(row)")
            #expect(Int(p[15]) << 8 | Int(p[16]) == part * 497 && Int(p[17]) << 8 | Int(p[18]) == count)
            #expect(p[19] == 0x08 && p[20] == 0x88 && p.count == 21 + count * 3)
            for k in [0, count - 1] {
                let source = (row * 600 + part * 497 + k) * 3
                #expect(Array(p[21 + k * 3..<24 + k * 3]) == [leds[source + 2], leds[source + 1], leds[source]])
            }
        }
    }

    @Test("LEDs past the last fill the last row black")
    func padding() {
        var framer = ColorlightFramer(width: 64, ledCount: 64 * 2 + 10)
        let packets = Self.frame(&framer, [UInt8](repeating: 7, count: (64 * 2 + 10) * 3))
        #expect(framer.rows == 3 && packets.count == 5)
        let last = packets[3]
        #expect(last[14] == 2 && last[21..<21 + 30].allSatisfy { $0 == 7 } && last[(21 + 30)...].allSatisfy { $0 == 0 })
    }
}
