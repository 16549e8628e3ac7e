import SignGraphics
import SignTiming

/// A marquee text layer made ready to draw: its text laid out once, expanded into the layer
/// tree Core Animation code would build (a container masked by a clear / opaque / opaque /
/// clear gradient, holding a strip of the text repeating after a gap, translated left by one
/// text width plus gap per cycle, forever), and prepared for the compositor.
public struct PreparedTextLayer: Sendable {
    public let layer: TextLayer
    /// The layer's rectangle on the board.
    public let rect: PixelRect
    /// Width of the rasterised text in pixels.
    public let textWidth: Int
    /// The text reads right to left (its base direction).
    public let isRightToLeft: Bool
    /// Whether the text scrolls (otherwise it stands still at `path.home`).
    public let scrolls: Bool
    public let path: MarqueePath
    /// The layers drawn.
    public let tree: PreparedLayer
    /// Characters no font in the chain could draw.
    public var missing: [Unicode.Scalar] { tree.missingCharacters }

    /// Lays out `layer` for the context's board, its text animations starting at scene time
    /// `beginTime` and its scroll at `marqueeBeginTime` (default: `beginTime` too).
    public init(_ layer: TextLayer, in context: PreparationContext, beginTime: Double, marqueeBeginTime: Double? = nil)
        throws(FreeTypeError)
    {
        let rect = layer.frame ?? PixelRect(x: 0, y: 0, width: context.boardWidth, height: context.boardHeight)
        // Laid out once: the strip below draws this raster, repeating it after the gap.
        let raster = try TextRaster(layer.content(), fonts: context.fonts, icons: context.icons)
        let textWidth = Int(raster.width)
        self.layer = layer
        self.rect = rect
        self.textWidth = textWidth
        self.isRightToLeft = raster.isRightToLeft

        let width = Double(rect.width), height = Double(rect.height)
        let fade = min(max(layer.marquee.fade.pixels(ofWidth: rect.width), 0), width / 2)
        let fits = Double(textWidth) <= width - 2 * fade
        scrolls = layer.marquee.scroll == .always || !fits
        let gap = layer.marquee.gapPixels(layerWidth: rect.width)
        // A right-to-left text scrolls left to right (its reading direction) unless told
        // otherwise, and starts from its beginning, at the right.
        let rightwards = (layer.marquee.scrollDirection.map { $0 == .right } ?? raster.isRightToLeft)
        var mode = layer.marquee.mode
        if rightwards && mode == .continuous { mode = .continuousReverse }
        let home =
            !scrolls
            ? Double((rect.width - textWidth) / 2)
            : rightwards && mode != .leftRight
                ? width - fade.rounded(.up) - Double(textWidth) : fade.rounded(.up)
        let speed = scrolls ? layer.marquee.speed : 0
        // Left-right travels across the overflow (leftwards) or the free space (rightwards).
        let bounce = (width - 2 * fade.rounded(.up)) - Double(textWidth)
        path = MarqueePath(
            home: home, cycle: Double(textWidth + gap), speed: speed, beginTime: marqueeBeginTime ?? beginTime,
            mode: mode,
            pause: layer.marquee.pause,
            bounce: bounce)

        let repeats = scrolls && mode != .leftRight
        var strip = Layer(
            id: layer.id + ".text",
            content: .text(layer.content(repeatGap: repeats ? Double(gap) : nil)),
            frame: Rect(x: home, y: 0, width: max(Double(textWidth), 1), height: height))
        strip.motion = layer.marquee.motion
        // The text's own animations count from `beginTime`; the scroll has its begin time set.
        strip.animations = layer.textAnimations
        strip = strip.resolvingBeginTimes(to: beginTime)
        strip.animations += path.animation.map { [$0] } ?? []
        var container = Layer(
            id: layer.id, frame: Rect(x: Double(rect.x), y: Double(rect.y), width: width, height: height),
            masksToBounds: true,
            sublayers: [strip])
        let f = width > 0 ? fade / width : 0
        container.mask = Layer(
            content: .gradient(
                Gradient(
                    ramp: ColorRamp(colors: [.clear, .white, .white, .clear], locations: [0, f, 1 - f, 1]),
                    startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))),
            frame: Rect(x: 0, y: 0, width: width, height: height))
        tree = try PreparedLayer(container, fonts: context.fonts, icons: context.icons, reusing: raster)
    }
}

extension TextLayer {
    /// The layer's text as a text layer's content draws it.
    func content(repeatGap: Double? = nil) -> TextContent {
        var content = TextContent(
            text: text, font: font, fallbacks: fallbacks, color: color, repeatGap: repeatGap)
        content.direction = direction
        content.features = features
        return content
    }
}
