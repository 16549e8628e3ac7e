/// The Adalight serial protocol (Adafruit's Arduino sketch, WLED's and Hyperion's serial
/// receivers) and Hyperion's AWA variant of it (HyperSerialESP32, HyperSerialPico).
///
/// Adalight: `A` `d` `a`, the LED count minus one (big-endian u16), the check byte
/// `hi ^ lo ^ 0x55`, then R, G, B per LED. AWA: `A` `w` `a`, the same count and check, the
/// same RGB, then three Fletcher checksums over the RGB bytes (fletcher1, fletcher2 and the
/// position-mixed fletcherExt, which never goes out as `A`: 0x41 is sent as 0xAA).
public enum Adalight {
    /// Bytes before the LED data.
    public static let headerSize = 6
    /// Bytes after the LED data in an AWA frame.
    public static let awaTrailerSize = 3
    /// The most LEDs the count field carries.
    public static let maxLEDs = 65536

    /// Writes an Adalight frame for `rgb` (R, G, B per LED, at least one LED) into `out`,
    /// reusing its storage.
    public static func encode(_ rgb: [UInt8], into out: inout [UInt8]) {
        encode(bytes: rgb.count, into: &out) { copy(rgb, into: $0) }
    }

    /// Writes an AWA frame for `rgb` into `out`, reusing its storage.
    public static func encodeAWA(_ rgb: [UInt8], into out: inout [UInt8]) {
        encodeAWA(bytes: rgb.count, into: &out) { copy(rgb, into: $0) }
    }

    /// An Adalight frame of `bytes` LED bytes that `fill` writes in place.
    public static func encode(bytes: Int, into out: inout [UInt8], fill: (UnsafeMutableRawBufferPointer) -> Void) {
        write(bytes: bytes, magic: 0x64, trailer: 0, into: &out, fill: fill)
    }

    /// An AWA frame of `bytes` LED bytes that `fill` writes in place; the checksums follow.
    public static func encodeAWA(bytes: Int, into out: inout [UInt8], fill: (UnsafeMutableRawBufferPointer) -> Void) {
        write(bytes: bytes, magic: 0x77, trailer: awaTrailerSize, into: &out, fill: fill)
        let end = headerSize + bytes
        let sums = out.withUnsafeBufferPointer { fletcher(UnsafeBufferPointer(rebasing: $0[headerSize..<end])) }
        out[end] = sums.fletcher1
        out[end + 1] = sums.fletcher2
        out[end + 2] = sums.fletcherExt
    }

    static func copy(_ rgb: [UInt8], into buffer: UnsafeMutableRawBufferPointer) {
        rgb.withUnsafeBytes { source in
            guard let from = source.baseAddress else { return }
            buffer.baseAddress!.copyMemory(from: from, byteCount: source.count)
        }
    }

    private static func write(
        bytes: Int, magic: UInt8, trailer: Int, into out: inout [UInt8], fill: (UnsafeMutableRawBufferPointer) -> Void
    ) {
        let size = headerSize + bytes + trailer
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        let count = UInt16(truncatingIfNeeded: max(bytes / 3, 1) - 1)
        let hi = UInt8(count >> 8), lo = UInt8(count & 0xff)
        out.withUnsafeMutableBytes { o in
            o[0] = 0x41  // A
            o[1] = magic  // d (Adalight) or w (AWA)
            o[2] = 0x61  // a
            o[3] = hi
            o[4] = lo
            o[5] = hi ^ lo ^ 0x55
            if bytes > 0 { fill(UnsafeMutableRawBufferPointer(rebasing: o[headerSize..<headerSize + bytes])) }
        }
    }

    /// AWA's checksums over `data`: Fletcher's two running sums modulo 255, and fletcherExt,
    /// the sum modulo 255 of each byte XORed with its position (counted in a byte, so it
    /// wraps every 256), sent as 0xAA when it would be 0x41 so it is never taken for a
    /// frame's first byte.
    ///
    /// The sums are taken modulo 255 once per 256 bytes, not per byte: fletcher1 is the
    /// bytes' sum; fletcher2 the sum of the running sums, that is each byte times the count
    /// of sums it is in (n - j for byte j of n). Over 16 columns (byte j in column j % 16),
    /// each column keeps its sum and the sum of its running sums, from which
    /// fletcher2 = 16 * (sum of the columns' running sums) - (sum of column k's sum times k).
    /// 256 bytes are 16 rows of the columns, and the positions XORed in repeat with them.
    ///
    /// Between blocks each lane is kept small by folding, not reduced: 65536 is 1 modulo 255,
    /// so `x & 0xffff + x >> 16` is `x` modulo 255, and lane by lane it is a mask, a shift and
    /// an add where `% 255` is a division per lane. Folded, a lane stays below 65,553 (a
    /// block adds at most 17 * 65,552 + 34,680 to a running sum, whose fold is then at most
    /// 65,535 + 17), far inside 32 bits; the sums are reduced modulo 255 once, at the end.
    public static func fletcher(_ data: UnsafeBufferPointer<UInt8>) -> (
        fletcher1: UInt8, fletcher2: UInt8, fletcherExt: UInt8
    ) {
        let blocks = data.count / 256
        // Per column, modulo 255: its sum, the sum of its running sums, its XORed sum.
        var sums = SIMD16<UInt32>(), running = SIMD16<UInt32>(), mixed = SIMD16<UInt32>()
        if blocks > 0 {
            let raw = UnsafeRawPointer(data.baseAddress!)
            let columns = SIMD16<UInt16>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
            for block in 0..<blocks {
                // Within the block in 16 bits: at most 255 * 16 a sum and 255 * 136 a running sum.
                var s = SIMD16<UInt16>(), r = SIMD16<UInt16>(), m = SIMD16<UInt16>()
                let row0 = raw + block * 256
                for row in 0..<16 {
                    let x = SIMD16<UInt16>(truncatingIfNeeded: row0.loadUnaligned(fromByteOffset: 16 * row, as: SIMD16<UInt8>.self))
                    s &+= x
                    r &+= s
                    m &+= x ^ (columns &+ UInt16(16 * row))
                }
                // The sums before the block run on in each of its 16 rows.
                running = folded(running &+ SIMD16<UInt32>(truncatingIfNeeded: r) &+ 16 &* sums)
                sums = folded(sums &+ SIMD16<UInt32>(truncatingIfNeeded: s))
                mixed = folded(mixed &+ SIMD16<UInt32>(truncatingIfNeeded: m))
            }
        }
        var weighted: UInt32 = 0
        for k in 0..<16 { weighted += UInt32(k) * sums[k] }
        var f1 = sums.wrappedSum() % 255
        var f2 = (16 * (running.wrappedSum() % 255) + 255 - weighted % 255) % 255
        var ext = mixed.wrappedSum() % 255
        // The last bytes one by one (the position starts again at 0 after whole blocks).
        var position: UInt8 = 0
        for byte in UnsafeBufferPointer(rebasing: data[(blocks * 256)...]) {
            f1 = (f1 + UInt32(byte)) % 255
            f2 = (f2 + f1) % 255
            ext = (ext + UInt32(byte ^ position)) % 255
            position &+= 1
        }
        return (UInt8(f1), UInt8(f2), ext == 0x41 ? 0xaa : UInt8(ext))
    }

    /// `x` lane by lane, congruent modulo 255 and at most 65,535 plus `x >> 16`.
    @inline(__always)
    private static func folded(_ x: SIMD16<UInt32>) -> SIMD16<UInt32> { (x & 0xffff) &+ (x &>> 16) }
}
