import SignGraphics
import SignTiming

/// A text layer made ready to draw: its text laid out and rasterised once into a strip,
/// its edge mask sampled per column, its motion fixed. Rendering one only reads memory.
public struct PreparedTextLayer: Sendable {
    public let layer: TextLayer
    /// The layer's rectangle on the board.
    public let rect: PixelRect
    /// Width of the rasterised text in pixels.
    public let textWidth: Int
    /// Rows of the strip (the line height).
    public let stripHeight: Int
    /// The text's coverage, column after column (`textWidth * stripHeight` bytes).
    let strip: [UInt8]
    /// Per column of the layer: the edge mask's alpha times the text colour's alpha.
    let columnAlpha: [UInt8]
    /// Top row of the strip in layer coordinates.
    public let stripTop: Int
    /// Whether the text scrolls (otherwise it stands still at `path.home`).
    public let scrolls: Bool
    public let path: MarqueePath
    /// Characters no font in the chain could draw.
    public let missing: [Unicode.Scalar]

    /// Lays out and rasterises `layer` for a board of `boardWidth x boardHeight`, its motion
    /// starting at scene time `beginTime`.
    public init(
        _ layer: TextLayer, boardWidth: Int, boardHeight: Int, beginTime: Double, fonts: FontLibrary
    ) throws(FreeTypeError) {
        let rect = layer.frame ?? PixelRect(x: 0, y: 0, width: boardWidth, height: boardHeight)
        let run = try fonts.layout(layer.text, primary: layer.font, fallbacks: layer.fallbacks)
        let bitmap = run.rasterize()
        self.layer = layer
        self.rect = rect
        self.textWidth = run.width
        self.stripHeight = run.height
        self.strip = bitmap.columnMajor()
        self.stripTop = (rect.height - run.height) / 2
        self.missing = run.missing

        let fade = min(max(layer.marquee.fade.pixels(ofWidth: rect.width), 0), Double(rect.width) / 2)
        let f = rect.width > 0 ? fade / Double(rect.width) : 0
        // The mask on the static container: clear, opaque, opaque, clear.
        let mask = LinearGradient(colors: [.clear, .white, .white, .clear], locations: [0, f, 1 - f, 1])
        let colorAlpha = Int(layer.color.alpha)
        self.columnAlpha = mask.alphaRamp(count: rect.width).map { UInt8((Int($0) * colorAlpha + 127) / 255) }

        let fits = Double(run.width) <= Double(rect.width) - 2 * fade
        self.scrolls = layer.marquee.scroll == .always || !fits
        let gap = layer.marquee.gapPixels(layerWidth: rect.width)
        let home = scrolls ? fade.rounded(.up) : Double((rect.width - run.width) / 2)
        self.path = MarqueePath(
            home: home, cycle: Double(run.width + gap), speed: scrolls ? layer.marquee.speed : 0,
            beginTime: beginTime)
    }
}
