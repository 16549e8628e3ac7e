import Testing

@testable import SignWire

@Suite("Stream assembler")
struct StreamAssemblerTests {
    static let source = E131.Source(cid: Array(1...16), name: "show")
    static let other = E131.Source(cid: Array(101...116), name: "backup show")
    static let second: UInt64 = 1_000_000_000

    static func e131(
        _ slots: [UInt8], universe: UInt16, priority: UInt8 = 100, sync: UInt16 = 0, options: UInt8 = 0,
        source: E131.Source = source
    ) -> [UInt8] {
        var packet: [UInt8] = []
        slots.withUnsafeBytes {
            E131.writeData(
                source: source, universe: universe, priority: priority, syncAddress: sync, sequence: 1,
                options: options, slots: $0, into: &packet)
        }
        return packet
    }

    static func artDmx(_ channels: [UInt8], portAddress: UInt16) -> [UInt8] {
        var packet: [UInt8] = []
        channels.withUnsafeBytes { ArtNet.writeDmx(portAddress: portAddress, sequence: 1, channels: $0, into: &packet) }
        return packet
    }

    static func ddp(_ frame: [UInt8]) -> [[UInt8]] {
        frame.withUnsafeBytes { f in
            (0..<DDP.packetCount(frameBytes: frame.count)).map { i in
                var packet: [UInt8] = []
                DDP.writePacket(i, of: f, sequence: 1, into: &packet)
                return packet
            }
        }
    }

    static func take(_ a: inout StreamAssembler, _ packet: [UInt8], at now: UInt64 = 0) -> Bool {
        packet.withUnsafeBytes { a.take($0, now: now) }
    }

    @Test("DDP: a frame of 600 pixels in two packets is complete on the push, byte for byte")
    func ddpPush() {
        var a = StreamAssembler(wire: .ddp, pixelCount: 600, firstUniverse: 0)
        let frame = (0..<1800).map { UInt8($0 % 251) }
        let packets = Self.ddp(frame)
        #expect(packets.count == 2)
        #expect(!Self.take(&a, packets[0]))
        #expect(Self.take(&a, packets[1]))
        #expect(a.pixels == frame)
        #expect(a.counters.frames == 1 && a.counters.packets == 2)
    }

    @Test("DDP: bytes beyond the layer's pixels are dropped, not written past the buffer")
    func ddpBeyond() {
        var a = StreamAssembler(wire: .ddp, pixelCount: 10, firstUniverse: 0)
        let frame = [UInt8](repeating: 9, count: 900)
        for packet in Self.ddp(frame) { _ = Self.take(&a, packet) }
        #expect(a.pixels == [UInt8](repeating: 9, count: 30))
        #expect(a.counters.frames == 1)
    }

    @Test("E1.31 without sync: a frame is complete when every universe of the layer has come")
    func e131AllUniverses() {
        // 200 pixels: 600 bytes over universes 5 (510) and 6 (90).
        var a = StreamAssembler(wire: .e131, pixelCount: 200, firstUniverse: 5)
        #expect(a.universeCount == 2)
        #expect(!Self.take(&a, Self.e131([UInt8](repeating: 1, count: 510), universe: 5)))
        #expect(!Self.take(&a, Self.e131([UInt8](repeating: 1, count: 510), universe: 5)))
        #expect(Self.take(&a, Self.e131([UInt8](repeating: 2, count: 90), universe: 6)))
        #expect(Array(a.pixels[0..<510]).allSatisfy { $0 == 1 } && Array(a.pixels[510...]).allSatisfy { $0 == 2 })
        // The next frame needs both again.
        #expect(!Self.take(&a, Self.e131([UInt8](repeating: 3, count: 90), universe: 6)))
    }

    @Test("E1.31 with a sync address: the frame is complete on the sync packet, not before")
    func e131Sync() {
        var a = StreamAssembler(wire: .e131, pixelCount: 100, firstUniverse: 1)
        #expect(!Self.take(&a, Self.e131([UInt8](repeating: 7, count: 300), universe: 1, sync: 900)))
        var sync: [UInt8] = []
        E131.writeSync(cid: Self.source.cid, sequence: 2, syncAddress: 900, into: &sync)
        #expect(Self.take(&a, sync))
        var wrongSync: [UInt8] = []
        E131.writeSync(cid: Self.source.cid, sequence: 3, syncAddress: 901, into: &wrongSync)
        #expect(!Self.take(&a, Self.e131([UInt8](repeating: 8, count: 300), universe: 1, sync: 900)))
        #expect(!Self.take(&a, wrongSync))
    }

