import Testing

@testable import SignWire

@Suite("DDP")
struct DDPTests {
    /// A frame of `pixels` RGB pixels whose bytes count up.
    static func frame(pixels: Int) -> [UInt8] { (0..<pixels * 3).map { UInt8(truncatingIfNeeded: $0) } }

    static func packets(_ frame: [UInt8], sequence: UInt8) -> [[UInt8]] {
        frame.withUnsafeBytes { f in
            (0..<DDP.packetCount(frameBytes: f.count)).map { i in
                var packet: [UInt8] = []
                DDP.writePacket(i, of: f, sequence: sequence, into: &packet)
                return packet
            }
        }
    }

    @Test("a 32x8 frame is one packet: version 1, push, RGB 8-bit, display, offset 0, 768 bytes")
    func onePacket() {
        let packets = Self.packets(Self.frame(pixels: 256), sequence: 7)
        #expect(packets.count == 1)
        #expect(Array(packets[0][0..<10]) == [0x41, 0x07, 0x0B, 0x01, 0, 0, 0, 0, 0x03, 0x00])
        #expect(Array(packets[0][10...]) == Self.frame(pixels: 256))
    }

    @Test("a 128x32 frame is 480-pixel packets at rising offsets, push on the last only")
    func manyPackets() throws {
        let frame = Self.frame(pixels: 128 * 32)
        let packets = Self.packets(frame, sequence: 15)
        #expect(packets.count == 9)
        var joined: [UInt8] = []
        for (i, packet) in packets.enumerated() {
            let (header, data) = try packet.withUnsafeBytes { try DDP.parse($0) }
            #expect(Int(header.offset) == i * 1440)
            #expect(header.push == (i == packets.count - 1))
            #expect(header.sequence == 15)
            joined += packet[data]
        }
        #expect(joined == frame)
    }

    @Test("python-led-ddp reads what signd sends, field for field")
    func peerParses() throws {
        let frame = Self.frame(pixels: 600)
        let packets = Self.packets(frame, sequence: 3)
        let parsed = try Peer.parse("ddp", packets)
        #expect(parsed.count == 2)
        #expect(parsed.map { $0["version"] as? Int } == [1, 1])
        #expect(parsed.map { $0["push"] as? Bool } == [false, true])
        #expect(parsed.map { $0["sequence"] as? Int } == [3, 3])
        #expect(parsed.map { $0["offset"] as? Int } == [0, 1440])
        #expect(parsed.map { $0["pixel_config"] as? Int } == [0x0B, 0x0B])
        #expect(parsed.map { $0["id"] as? Int } == [1, 1])
        #expect(parsed.flatMap { ($0["data"] as? [Int]) ?? [] }.map(UInt8.init) == frame)
    }

    @Test("what python-led-ddp builds, signd reads")
    func peerBuilds() throws {
        let built = try Peer.make(
            "ddp",
            [
                ["push": false, "sequence": 1, "offset": 0, "data": [255, 0, 0, 0, 255, 0]],
                ["push": true, "sequence": 2, "offset": 6, "data": [0, 0, 255]],
            ])
        let parsed = try built.map { p in try p.withUnsafeBytes { try DDP.parse($0) } }
        #expect(parsed.map(\.header.push) == [false, true])
        #expect(parsed.map(\.header.sequence) == [1, 2])
        #expect(parsed.map(\.header.offset) == [0, 6])
        #expect(Array(built[1][parsed[1].data]) == [0, 0, 255])
    }

    @Test(
        "short, foreign and lying datagrams are refused with their reason",
        arguments: [
            ([0x41, 1, 0x0B, 1, 0, 0, 0, 0, 0], WireError.Reason.short),
            ([0x41, 1, 0x0B, 1, 0, 0, 0, 0, 0, 9, 1, 2], .short),
            ([0x81, 1, 0x0B, 1, 0, 0, 0, 0, 0, 0], .wrongVector),
            ([0x51, 1, 0x0B, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 2], .short),
        ] as [([UInt8], WireError.Reason)])
    func refused(bytes: [UInt8], reason: WireError.Reason) {
        #expect(refusal(bytes, DDP.parse) == reason)
    }
}
