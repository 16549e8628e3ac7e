import SignGraphics

/// What a sign shows: a board of `width x height` pixels, a background, and text layers
/// drawn in order. A value: the daemon builds a new one to change anything.
public struct Scene: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var background: Color
    /// Drawn first to last; the first is the main text layer that `set-text` changes by default.
    public var layers: [TextLayer]

    public init(width: Int, height: Int, background: Color = .black, layers: [TextLayer]) {
        self.width = width
        self.height = height
        self.background = background
        self.layers = layers
    }

    /// The layer `set-text` addresses when no id is given.
    public var mainLayerID: String? { layers.first?.id }
}

/// An integer rectangle on the board, in pixels from the top-left corner.
public struct PixelRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A line of text in a rectangle of the board, scrolled as a marquee.
public struct TextLayer: Sendable, Equatable {
    /// The name requests use to address the layer.
    public var id: String
    /// UTF-8 text; control characters show as spaces.
    public var text: String
    /// Where the layer sits; `nil` is the whole board.
    public var frame: PixelRect?
    public var font: FontSpec
    /// Faces tried in order for characters the font lacks.
    public var fallbacks: [FontSpec]
    public var color: Color
    public var marquee: Marquee

    public init(
        id: String, text: String, frame: PixelRect? = nil, font: FontSpec = .defaultFace,
        fallbacks: [FontSpec] = [.unifont], color: Color = .white, marquee: Marquee = Marquee()
    ) {
        self.id = id
        self.text = text
        self.frame = frame
        self.font = font
        self.fallbacks = fallbacks
        self.color = color
        self.marquee = marquee
    }
}
