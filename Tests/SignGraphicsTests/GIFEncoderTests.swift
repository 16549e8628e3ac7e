import Testing

@testable import SignGraphics

@Suite("GIFEncoder")
struct GIFEncoderTests {
    /// GIF's LZW decoder, written here from the format's description, independent of the encoder.
    static func decode(_ data: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var table: [[UInt8]] = []
        func reset() { table = (0..<clear).map { [UInt8($0)] } + [[], []] }
        reset()
        var codeSize = minimumCodeSize + 1, bitPosition = 0
        var out: [UInt8] = [], previous: [UInt8]? = nil
        while bitPosition + codeSize <= data.count * 8 {
            var code = 0
            for b in 0..<codeSize where data[(bitPosition + b) / 8] & (1 << ((bitPosition + b) % 8)) != 0 {
                code |= 1 << b
            }
            bitPosition += codeSize
            if code == clear {
                reset()
                codeSize = minimumCodeSize + 1
                previous = nil
                continue
            }
            if code == end { break }
            let entry: [UInt8]
            if code < table.count { entry = table[code] } else { entry = previous! + [previous![0]] }
            out += entry
            if let previous, table.count < 4096 { table.append(previous + [entry[0]]) }
            if table.count == 1 << codeSize && codeSize < 12 { codeSize += 1 }
            previous = entry
        }
        return out
    }

    @Test("LZW output decodes back to the input, across table resets", arguments: [0, 1, 2, 300, 70_000])
    func lzwRoundTrip(count: Int) {
        var seed: UInt32 = 12345
        let data = (0..<count).map { i -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(seed >> 16 & 0x0F) ^ UInt8(i % 7)
        }
        #expect(Self.decode(GIFEncoder.lzw(data, minimumCodeSize: 8), minimumCodeSize: 8) == data)
    }

    @Test("a frame with few colours comes back exactly through the palette")
    func exactColours() {
        var frame = Frame(width: 3, height: 1)
        frame.pixels = [255, 0, 0, 0, 0, 0, 255, 255, 255]
        var gif = GIFEncoder(width: 3, height: 1, fps: 50)
        gif.add(frame)
        let bytes = gif.encode()
        #expect(gif.delay == 2)
        // The palette holds red, black and white exactly.
        let palette = Array(bytes[13..<(13 + 256 * 3)])
        for color in [[255, 0, 0], [0, 0, 0], [255, 255, 255]] as [[UInt8]] {
            #expect(stride(from: 0, to: palette.count, by: 3).contains { Array(palette[$0..<$0 + 3]) == color })
        }
    }
}
