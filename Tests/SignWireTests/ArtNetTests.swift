import Testing

@testable import SignWire

@Suite("Art-Net")
struct ArtNetTests {
    static func dmx(_ channels: [UInt8], port: UInt16, sequence: UInt8) -> [UInt8] {
        var packet: [UInt8] = []
        channels.withUnsafeBytes { ArtNet.writeDmx(portAddress: port, sequence: sequence, channels: $0, into: &packet) }
        return packet
    }

    @Test("ArtDmx: identifier, opcode low byte first, version 14, sequence, port-address, even length")
    func layout() {
        let packet = Self.dmx([1, 2, 3], port: 0x1234, sequence: 9)
        #expect(Array(packet[0..<18]) == Array("Art-Net".utf8) + [0, 0x00, 0x50, 0, 14, 9, 0, 0x34, 0x12, 0, 4])
        #expect(Array(packet[18...]) == [1, 2, 3, 0])
        var sync: [UInt8] = []
        ArtNet.writeSync(into: &sync)
        #expect(sync == Array("Art-Net".utf8) + [0, 0x00, 0x52, 0, 14, 0, 0])
    }

    @Test("stupidArtnet reads signd's ArtDmx, and signd reads stupidArtnet's")
    func peer() throws {
        let channels = (0..<510).map { UInt8($0 % 251) }
        let parsed = try Peer.parse("artnet", [Self.dmx(channels, port: 5, sequence: 200)])
        #expect(parsed[0]["kind"] as? String == "dmx")
        #expect(parsed[0]["port_address"] as? Int == 5 && parsed[0]["sequence"] as? Int == 200)
        #expect((parsed[0]["data"] as? [Int])?.map(UInt8.init) == channels)

        let built = try Peer.make("artnet", [["port_address": 3, "sequence": 17, "data": [9, 8, 7, 6]]])
        guard case .dmx(let dmx) = try built[0].withUnsafeBytes({ try ArtNet.parse($0) }) else {
            Issue.record("not an ArtDmx")
            return
        }
        #expect(dmx.portAddress == 3 && dmx.sequence == 17 && Array(built[0][dmx.data]) == [9, 8, 7, 6])
    }

    @Test("short, foreign and oversized packets are refused; ArtPoll is recognised and left alone")
    func refused() throws {
        func reason(_ bytes: [UInt8]) -> WireError.Reason? { refusal(bytes, ArtNet.parse) }
        let good = Self.dmx([1, 2], port: 1, sequence: 1)
        #expect(reason(Array(good.prefix(10))) == .short)
        #expect(reason(Array(good.prefix(19))) == .short)
        var foreign = good
        foreign[0] = UInt8(ascii: "X")
        #expect(reason(foreign) == .wrongVector)
        var big = good
        big[16] = 0x02
        big[17] = 0x02
        #expect(reason(big) == .oversized)
        let poll = Array("Art-Net".utf8) + [0, 0x00, 0x20, 0, 14, 0, 0]
        #expect(try poll.withUnsafeBytes { try ArtNet.parse($0) } == .other(opcode: 0x2000))
    }
}
