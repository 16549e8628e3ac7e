import SignGraphics

/// One physical LED panel (or a run of strips) and where it sits in the rendered frame.
///
/// LEDs are numbered along the strips: `strip` says whether a strip runs along rows or
/// columns, `serpentine` that every other strip runs back, `start` which corner LED 0 is in,
/// all in the panel's own (unrotated) grid. `rotation` is how far the panel is turned
/// clockwise where it is mounted, `mirror` flips it after that, and the result covers the
/// frame rectangle `x`, `y`, `width`, `height`.
public struct Panel: Sendable, Equatable {
    public enum Strip: String, Sendable, CaseIterable { case rows, columns }
    public enum Corner: String, Sendable, CaseIterable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }
    public enum Mirror: String, Sendable, CaseIterable { case none, horizontal, vertical, both }

    /// The frame rectangle the panel shows, in frame pixels (after rotation).
    public var x = 0, y = 0, width: Int, height: Int
    public var strip = Strip.rows
    public var serpentine = false
    public var start = Corner.topLeft
    /// Clockwise quarter turns in degrees: 0, 90, 180 or 270.
    public var rotation = 0
    public var mirror = Mirror.none
    /// Index of the panel's first LED in the device's LED numbering.
    public var firstLED = 0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var ledCount: Int { width * height }

    /// The panel's own grid: columns and rows as the strips are laid, before rotation.
    var grid: (columns: Int, rows: Int) { rotation % 180 == 0 ? (width, height) : (height, width) }

    /// Where LED `k` of this panel (0-based inside the panel) lands in the frame.
    public func position(ofLED k: Int) -> (x: Int, y: Int) {
        let (columns, rows) = grid
        var c: Int, r: Int
        switch strip {
        case .rows:
            r = k / columns
            c = k % columns
            if serpentine && r % 2 == 1 { c = columns - 1 - c }
        case .columns:
            c = k / rows
            r = k % rows
            if serpentine && c % 2 == 1 { r = rows - 1 - r }
        }
        if start == .topRight || start == .bottomRight { c = columns - 1 - c }
        if start == .bottomLeft || start == .bottomRight { r = rows - 1 - r }
        // Turn the grid clockwise onto the frame.
        var u: Int, v: Int
        switch rotation {
        case 90: (u, v) = (width - 1 - r, c)
        case 180: (u, v) = (width - 1 - c, height - 1 - r)
        case 270: (u, v) = (r, height - 1 - c)
        default: (u, v) = (c, r)
        }
        if mirror == .horizontal || mirror == .both { u = width - 1 - u }
        if mirror == .vertical || mirror == .both { v = height - 1 - v }
        return (x + u, y + v)
    }
}

/// Maps a rendered frame onto a device's LEDs: for every LED, the frame pixel it shows.
/// Several panels tile one display; LEDs no panel covers, or that fall outside the frame,
/// stay black.
public struct PixelMap: Sendable, Equatable {
    /// Per LED, the index of its frame pixel, or -1 for black.
    public let source: [Int32]

    public var ledCount: Int { source.count }

    /// `ledCount` defaults to the end of the last panel.
    public init(panels: [Panel], frameWidth: Int, frameHeight: Int, ledCount: Int? = nil) {
        let count = ledCount ?? panels.map { $0.firstLED + $0.ledCount }.max() ?? 0
        var source = [Int32](repeating: -1, count: count)
        for panel in panels {
            for k in 0..<panel.ledCount where panel.firstLED + k < count {
                let (x, y) = panel.position(ofLED: k)
                guard (0..<frameWidth).contains(x), (0..<frameHeight).contains(y) else { continue }
                source[panel.firstLED + k] = Int32(y * frameWidth + x)
            }
        }
        self.source = source
    }

    /// Copies the frame's pixels into `leds` (3 bytes per LED, R G B, in LED order).
    public func gather(_ frame: Frame, into leds: inout [UInt8]) {
        if leds.count != source.count * 3 { leds = [UInt8](repeating: 0, count: source.count * 3) }
        frame.pixels.withUnsafeBufferPointer { pixels in
            leds.withUnsafeMutableBufferPointer { out in
                for (led, index) in source.enumerated() {
                    let o = led * 3
                    if index < 0 || Int(index) * 3 + 2 >= pixels.count {
                        out[o] = 0
                        out[o + 1] = 0
                        out[o + 2] = 0
                    } else {
                        let i = Int(index) * 3
                        out[o] = pixels[i]
                        out[o + 1] = pixels[i + 1]
                        out[o + 2] = pixels[i + 2]
                    }
                }
            }
        }
    }
}
