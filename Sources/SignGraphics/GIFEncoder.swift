/// Writes frames as an animated GIF (GIF89a, looping forever), so an effect can be seen
/// without a board. One palette serves all frames: the 256 most used colours after
/// reducing to 5 bits a channel, every pixel mapped to its nearest entry.
public struct GIFEncoder {
    public let width: Int
    public let height: Int
    /// Delay between frames in hundredths of a second (GIF's unit).
    public let delay: UInt16
    private var frames: [[UInt8]] = []

    /// `fps` sets the frame delay, rounded to GIF's 1/100 s (at least 2, as browsers clamp less).
    public init(width: Int, height: Int, fps: Double) {
        self.width = width
        self.height = height
        delay = UInt16(max(2, (100 / fps).rounded()))
    }

    public mutating func add(_ frame: Frame) {
        precondition(frame.width == width && frame.height == height, "every GIF frame must have the same size")
        frames.append(frame.pixels)
    }

    /// The finished file.
    public func encode() -> [UInt8] {
        let palette = makePalette()
        var nearest = [Int16](repeating: -1, count: 1 << 15)
        var out: [UInt8] = Array("GIF89a".utf8)
        out += le(width) + le(height)
        out += [0xF7, 0, 0]  // global colour table of 256 entries
        for i in 0..<256 {
            let c = i < palette.count ? palette[i] : (0, 0, 0)
            out += [c.0, c.1, c.2]
        }
        // NETSCAPE2.0: loop forever.
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        for pixels in frames {
            out += [0x21, 0xF9, 0x04, 0x00] + le(Int(delay)) + [0x00, 0x00]  // graphics control
            out += [0x2C] + le(0) + le(0) + le(width) + le(height) + [0x00]  // image descriptor
            var indices = [UInt8](repeating: 0, count: width * height)
            for p in 0..<(width * height) {
                let r = pixels[p * 3], g = pixels[p * 3 + 1], b = pixels[p * 3 + 2]
                let key = Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
                if nearest[key] < 0 { nearest[key] = Int16(closest((r, g, b), in: palette)) }
                indices[p] = UInt8(nearest[key])
            }
            out += [8] + Self.subBlocks(Self.lzw(indices, minimumCodeSize: 8)) + [0]
        }
        out.append(0x3B)
        return out
    }

    private func le(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    private func makePalette() -> [(UInt8, UInt8, UInt8)] {
        var counts = [Int](repeating: 0, count: 1 << 15)
        for pixels in frames {
            for p in stride(from: 0, to: pixels.count, by: 3) {
                counts[Int(pixels[p] >> 3) << 10 | Int(pixels[p + 1] >> 3) << 5 | Int(pixels[p + 2] >> 3)] += 1
            }
        }
        let used = counts.indices.filter { counts[$0] > 0 }.sorted { counts[$0] > counts[$1] }.prefix(256)
        // Bin centres, with pure black and white exact.
        return used.map { key in
            func channel(_ v: Int) -> UInt8 { v == 0 ? 0 : v == 31 ? 255 : UInt8(v << 3 | 4) }
            return (channel(key >> 10), channel(key >> 5 & 31), channel(key & 31))
        }
    }

    private func closest(_ c: (UInt8, UInt8, UInt8), in palette: [(UInt8, UInt8, UInt8)]) -> Int {
        var best = 0, bestDistance = Int.max
        for (i, p) in palette.enumerated() {
            let dr = Int(c.0) - Int(p.0), dg = Int(c.1) - Int(p.1), db = Int(c.2) - Int(p.2)
            let d = dr * dr + dg * dg + db * db
            if d < bestDistance {
                best = i
                bestDistance = d
            }
        }
        return best
    }

    /// GIF's variable-width LZW: codes packed least significant bit first, a clear code
    /// whenever the table fills.
    static func lzw(_ data: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var table: [Int: Int] = [:]  // (prefix code << 8 | byte) -> code
        var next = end + 1, codeSize = minimumCodeSize + 1
        var out: [UInt8] = [], bits = 0, bitCount = 0
        func emit(_ code: Int) {
            bits |= code << bitCount
            bitCount += codeSize
            while bitCount >= 8 {
                out.append(UInt8(bits & 0xFF))
                bits >>= 8
                bitCount -= 8
            }
        }
        emit(clear)
        guard var prefix = data.first.map(Int.init) else {
            emit(end)
            if bitCount > 0 { out.append(UInt8(bits & 0xFF)) }
            return out
        }
        for byte in data.dropFirst() {
            let key = prefix << 8 | Int(byte)
            if let code = table[key] {
                prefix = code
                continue
            }
            emit(prefix)
            if next < 4096 {
                table[key] = next
                // The decoder widens its codes once the next code needs another bit.
                if next == 1 << codeSize { codeSize += 1 }
                next += 1
            } else {
                emit(clear)
                table.removeAll(keepingCapacity: true)
                next = end + 1
                codeSize = minimumCodeSize + 1
            }
            prefix = Int(byte)
        }
        emit(prefix)
        emit(end)
        if bitCount > 0 { out.append(UInt8(bits & 0xFF)) }
        return out
    }

    /// Data split into sub-blocks of at most 255 bytes, each preceded by its length.
    static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            let n = min(255, data.count - i)
            out.append(UInt8(n))
            out += data[i..<(i + n)]
            i += n
        }
        return out
    }
}
