import SignGraphics
import SignTiming

/// What a sign shows: a board of `width x height` pixels, a background, and layers drawn
/// in order. A value: the daemon builds a new one to change anything.
public struct Scene: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var background: Color
    /// Drawn first to last; the first that shows text is the main text layer.
    public var layers: [SceneLayer]
    /// Images text may show inline as `{icon:name}`.
    public var icons: [String: AnimatedImage] = [:]

    public init(width: Int, height: Int, background: Color = .black, layers: [SceneLayer]) {
        self.width = width
        self.height = height
        self.background = background
        self.layers = layers
    }

    /// A scene of marquee text layers only.
    public init(width: Int, height: Int, background: Color = .black, layers: [TextLayer]) {
        self.init(width: width, height: height, background: background, layers: layers.map { .marquee($0) })
    }

    /// The layer `set-text` addresses when no id is given: the first that shows text.
    public var mainLayerID: String? { (layers.first { $0.text != nil } ?? layers.first)?.id }
}

/// One top-level layer of a scene: a marquee (text that scrolls with faded edges) or any
/// layer tree (gradients, shapes, masked text, with their animations).
public enum SceneLayer: Sendable, Equatable {
    case marquee(TextLayer)
    case layer(Layer)
    case spotlight(Spotlight)

    public var id: String {
        switch self {
        case .marquee(let t): return t.id
        case .layer(let l): return l.id
        case .spotlight(let s): return s.id
        }
    }

    /// The text the layer shows, if any.
    public var text: String? {
        switch self {
        case .marquee(let t): return t.text
        case .layer(let l): return l.firstText
        case .spotlight: return nil
        }
    }

    /// The same layer showing `text`; `nil` when it shows no text.
    public func withText(_ text: String) -> SceneLayer? {
        switch self {
        case .marquee(var t):
            t.text = text
            return .marquee(t)
        case .layer(let l):
            return l.replacingText(with: text).map { .layer($0) }
        case .spotlight:
            return nil
        }
    }
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
    /// The text's base direction (UAX #9): from its first strong letter, or set.
    public var direction: TextDirection = .auto
    /// OpenType features the text is shaped with (`font_features`), in HarfBuzz's syntax.
    public var features: [FontFeature] = []
    public var color: Color
    public var marquee: Marquee
    /// Animations of the text itself (e.g. a `foregroundColor` pulse), by key path.
    public var textAnimations: [LayerAnimation]
    /// How a new text replaces the old one (`set-text` may choose another).
    public var transition: Transition

    public init(
        id: String, text: String, frame: PixelRect? = nil, font: FontSpec = .defaultFace,
        fallbacks: [FontSpec] = [.unifont], color: Color = .white, marquee: Marquee = Marquee(),
        textAnimations: [LayerAnimation] = [], transition: Transition = .cut
    ) {
        self.id = id
        self.text = text
        self.frame = frame
        self.font = font
        self.fallbacks = fallbacks
        self.color = color
        self.marquee = marquee
        self.textAnimations = textAnimations
        self.transition = transition
    }
}
