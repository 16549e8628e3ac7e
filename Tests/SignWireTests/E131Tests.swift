import Testing

@testable import SignWire

@Suite("E1.31")
struct E131Tests {
    static let source = E131.Source(cid: Array(1...16), name: "signd on window-left")

    static func data(_ slots: [UInt8], universe: UInt16 = 7, sequence: UInt8 = 42, options: UInt8 = 0) -> [UInt8] {
        var packet: [UInt8] = []
        slots.withUnsafeBytes {
            E131.writeData(
                source: source, universe: universe, priority: 150, syncAddress: 9, sequence: sequence,
                options: options, slots: $0, into: &packet)
        }
        return packet
    }

    @Test("a data packet is 638 bytes: ACN root, E1.31 framing and DMP layers, 512 slots zero-padded")
    func layout() {
        let packet = Self.data([10, 20, 30])
        #expect(packet.count == 638)
        #expect(Array(packet[0..<16]) == [0x00, 0x10, 0x00, 0x00] + Array("ASC-E1.17".utf8) + [0, 0, 0])
        #expect(Array(packet[16..<22]) == [0x72, 0x6e, 0, 0, 0, 4])
        #expect(Array(packet[38..<44]) == [0x72, 0x58, 0, 0, 0, 2])
        #expect(Array(packet[108..<115]) == [150, 0, 9, 42, 0, 0, 7])
        #expect(Array(packet[115..<126]) == [0x72, 0x0b, 0x02, 0xa1, 0, 0, 0, 1, 0x02, 0x01, 0])
        #expect(Array(packet[126..<129]) == [10, 20, 30] && packet[129...].allSatisfy { $0 == 0 })
    }

    @Test("the sacn package reads signd's data and sync packets: universe, priority, sequence, CID, name, slots")
    func peerParses() throws {
        var sync: [UInt8] = []
        E131.writeSync(cid: Self.source.cid, sequence: 5, syncAddress: 9, into: &sync)
        let slots = (0..<510).map { UInt8($0 % 256) }
        let parsed = try Peer.parse("e131", [Self.data(slots, options: E131.streamTerminated), sync])
        #expect(parsed[0]["kind"] as? String == "data")
        #expect(parsed[0]["universe"] as? Int == 7 && parsed[0]["priority"] as? Int == 150)
        #expect(parsed[0]["sequence"] as? Int == 42 && parsed[0]["sync_address"] as? Int == 9)
        #expect(parsed[0]["source_name"] as? String == "signd on window-left")
        #expect(parsed[0]["cid"] as? [Int] == Array(1...16))
        #expect(parsed[0]["terminated"] as? Bool == true)
        #expect((parsed[0]["slots"] as? [Int])?.map(UInt8.init) == slots + [0, 0])
        #expect(parsed[1]["kind"] as? String == "sync" && parsed[1]["sync_address"] as? Int == 9)
        #expect(parsed[1]["sequence"] as? Int == 5)
    }

    @Test("what the sacn package sends, signd reads, a short universe included")
    func peerBuilds() throws {
        let built = try Peer.make(
            "e131",
            [
                [
                    "cid": Array(1...16), "source_name": "xLights", "universe": 3, "priority": 120, "sequence": 200,
                    "slots": [1, 2, 3, 4, 5, 6], "sync_address": 0,
                ],
                ["kind": "sync", "cid": Array(1...16), "sync_address": 9, "sequence": 17],
            ])
        guard case .data(let data) = try built[0].withUnsafeBytes({ try E131.parse($0) }) else {
            Issue.record("not a data packet")
            return
        }
        #expect(data.universe == 3 && data.priority == 120 && data.sequence == 200 && data.sourceName == "xLights")
        #expect(Array(built[0][data.slots].prefix(6)) == [1, 2, 3, 4, 5, 6])
        #expect(
            try built[1].withUnsafeBytes { try E131.parse($0) }
                == .sync(.init(cid: Array(1...16), sequence: 17, syncAddress: 9)))
        // What a receiver reads of every packet: the same fields, without the CID and name.
        #expect(
            try built[0].withUnsafeBytes { try E131.parseFraming($0) }
                == .data(priority: 120, syncAddress: 0, sequence: 200, options: 0, universe: 3, slots: data.slots))
        #expect(try built[1].withUnsafeBytes { try E131.parseFraming($0) } == .sync(sequence: 17, syncAddress: 9))
    }

    @Test("each layer's length and vector is checked; what fails is refused with its reason")
    func refused() {
        func reason(_ bytes: [UInt8]) -> WireError.Reason? { refusal(bytes, E131.parse) }
        let good = Self.data([1, 2, 3])
        #expect(reason(good) == nil)
        #expect(reason(Array(good.prefix(40))) == .short)
        #expect(reason(good + [0]) == .oversized)
        #expect(reason(Array(good.prefix(200))) == .short, "a cut packet's layer lengths no longer match")
        var vector = good
        vector[21] = 9
        #expect(reason(vector) == .wrongVector)
        var identifier = good
        identifier[5] = 0
        #expect(reason(identifier) == .wrongVector)
        var universe = good
        universe[113] = 0xff
        universe[114] = 0xff
        #expect(reason(universe) == .invalid)
        var startCode = good
        startCode[125] = 0xdd
        #expect(reason(startCode) == .invalid)
    }

    @Test("multicast groups are 239.255.hi.lo")
    func multicast() {
        #expect(E131.multicastGroup(universe: 1) == (239, 255, 0, 1))
        #expect(E131.multicastGroup(universe: 63999) == (239, 255, 249, 255))
    }
}
