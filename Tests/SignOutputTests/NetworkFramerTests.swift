import SignGraphics
import SignWire
import Testing

@testable import SignOutput

/// What each network framer writes, read back with SignWire's parsers (which the wire tests
/// hold to the protocols' own Python packages).
@Suite("Network LED datagrams")
struct NetworkFramerTests {
    static func leds(_ count: Int) -> [UInt8] { (0..<count * 3).map { UInt8(truncatingIfNeeded: $0 * 7) } }

    static func frame<F: DatagramFramer>(_ framer: inout F, _ leds: [UInt8], goodbye: Bool = false) -> [(
        datagram: [UInt8], destination: Int
    )] {
        var out: [([UInt8], Int)] = []
        leds.withUnsafeBytes { bytes in
            if goodbye {
                // With the last frame's bytes, which the framer keeps.
                framer.writeGoodbye { out.append((Array($0), $1)) }
            } else {
                framer.writeFrame(bytes) { out.append((Array($0), $1)) }
            }
        }
        return out
    }

    @Test("DDP: 1024 LEDs are three packets at offsets 0, 1440, 2880; push on the last; one sequence a frame, 1 to 15")
    func ddp() throws {
        var framer = DDPFramer()
        let leds = Self.leds(1024)
        var sequences: [UInt8] = []
        for _ in 0..<16 {
            let packets = Self.frame(&framer, leds)
            #expect(packets.count == 3)
            var rebuilt = [UInt8](repeating: 0, count: leds.count)
            for (i, p) in packets.enumerated() {
                let (header, data) = try p.datagram.withUnsafeBytes { try DDP.parse($0) }
                #expect(header.offset == UInt32(i * 1440) && header.push == (i == 2))
                #expect(header.sequence == packets[0].datagram[1])
                rebuilt[Int(header.offset)..<Int(header.offset) + data.count] = p.datagram[data]
            }
            #expect(rebuilt == leds)
            sequences.append(packets[0].datagram[1])
        }
        #expect(sequences == Array(1...15) + [1])
    }

    @Test("E1.31: whole pixels a universe (170 of 510 channels), each universe's own sequence, then sync")
    func e131() throws {
        let source = E131.Source(cid: Array(0..<16), name: "shop window")
        var framer = E131Framer(
            source: source, firstUniverse: 5, priority: 150, syncUniverse: 9, multicast: true, ledCount: 1024)
        #expect(framer.universeCount == 7)
        #expect(framer.groups == [5, 6, 7, 8, 9, 10, 11, 9])
        let leds = Self.leds(1024)
        for round in 1...2 {
            let packets = Self.frame(&framer, leds)
            #expect(packets.count == 8)
            var rebuilt: [UInt8] = []
            for (i, p) in packets.prefix(7).enumerated() {
                guard case .data(let d) = try p.datagram.withUnsafeBytes({ try E131.parse($0) }) else {
                    Issue.record("packet \(i) is not data")
                    continue
                }
                #expect(p.destination == i && d.universe == UInt16(5 + i) && d.sequence == UInt8(round))
                #expect(d.priority == 150 && d.syncAddress == 9 && d.sourceName == "shop window" && d.cid == source.cid)
                #expect(p.datagram.count == E131.dataPacketSize)
                let used = i < 6 ? 510 : 1024 * 3 - 6 * 510
                rebuilt += p.datagram[d.slots].prefix(used)
                #expect(p.datagram[d.slots].dropFirst(used).allSatisfy { $0 == 0 }, "unused slots are 0")
            }
            #expect(rebuilt == leds)
            guard case .sync(let sync) = try packets[7].datagram.withUnsafeBytes({ try E131.parse($0) }) else {
                Issue.record("the last packet is not a sync packet")
                continue
            }
            #expect(sync.syncAddress == 9 && sync.sequence == UInt8(round) && packets[7].destination == 7)
        }
        let goodbye = Self.frame(&framer, leds, goodbye: true)
        #expect(goodbye.count == 21, "three stream-terminated packets a universe")
        for (i, p) in goodbye.enumerated() {
            guard case .data(let d) = try p.datagram.withUnsafeBytes({ try E131.parse($0) }) else { continue }
            #expect(d.options & E131.streamTerminated != 0)
            let used = i % 7 < 6 ? 510 : 1024 * 3 - 6 * 510
            #expect(Array(p.datagram[d.slots].prefix(used)) == Array(leds[i % 7 * 510..<i % 7 * 510 + used]), "the last frame's slots")
        }
    }

    @Test("E1.31 unicast without sync: one destination, no sync packet; 512 channels become 510")
    func e131Unicast() {
        var framer = E131Framer(
            source: E131.Source(cid: Array(repeating: 1, count: 16), name: "x"), firstUniverse: 1,
            channelsPerUniverse: 512, multicast: false, ledCount: 171)
        #expect(framer.groups.isEmpty && framer.channelsPerUniverse == 510 && framer.universeCount == 2)
        let packets = Self.frame(&framer, Self.leds(171))
        #expect(packets.count == 2 && packets.allSatisfy { $0.destination < 2 })
    }

    @Test("Art-Net: ArtDmx per universe from the first port-address, one sequence a frame skipping 0, then ArtSync")
    func artnet() throws {
        var framer = ArtNetFramer(firstPortAddress: 16, sync: true)
        let leds = Self.leds(1024)
        var sequences: [UInt8] = []
        for _ in 0..<256 {
            let packets = Self.frame(&framer, leds)
            #expect(packets.count == 8)
            guard case .dmx(let first) = try packets[0].datagram.withUnsafeBytes({ try ArtNet.parse($0) }) else {
                Issue.record("not ArtDmx")
                return
            }
            #expect(first.portAddress == 16)
            guard case .dmx(let last) = try packets[6].datagram.withUnsafeBytes({ try ArtNet.parse($0) }) else { return }
            #expect(last.portAddress == 22 && last.data.count == 1024 * 3 - 6 * 510)
            #expect(try packets[7].datagram.withUnsafeBytes { try ArtNet.parse($0) } == .sync)
            sequences.append(first.sequence)
        }
        #expect(sequences.first == 1 && sequences[254] == 255 && sequences[255] == 1)
    }

    @Test("a frame-rate cap lets through 40 of every 60 frames, never two dropped in a row")
    func frameRateCap() {
        let cap = FrameRateCap(maxFPS: 40, displayFPS: 60)
        let admitted = (1...600).map { cap.admits(UInt64($0)) }
        #expect(admitted.filter { $0 }.count == 400)
        #expect(!zip(admitted, admitted.dropFirst()).contains { !$0 && !$1 })
        #expect((1...100).allSatisfy { FrameRateCap(maxFPS: 60, displayFPS: 60).admits(UInt64($0)) })
        #expect((1...100).allSatisfy { FrameRateCap(maxFPS: nil, displayFPS: 30).admits(UInt64($0)) })
    }
}
