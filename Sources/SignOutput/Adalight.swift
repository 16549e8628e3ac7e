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
    /// 256 bytes are 16 rows of the columns, and the positions XORed in repeat with them
    /// (byte i of row r is at 16r + i, that is 16r XOR i).
    ///
    /// A row is read as eight 16-bit lanes, each two columns: the even column in its low
    /// byte, the odd in its high byte, taken apart with a mask and a shift. Within a block the
    /// lanes hold at most 255 * 16 a sum and 255 * 136 a running sum, so 16 bits do. Between
    /// blocks each 16-bit lane's halves go to 32-bit lanes (the vector read as 32-bit lanes:
    /// its low and high halves), and those are kept small by folding, not reduced: 65536 is
    /// 1 modulo 255, so `x & 0xffff + x >> 16` is `x` modulo 255, a mask, a shift and an add
    /// where `% 255` is a division per lane. Folded every block, a lane stays below 70,000
    /// and a block's additions below 2^28, far inside 32 bits; the sums are reduced modulo
    /// 255 once, at the end. Every operation is on whole concrete vectors (no conversion
    /// between vector types, which does not compile to vector instructions).
    public static func fletcher(_ data: UnsafeBufferPointer<UInt8>) -> (
        fletcher1: UInt8, fletcher2: UInt8, fletcherExt: UInt8
    ) {
        let blocks = data.count / 256
        // The columns' sums, modulo 255: lane j of `sums.0` is column 4j, of `.1` 4j + 2, of
        // `.2` 4j + 1, of `.3` 4j + 3 (the low and high halves of the even and odd lanes).
        var sums = (SIMD4<UInt32>(), SIMD4<UInt32>(), SIMD4<UInt32>(), SIMD4<UInt32>())
        // The sums of the running sums and the XORed sums, modulo 255, columns together.
        var running = SIMD4<UInt32>(), mixed = SIMD4<UInt32>()
        if blocks > 0 {
            let raw = UnsafeRawPointer(data.baseAddress!)
            // Row 0's positions as the lanes read them, and what each row adds to them.
            let columns = SIMD8<UInt16>(0x0100, 0x0302, 0x0504, 0x0706, 0x0908, 0x0b0a, 0x0d0c, 0x0f0e)
            let nextRow = SIMD8<UInt16>(repeating: 0x1010), low = SIMD8<UInt16>(repeating: 0x00ff)
            for block in 0..<blocks {
                // Even columns' and odd columns' sums, running sums and XORed sums.
                var se = SIMD8<UInt16>(), so = SIMD8<UInt16>(), re = SIMD8<UInt16>(), ro = SIMD8<UInt16>()
                var me = SIMD8<UInt16>(), mo = SIMD8<UInt16>()
                var positions = columns
                let row0 = raw + block * 256
                for row in 0..<16 {
                    let x = row0.loadUnaligned(fromByteOffset: 16 * row, as: SIMD8<UInt16>.self)
                    se &+= x & low
                    so &+= x &>> 8
                    re &+= se
                    ro &+= so
                    let mixedRow = x ^ positions
                    me &+= mixedRow & low
                    mo &+= mixedRow &>> 8
                    positions &+= nextRow
                }
                // The sums before the block run on in each of its 16 rows.
                let before = sums.0 &+ sums.1 &+ sums.2 &+ sums.3
                running = folded(running &+ halves(re) &+ halves(ro) &+ 16 &* before)
                mixed = folded(mixed &+ halves(me) &+ halves(mo))
                sums.0 = folded(sums.0 &+ lowHalves(se))
                sums.1 = folded(sums.1 &+ highHalves(se))
                sums.2 = folded(sums.2 &+ lowHalves(so))
                sums.3 = folded(sums.3 &+ highHalves(so))
            }
        }
        let reduced = (sums.0 % 255, sums.1 % 255, sums.2 % 255, sums.3 % 255)
        var weighted: UInt32 = 0
        for j in 0..<4 {
            let k = UInt32(4 * j)
            weighted += (k * reduced.0[j] + (k + 2) * reduced.1[j] + (k + 1) * reduced.2[j] + (k + 3) * reduced.3[j]) % 255
        }
        var f1 = (reduced.0 &+ reduced.1 &+ reduced.2 &+ reduced.3).wrappedSum() % 255
        var f2 = (16 * ((running % 255).wrappedSum() % 255) + 255 - weighted % 255) % 255
        var ext = (mixed % 255).wrappedSum() % 255
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

    /// The low 16 bits of each 32-bit lane of `x` (its even 16-bit lanes).
    @inline(__always)
    private static func lowHalves(_ x: SIMD8<UInt16>) -> SIMD4<UInt32> { unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0xffff }

    /// The high 16 bits of each 32-bit lane of `x` (its odd 16-bit lanes).
    @inline(__always)
    private static func highHalves(_ x: SIMD8<UInt16>) -> SIMD4<UInt32> { unsafeBitCast(x, to: SIMD4<UInt32>.self) &>> 16 }

    /// Both halves of each 32-bit lane of `x` added.
    @inline(__always)
    private static func halves(_ x: SIMD8<UInt16>) -> SIMD4<UInt32> { lowHalves(x) &+ highHalves(x) }

    /// `x` lane by lane, congruent modulo 255 and at most 65,535 plus `x >> 16`.
    @inline(__always)
    private static func folded(_ x: SIMD4<UInt32>) -> SIMD4<UInt32> { (x & 0xffff) &+ (x &>> 16) }
}
