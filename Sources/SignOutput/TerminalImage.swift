import SignGraphics

/// Draws frames in a 24-bit colour terminal, two pixels per character cell (the upper-half
/// block: foreground is the top pixel, background the bottom one). Keeps the last picture
/// so each frame only rewrites the cells that changed.
public struct TerminalImage {
    /// Terminal columns available; wider frames are shrunk by a whole factor to fit.
    public var columns: Int
    /// Row of the terminal where the picture's top sits (1-based).
    public var topRow: Int
    private var previous: [UInt32] = []
    private var output: [UInt8] = []

    public init(columns: Int = 1000, topRow: Int = 1) {
        self.columns = columns
        self.topRow = topRow
    }

    /// Escape sequences that update the terminal from the last picture to `frame`.
    public mutating func update(to frame: Frame) -> [UInt8] {
        let scale = max(1, (frame.width + columns - 1) / max(columns, 1))
        let cellsWide = frame.width / scale
        let pixelRows = frame.height / scale
        let cellRows = (pixelRows + 1) / 2
        if previous.count != cellsWide * cellRows * 2 {
            previous = [UInt32](repeating: .max, count: cellsWide * cellRows * 2)
        }
        output.removeAll(keepingCapacity: true)
        var lastFG: UInt32 = .max, lastBG: UInt32 = .max
        for row in 0..<cellRows {
            var cursorAt = -1
            for col in 0..<cellsWide {
                let top = sample(frame, col, row * 2, scale)
                let bottom = row * 2 + 1 < pixelRows ? sample(frame, col, row * 2 + 1, scale) : 0
                let cell = (row * cellsWide + col) * 2
                if previous[cell] == top && previous[cell + 1] == bottom { continue }
                previous[cell] = top
                previous[cell + 1] = bottom
                if cursorAt != col {
                    append("\u{1B}[\(topRow + row);\(col + 1)H")
                }
                if top != lastFG { append("\u{1B}[38;2;\(top >> 16);\(top >> 8 & 0xff);\(top & 0xff)m"); lastFG = top }
                if bottom != lastBG {
                    append("\u{1B}[48;2;\(bottom >> 16);\(bottom >> 8 & 0xff);\(bottom & 0xff)m")
                    lastBG = bottom
                }
                append("▀")
                cursorAt = col + 1
            }
        }
        if !output.isEmpty { append("\u{1B}[0m") }
        return output
    }

    /// Forgets the last picture, so the next update redraws every cell.
    public mutating func invalidate() { previous.removeAll() }

    private mutating func append(_ s: String) { output.append(contentsOf: s.utf8) }

    /// The average colour of a `scale x scale` block, packed as 0xRRGGBB.
    private func sample(_ frame: Frame, _ col: Int, _ row: Int, _ scale: Int) -> UInt32 {
        if scale == 1 {
            let i = (row * frame.width + col) * 3
            return UInt32(frame.pixels[i]) << 16 | UInt32(frame.pixels[i + 1]) << 8 | UInt32(frame.pixels[i + 2])
        }
        var r = 0, g = 0, b = 0
        for y in row * scale..<(row + 1) * scale {
            for x in col * scale..<(col + 1) * scale {
                let i = (y * frame.width + x) * 3
                r += Int(frame.pixels[i])
                g += Int(frame.pixels[i + 1])
                b += Int(frame.pixels[i + 2])
            }
        }
        let n = scale * scale
        return UInt32(r / n) << 16 | UInt32(g / n) << 8 | UInt32(b / n)
    }

    /// Hides the cursor and clears the screen.
    public static let begin: [UInt8] = Array("\u{1B}[?25l\u{1B}[2J".utf8)
    /// Resets colours and shows the cursor again.
    public static let end: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\n".utf8)
}
