import Testing

@testable import SignConfig

@Suite("Stream layer configs")
struct StreamInputTests {
    func problems(_ keys: String, width: Int = 32, height: Int = 16) -> [String] {
        configProblems(
            "[display]\nwidth = 64\nheight = 32\n[[layer]]\ntext = \"x\"\n[[layer]]\nid = \"show\"\ntype = \"stream\"\n"
                + "width = \(width)\nheight = \(height)\n\(keys)\n")
    }

    @Test("a layer whose universes run past the protocol's last is refused, naming the last universe it needs")
    func universesPastTheEnd() {
        // 32x16 = 512 pixels, 170 to a universe of 510 channels: 4 universes.
        let e131 = problems("protocol = \"e131\"\nuniverse = 63999")
        #expect(
            e131 == [
                "t.toml:12: layer[1].universe: 512 pixels take 4 universes, 63999 to 64002, past universe 63999, the protocol's last: start at 63996 or lower"
            ], "\(e131)")
        #expect(problems("protocol = \"e131\"\nuniverse = 63996").isEmpty, "63996 to 63999 fit")
        let artnet = problems("protocol = \"artnet\"\nuniverse = 32767")
        #expect(artnet.count == 1 && artnet[0].contains("32767 to 32770, past port-address 32767"), "\(artnet)")
        #expect(problems("protocol = \"artnet\"\nuniverse = 32764").isEmpty)
        // Fewer channels to a universe, more universes.
        let narrow = problems("protocol = \"e131\"\nuniverse = 63990\nchannels_per_universe = 3")
        #expect(narrow.count == 1 && narrow[0].contains("512 universes, 63990 to 64501"), "\(narrow)")
        #expect(problems("protocol = \"ddp\"").isEmpty, "DDP addresses bytes, not universes")
    }

    @Test("a layer needing more universes than the protocol numbers says so")
    func moreThanTheProtocolHas() {
        let found = problems("protocol = \"artnet\"\nchannels_per_universe = 3", width: 4096, height: 16)
        #expect(found.count == 1 && found[0].contains("more than artnet numbers"), "\(found)")
    }
}
