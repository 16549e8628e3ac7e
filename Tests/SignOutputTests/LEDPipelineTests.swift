import SignGraphics
import Testing

@testable import SignOutput

/// The fused pipeline's entry points and its tables at the current brightness.
@Suite("LEDPipeline")
struct LEDPipelineTests {
    static func frame() -> Frame {
        var frame = Frame(width: 8, height: 2)
        for i in frame.pixels.indices { frame.pixels[i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11) }
        return frame
    }

    @Test("colour into a caller's buffer writes the same bytes as into an array, and nothing past them")
    func intoBuffer() {
        let map = PixelMap(panels: [Panel(width: 8, height: 2)], frameWidth: 8, frameHeight: 2)
        var viaArray = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
        var viaBuffer = viaArray
        var array: [UInt8] = []
        var buffer = [UInt8](repeating: 0xEE, count: map.ledCount * 3 + 10)
        for scale: UInt32 in [65536, 40000, 900, 0, 65536] {
            viaArray.colour(Self.frame(), scale: scale, into: &array)
            buffer.withUnsafeMutableBytes { viaBuffer.colour(Self.frame(), scale: scale, intoBuffer: $0) }
            #expect(Array(buffer.prefix(array.count)) == array)
            #expect(buffer.suffix(10).allSatisfy { $0 == 0xEE })
        }
    }

    @Test("a brightness change between frames rebuilds the table: each frame is what a fresh pipeline gives at that scale")
    func tableFollowsScale() {
        let map = PixelMap(panels: [Panel(width: 8, height: 2)], frameWidth: 8, frameHeight: 2)
        var kept = LEDPipeline(map: map, correction: ColorCorrection(curve: .cie1931), dithering: false)
        for scale: UInt32 in [65536, 20000, 20000, 65536, 1] {
            var fresh = LEDPipeline(map: map, correction: ColorCorrection(curve: .cie1931), dithering: false)
            var a: [UInt8] = [], b: [UInt8] = []
            kept.colour(Self.frame(), scale: scale, into: &a)
            fresh.colour(Self.frame(), scale: scale, into: &b)
            #expect(a == b, "scale \(scale)")
        }
    }
}
