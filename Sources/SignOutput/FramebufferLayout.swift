/// The shared-memory framebuffer's layout, docs/contracts.md, "The shared-memory framebuffer": a 64-byte little-endian
/// header followed by two RGB888 buffers.
public enum FramebufferLayout {
    public static let magic: [UInt8] = Array("SGFB".utf8)
    public static let version: UInt16 = 1
    public static let headerSize = 64
    public static let formatRGB888: UInt16 = 1
    public static let bufferCount = 2
    /// Bit 0 of `flags`: the writer has stopped (clean shutdown).
    public static let flagStopped: UInt32 = 1
    /// Bit 1 of `flags`: the display is off (`display off`): the frames are black and keep coming.
    public static let flagDisplayOff: UInt32 = 2

    // Field offsets.
    static let magicOffset = 0
    static let versionOffset = 4
    static let headerSizeOffset = 6
    static let widthOffset = 8
    static let heightOffset = 10
    static let formatOffset = 12
    static let bytesPerPixelOffset = 14
    static let strideOffset = 16
    static let bufferCountOffset = 20
    static let sequenceOffset = 24
    static let frameNumberOffset = 32
    static let timeOffset = 40
    static let indexOffset = 48
    static let rateOffset = 52
    static let flagsOffset = 56

    /// The POSIX shared-memory name for an output: `/signd.<name>`.
    public static func objectName(forOutput name: String) -> String { "/signd.\(name)" }

    /// Total size of the object for a frame size.
    public static func size(width: Int, height: Int) -> Int { headerSize + bufferCount * width * 3 * height }
}
