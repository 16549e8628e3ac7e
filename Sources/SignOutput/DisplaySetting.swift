/// What every output does with a frame beyond its pixels: how bright the LEDs light, and
/// whether the display is on. Brightness is a factor in linear light, applied after colour
/// correction and before dithering, so low levels stay smooth rather than stepping.
public struct DisplaySetting: Sendable, Equatable {
    /// 0 to 1, in linear light.
    public var brightness: Double
    /// Off: every output shows black while the frame clock runs on.
    public var on: Bool

    public init(brightness: Double = 1, on: Bool = true) {
        self.brightness = brightness
        self.on = on
    }

    /// Full brightness, on.
    public static let full = DisplaySetting()

    /// The factor in 16.16 fixed point: 65536 is full brightness, 0 is black (brightness 0,
    /// or the display off).
    public var scale: UInt32 {
        guard on, brightness == brightness else { return 0 }
        return UInt32((min(max(brightness, 0), 1) * 65536).rounded())
    }

    /// A 16-bit linear level scaled by `scale` (from `DisplaySetting.scale`).
    @inline(__always)
    public static func scaled(_ level: UInt16, by scale: UInt32) -> UInt16 {
        scale >= 65536 ? level : UInt16(truncatingIfNeeded: (UInt32(level) * scale + 32768) >> 16)
    }
}
