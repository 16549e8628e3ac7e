import Glibc

/// How an output turns the sRGB frame into LED drive levels: a transfer curve to linear
/// light, a brightness scale and a white point (per-channel gains that balance the LEDs).
public struct ColorCorrection: Sendable, Equatable {
    /// The transfer curve from encoded values to linear LED duty.
    public enum Curve: Sendable, Equatable {
        /// `duty = value ^ exponent` (2.2 to 2.8 suit most LEDs; 1 passes values through).
        case exponent(Double)
        /// CIE 1931 lightness: the encoded value is L*, the duty is the luminance Y.
        case cie1931
    }

    public var curve = Curve.exponent(2.2)
    /// 0 to 1: scales every channel.
    public var brightness = 1.0
    /// Gains for red, green and blue, 0 to 1.
    public var whitePoint: [Double] = [1, 1, 1]

    public init(curve: Curve = .exponent(2.2), brightness: Double = 1, whitePoint: [Double] = [1, 1, 1]) {
        self.curve = curve
        self.brightness = brightness
        self.whitePoint = whitePoint
    }

    /// Passes values through unchanged (a device that corrects colour itself).
    public static let identity = ColorCorrection(curve: .exponent(1))

    /// Linear duty 0...1 for an encoded value 0...1.
    public func duty(_ encoded: Double) -> Double {
        let v = min(max(encoded, 0), 1)
        switch curve {
        case .exponent(let e): return e == 1 ? v : pow(v, e)
        case .cie1931:
            let l = v * 100
            return l <= 8 ? l / 903.3 : pow((l + 16) / 116, 3)
        }
    }

    /// The 16-bit drive level of `channel` (0 red, 1 green, 2 blue) at encoded `value`/`scale`.
    func level(_ value: Int, of scale: Int, channel: Int) -> UInt16 {
        let x = duty(Double(value) / Double(scale)) * brightness * whitePoint[channel]
        return UInt16(min(max(x * 65535, 0), 65535).rounded())
    }

    /// Per channel, the 16-bit level of each 8-bit value: 3 x 256 entries.
    public func tables() -> [[UInt16]] {
        (0..<3).map { c in (0..<256).map { level($0, of: 255, channel: c) } }
    }

    /// The colour look-up table a Fadecandy board interpolates: red, green and blue, 257
    /// entries each, entry i for input i / 256 (fcserver's layout).
    /// `scale` is the display's brightness (`DisplaySetting.scale`).
    public func fadecandyTable(scale: UInt32 = 65536) -> [UInt16] {
        (0..<3).flatMap { c in (0...256).map { DisplaySetting.scaled(level($0, of: 256, channel: c), by: scale) } }
    }
}
