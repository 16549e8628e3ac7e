/// Lets through at most `maxFPS` of a display's frames a second, spread evenly by frame
/// number (40 of 60: two frames of every three), for receivers that choke at the display
/// rate (many ESP32 controllers above 40 fps).
public struct FrameRateCap: Sendable, Equatable {
    /// Frames let through per display frame; 1 or more lets every frame through.
    public let ratio: Double

    /// `maxFPS` nil or at or above `displayFPS`: no cap.
    public init(maxFPS: Double?, displayFPS: Double) {
        guard let maxFPS, displayFPS > 0, maxFPS < displayFPS else {
            ratio = 1
            return
        }
        ratio = max(maxFPS, 0) / displayFPS
    }

    /// Whether frame `number` goes out.
    @inline(__always)
    public func admits(_ number: UInt64) -> Bool {
        guard ratio < 1 else { return true }
        let n = Double(number)
        return (n * ratio).rounded(.down) != ((n - 1) * ratio).rounded(.down)
    }
}
