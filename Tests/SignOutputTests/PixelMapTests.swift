import SignGraphics
import Testing

@testable import SignOutput

@Suite("Pixel maps from frames to LEDs")
struct PixelMapTests {
    /// Frame positions of every LED of a panel, in LED order.
    static func walk(_ panel: Panel) -> [String] {
        (0..<panel.ledCount).map { k in
            let p = panel.position(ofLED: k)
            return "\(p.x),\(p.y)"
        }
    }

    @Test("progressive rows from each corner of a 3x2 panel")
    func corners() {
        var panel = Panel(width: 3, height: 2)
        #expect(Self.walk(panel) == ["0,0", "1,0", "2,0", "0,1", "1,1", "2,1"])
        panel.start = .topRight
        #expect(Self.walk(panel) == ["2,0", "1,0", "0,0", "2,1", "1,1", "0,1"])
        panel.start = .bottomLeft
        #expect(Self.walk(panel) == ["0,1", "1,1", "2,1", "0,0", "1,0", "2,0"])
        panel.start = .bottomRight
        #expect(Self.walk(panel) == ["2,1", "1,1", "0,1", "2,0", "1,0", "0,0"])
    }

    @Test("serpentine rows and serpentine columns")
    func serpentine() {
        var panel = Panel(width: 3, height: 2)
        panel.serpentine = true
        #expect(Self.walk(panel) == ["0,0", "1,0", "2,0", "2,1", "1,1", "0,1"])
        panel.strip = .columns
        #expect(Self.walk(panel) == ["0,0", "0,1", "1,1", "1,0", "2,0", "2,1"])
        panel.start = .bottomLeft
        #expect(Self.walk(panel) == ["0,1", "0,0", "1,0", "1,1", "2,1", "2,0"])
    }

    @Test("a 2x3 strip grid turned 90, 180 and 270 degrees clockwise onto a 3x2 frame area")
    func rotation() {
        var panel = Panel(width: 3, height: 2)  // the frame area; the panel's own grid is 2 wide, 3 tall
        panel.rotation = 90
        // Own grid rows (0,0) (1,0) / (0,1) (1,1) / (0,2) (1,2): its top row ends up in the right column.
        #expect(Self.walk(panel) == ["2,0", "2,1", "1,0", "1,1", "0,0", "0,1"])
        panel.rotation = 270
        #expect(Self.walk(panel) == ["0,1", "0,0", "1,1", "1,0", "2,1", "2,0"])
        var square = Panel(width: 2, height: 2)
        square.rotation = 180
        #expect(Self.walk(square) == ["1,1", "0,1", "1,0", "0,0"])
    }

    @Test("mirroring flips after rotation")
    func mirror() {
        var panel = Panel(width: 3, height: 1)
        panel.mirror = .horizontal
        #expect(Self.walk(panel) == ["2,0", "1,0", "0,0"])
        panel = Panel(width: 1, height: 2)
        panel.mirror = .vertical
        #expect(Self.walk(panel) == ["0,1", "0,0"])
    }

    @Test("two panels tile one frame; LEDs outside the frame stay black")
    func tiling() {
        var left = Panel(width: 2, height: 1)
        var right = Panel(width: 2, height: 1)
        right.x = 2
        right.firstLED = 2
        left.firstLED = 0
        var outside = Panel(width: 1, height: 1)
        outside.x = 9
        outside.firstLED = 4
        let map = PixelMap(panels: [left, right, outside], frameWidth: 4, frameHeight: 1)
        #expect(map.source == [0, 1, 2, 3, -1])
        let frame = Frame(width: 4, height: 1, pixels: [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4])
        var leds: [UInt8] = []
        map.gather(frame, into: &leds)
        #expect(leds == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 0, 0, 0])
    }

    @Test("the Fadecandy example: 8 strips of 64 as a serpentine 32x16 matrix")
    func fadecandyExample() {
        var panel = Panel(width: 32, height: 16)
        panel.serpentine = true
        let map = PixelMap(panels: [panel], frameWidth: 32, frameHeight: 16, ledCount: 512)
        #expect(map.source[0] == 0 && map.source[31] == 31)
        #expect(map.source[32] == 63 && map.source[63] == 32)  // row 1 runs back
        #expect(map.source[64] == 64)  // strand 1 starts at row 2, left
        #expect(map.source[511] == 15 * 32)  // row 15 runs back: ends at its left
    }
}