    @Test("E1.31 priority: a higher source wins; a lower one is counted and waits 2.5 s after it stops")
    func e131Priority() {
        var a = StreamAssembler(wire: .e131, pixelCount: 1, firstUniverse: 1)
        #expect(Self.take(&a, Self.e131([200, 0, 0], universe: 1, priority: 150), at: 0))
        #expect(!Self.take(&a, Self.e131([0, 0, 9], universe: 1, priority: 100, source: Self.other), at: Self.second))
        #expect(a.counters.lowPriority == 1)
        #expect(
            Self.take(&a, Self.e131([0, 0, 9], universe: 1, priority: 100, source: Self.other), at: 3 * Self.second))
        #expect(a.pixels == [0, 0, 9])
    }

    @Test("E1.31 stream-terminated: the layer is told at once, and a lower source may take over")
    func e131Terminated() {
        var a = StreamAssembler(wire: .e131, pixelCount: 1, firstUniverse: 1)
        #expect(Self.take(&a, Self.e131([1, 2, 3], universe: 1, priority: 150)))
        #expect(!Self.take(&a, Self.e131([1, 2, 3], universe: 1, priority: 150, options: E131.streamTerminated)))
        #expect(a.terminated)
        #expect(Self.take(&a, Self.e131([4, 5, 6], universe: 1, priority: 50, source: Self.other), at: 1))
        #expect(!a.terminated && a.pixels == [4, 5, 6])
    }

    @Test("E1.31: a universe the layer does not show and preview data change nothing")
    func e131Ignored() {
        var a = StreamAssembler(wire: .e131, pixelCount: 1, firstUniverse: 1)
        #expect(!Self.take(&a, Self.e131([9, 9, 9], universe: 2)))
        #expect(!Self.take(&a, Self.e131([9, 9, 9], universe: 1, options: E131.preview)))
        #expect(a.counters.wrongUniverse == 1 && a.pixels == [0, 0, 0])
    }

    @Test("Art-Net: every universe in completes a frame until ArtSync is heard; then ArtSync does, for 4 s")
    func artNetSync() {
        var a = StreamAssembler(wire: .artnet, pixelCount: 2, firstUniverse: 3)
        #expect(Self.take(&a, Self.artDmx([1, 2, 3, 4, 5, 6], portAddress: 3), at: 0))
        var sync: [UInt8] = []
        ArtNet.writeSync(into: &sync)
        #expect(!Self.take(&a, sync, at: 1))  // nothing arrived since the last frame
        #expect(!Self.take(&a, Self.artDmx([7, 7, 7, 7, 7, 7], portAddress: 3), at: 2))
        #expect(Self.take(&a, sync, at: 3))
        // Four seconds after the last ArtSync, all-in completes frames again.
        #expect(Self.take(&a, Self.artDmx([8, 8, 8, 8, 8, 8], portAddress: 3), at: 3 + 5 * Self.second))
        #expect(!Self.take(&a, Self.artDmx([8, 8, 8, 8, 8, 8], portAddress: 4), at: 3 + 5 * Self.second))
        #expect(a.counters.wrongUniverse == 1)
    }

    @Test("every refused datagram is counted by its reason and leaves the frame as it was")
    func refusals() {
        var a = StreamAssembler(wire: .e131, pixelCount: 170, firstUniverse: 1)
        let good = Self.e131([UInt8](repeating: 5, count: 510), universe: 1)
        #expect(!Self.take(&a, Array(good[0..<100])))
        #expect(!Self.take(&a, Array("not sACN at all, just words".utf8) + [UInt8](repeating: 0, count: 120)))
        var wrongVector = good
        wrongVector[21] = 9
        #expect(!Self.take(&a, wrongVector))
        a.countOversized()
        #expect(a.counters.short == 1 && a.counters.oversized == 1)
        #expect(a.counters.wrongVector + a.counters.invalid == 2)
        #expect(a.counters.packets == 4 && a.counters.frames == 0)
        #expect(a.pixels.allSatisfy { $0 == 0 })
    }

    @Test("ten thousand random and mutated datagrams a protocol never trap")
    func hostile() {
        var rng = SystemRandomNumberGenerator()
        for wire in StreamAssembler.Wire.allCases {
            var a = StreamAssembler(wire: wire, pixelCount: 300, firstUniverse: 1)
            let valid: [UInt8] =
                switch wire {
                case .ddp: Self.ddp([UInt8](repeating: 1, count: 900))[0]
                case .e131: Self.e131([UInt8](repeating: 1, count: 510), universe: 1)
                case .artnet: Self.artDmx([UInt8](repeating: 1, count: 510), portAddress: 1)
                }
            for n in 0..<10_000 {
                var p = valid
                switch n % 4 {
                case 0:
                    p = (0..<Int.random(in: 0..<1500, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                case 1: p = Array(p[0..<Int.random(in: 0..<p.count, using: &rng)])
                case 2:
                    for _ in 0..<4 {
                        p[Int.random(in: 0..<p.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    }
                default: p += [UInt8](repeating: 0xff, count: Int.random(in: 1..<600, using: &rng))
                }
                _ = Self.take(&a, p, at: UInt64(n))
            }
            #expect(a.counters.packets == 10_000)
        }
    }
}
