/// TPM2 over serial (the tpm2 protocol of the TPM2 and WLED serial receivers): a data frame
/// is 0xC9, 0xDA, the data size in bytes (big-endian u16), the data (R, G, B per LED) and
/// the end byte 0x36.
public enum TPM2 {
    public static let startByte: UInt8 = 0xc9
    public static let dataFrame: UInt8 = 0xda
    public static let endByte: UInt8 = 0x36
    /// The most data bytes the size field carries: 21845 RGB LEDs.
    public static let maxData = 65535

    /// Writes a data frame for `rgb` into `out`, reusing its storage.
    public static func encode(_ rgb: [UInt8], into out: inout [UInt8]) {
        encode(bytes: rgb.count, into: &out) { Adalight.copy(rgb, into: $0) }
    }

    /// A data frame of `bytes` LED bytes that `fill` writes in place.
    public static func encode(bytes: Int, into out: inout [UInt8], fill: (UnsafeMutableRawBufferPointer) -> Void) {
        let size = 4 + bytes + 1
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        out.withUnsafeMutableBytes { o in
            o[0] = startByte
            o[1] = dataFrame
            o[2] = UInt8(truncatingIfNeeded: bytes >> 8)
            o[3] = UInt8(truncatingIfNeeded: bytes)
            if bytes > 0 { fill(UnsafeMutableRawBufferPointer(rebasing: o[4..<4 + bytes])) }
            o[size - 1] = endByte
        }
    }
}
