import SignGraphics
import Testing

@testable import SignOutput

@Suite("USB LED controller packets")
struct LEDDeviceEncodingTests {
    /// RGB bytes for `count` LEDs where LED i is (i % 256, i / 2 % 256, 255 - i % 256).
    static func ramp(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<count {
            let r = UInt8(i % 256), g = UInt8(i / 2 % 256)
            out += [r, g, 255 - r]
        }
        return out
    }

    @Test("Fadecandy framebuffer: 25 packets of 21 pixels, control byte = index, final bit on 24")
    func fadecandyFramebuffer() {
        var out: [UInt8] = []
        FadecandyDevice.framebufferPackets(Self.ramp(512), into: &out)
        #expect(out.count == 1600)
        #expect(out[0] == 0x00 && out[64] == 0x01 && out[23 * 64] == 0x17)
        #expect(out[24 * 64] == 0x38)  // 24 | final
        #expect(Array(out[1...6]) == [0, 0, 255, 1, 0, 254])  // LEDs 0 and 1
        #expect(Array(out[64 + 1...64 + 3]) == [21, 10, 234])  // LED 21 opens packet 1
        // Packet 24 carries LEDs 504...511 (8 pixels), then zeros.
        #expect(Array(out[24 * 64 + 1...24 * 64 + 3]) == [248, 252, 7])  // LED 504
        #expect(Array(out[24 * 64 + 22...24 * 64 + 24]) == [255, 255, 0])  // LED 511
        #expect(out[(24 * 64 + 25)...].allSatisfy { $0 == 0 })
    }

    @Test("Fadecandy colour LUT: 3 x 257 little-endian entries, 31 per packet after 0x40|index, 0")
    func fadecandyLUT() {
        let table = (0..<771).map { UInt16($0 * 85) }
        let out = FadecandyDevice.colorTablePackets(table)
        #expect(out.count == 1600)
        #expect(Array(out[0...5]) == [0x40, 0x00, 0x00, 0x00, 85, 0x00])  // entries 0 and 1
        #expect(Array(out[62...63]) == [UInt8((30 * 85) & 0xff), UInt8((30 * 85) >> 8)])  // entry 30 ends packet 0
        #expect(Array(out[64...67]) == [0x41, 0x00, UInt8((31 * 85) & 0xff), UInt8((31 * 85) >> 8)])
        #expect(out[24 * 64] == 0x40 | 0x20 | 24)
        // Entry 770 (blue 256) is the 26th of packet 24; the rest is zero.
        let last = 24 * 64 + 2 + 26 * 2
        #expect(Array(out[last...last + 1]) == [UInt8((770 * 85) & 0xff), UInt8((770 * 85) >> 8)])
        #expect(out[(last + 2)..<1600].allSatisfy { $0 == 0 })
    }

    @Test("Fadecandy config packet: bit 0 turns dithering off, bit 1 interpolation")
    func fadecandyConfig() {
        #expect(FadecandyDevice.configPacket(dithering: true, interpolation: true)[0...1] == [0x80, 0x00])
        #expect(FadecandyDevice.configPacket(dithering: false, interpolation: true)[0...1] == [0x80, 0x01])
        #expect(FadecandyDevice.configPacket(dithering: true, interpolation: false)[0...1] == [0x80, 0x02])
        #expect(FadecandyDevice.configPacket(dithering: false, interpolation: false).count == 64)
    }

    @Test("Fadecandy connect sends the LUT from the correction, then the config")
    func fadecandyConnect() {
        let map = PixelMap(panels: [Panel(width: 2, height: 1)], frameWidth: 2, frameHeight: 1, ledCount: 512)
        let device = FadecandyDevice(
            serial: nil, map: map, correction: ColorCorrection(curve: .exponent(1), brightness: 0.5),
            dithering: false, interpolation: true)
        let setup = device.connectTransfers()
        #expect(
            setup.count == 2 && setup[0][0] == 0x40
                && setup[1] == FadecandyDevice.configPacket(dithering: false, interpolation: true))
        // Red entry 256 (input 1.0) at half brightness: 32768 (0x8000), entry 256 of packet 8 (256 = 8 * 31 + 8).
        #expect(Array(setup[0][8 * 64 + 2 + 16...8 * 64 + 2 + 17]) == [0x00, 0x80])
    }

    @Test("Framework commands: brightness, stage column, commit")
    func frameworkCommands() {
        #expect(FrameworkMatrixDevice.brightnessCommand(0x40) == [0x32, 0xac, 0x00, 0x40])
        #expect(FrameworkMatrixDevice.commitCommand == [0x32, 0xac, 0x08, 0x00])
        var out: [UInt8] = []
        FrameworkMatrixDevice.stageColumnCommand(3, ArraySlice((0..<34).map { UInt8($0 * 7) }), into: &out)
        #expect(out.count == 38)
        #expect(Array(out[0...5]) == [0x32, 0xac, 0x07, 0x03, 0, 7])
        #expect(out[37] == 33 * 7)
    }

    @Test("Framework frame: nine staged columns then commit; a white pixel lands in its column")
    func frameworkFrame() {
        var frame = Frame(width: 9, height: 34)
        frame.pixels[(5 * 9 + 2) * 3..<(5 * 9 + 2) * 3 + 3] = [255, 255, 255]  // x 2, y 5
        var panel = Panel(width: 9, height: 34)
        panel.strip = .columns
        let map = PixelMap(panels: [panel], frameWidth: 9, frameHeight: 34)
        var device = FrameworkMatrixDevice(
            serial: nil, map: map, correction: ColorCorrection(curve: .exponent(1)), dithering: false, brightness: 255)
        var transfers: [[UInt8]] = []
        device.encode(frame, display: .full, into: &transfers)
        #expect(transfers.count == 10)
        #expect(transfers[9] == FrameworkMatrixDevice.commitCommand)
        #expect(transfers[2][3] == 2 && transfers[2][4 + 5] == 255)
        #expect(
            transfers.prefix(9).enumerated().allSatisfy { i, t in t[4...].filter { $0 != 0 }.count == (i == 2 ? 1 : 0) }
        )
    }

    @Test("Bulk panel: header, channels in the panel's order, footer, zero padding to packets")
    func bulkMessage() {
        var out: [UInt8] = []
        BulkPanelDevice.message(
            leds: [1, 2, 3, 4, 5, 6], order: [1, 0, 2], header: [0xaa, 0x55], footer: [0x0d], packetSize: 8, into: &out)
        #expect(out == [0xaa, 0x55, 2, 1, 3, 5, 4, 6, 0x0d, 0, 0, 0, 0, 0, 0, 0])
        BulkPanelDevice.message(leds: [1, 2, 3], order: [2, 1, 0], header: [], footer: [], packetSize: 0, into: &out)
        #expect(out == [3, 2, 1])
    }
}
