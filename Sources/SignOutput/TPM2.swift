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
        let size = 4 + rgb.count + 1
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        out.withUnsafeMutableBufferPointer { o in
            o[0] = startByte
            o[1] = dataFrame
            o[2] = UInt8(truncatingIfNeeded: rgb.count >> 8)
            o[3] = UInt8(truncatingIfNeeded: rgb.count)
            rgb.withUnsafeBufferPointer { source in
                guard let from = source.baseAddress else { return }
                (o.baseAddress! + 4).update(from: from, count: source.count)
            }
            o[size - 1] = endByte
        }
    }
}
