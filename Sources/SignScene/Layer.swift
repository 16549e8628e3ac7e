import SignGraphics
import SignTiming

/// A layer as Core Animation has it: geometry (bounds, position, anchorPoint, a translation),
/// appearance (opacity, background, border, corner radius), content (text, gradient, shape
/// or image), a mask, sublayers, and animations by key path. A value: scenes are rebuilt, not
/// mutated in place.
public struct Layer: Sendable, Equatable {
    /// What the layer draws between its background and its sublayers.
    public enum Content: Sendable, Equatable {
        case none
        /// `CATextLayer`-like: one line of text in one colour (`foregroundColor`).
        case text(TextContent)
        /// `CAGradientLayer`: `colors`, `locations`, `startPoint`, `endPoint`, `type`.
        case gradient(Gradient)
        /// `CAShapeLayer`: a rounded rectangle or SVG path data, filled and stroked.
        case shape(ShapeContent)
        /// `contents` set to an image, stretched to the bounds.
        case image(ImageContent)
        /// Pixels another program streams (DDP, E1.31, Art-Net), the newest complete frame.
        case stream(StreamContent)
        /// `CAEmitterLayer`: particles from its cells, a pure function of the layer's time.
        case emitter(EmitterContent)
    }

    public var id: String
    public var content: Content
    /// Size of the layer (`bounds.size`); its own coordinates start at (0, 0).
    public var size: Size
    /// Where the anchor point sits in the superlayer's coordinates.
    public var position: Point
    /// The point of the layer (unit coordinates) placed at `position`; default the centre.
    public var anchorPoint: Point
    /// `transform.translation`: the translation part of `transform`.
    public var translation: Point {
        get { transform.translation }
        set { transform.translation = newValue }
    }
    /// `transform`, applied about the anchor point (`anchorPoint`, `anchorPointZ`). A layer
    /// whose transform is only a translation is drawn in place; any other is drawn apart at
    /// its own size and resampled (see `Compositor`).
    public var transform = LayerTransform.identity
    /// `sublayerTransform`: applied to the sublayers (after their own transforms), about
    /// this layer's anchor point, as Core Animation applies it; where a perspective for
    /// flipping sublayers goes.
    public var sublayerTransform = LayerTransform.identity
    /// `anchorPointZ`: the anchor's place on the z axis, in pixels.
    public var anchorPointZ = 0.0
    /// `magnificationFilter`, used when a transform draws the layer larger than it is.
    public var magnificationFilter = ResamplingFilter.linear
    /// `minificationFilter`, used when a transform draws the layer smaller than it is.
    public var minificationFilter = ResamplingFilter.linear

    /// Set, the layer is a `CAReplicatorLayer`: its sublayers are drawn once per instance.
    public var replicator: Replicator?

    /// The layer is drawn in place: its transform is only a translation.
    @inline(__always)
    public var isResampled: Bool { !transform.isTranslation }
    public var opacity: Double
    public var backgroundColor: Color?
    public var borderColor: Color?
    public var borderWidth: Double
    public var cornerRadius: Double
    public var masksToBounds: Bool
    public var isHidden: Bool
    /// Whole-pixel (`pixel`) or fractional (`smooth`) placement when the layer moves.
    public var motion: Marquee.Motion
    /// A layer whose alpha masks this one, in this layer's coordinates.
    public var mask: Layer? {
        get { masks.first }
        set { masks = newValue.map { [$0] } ?? [] }
    }
    private var masks: [Layer] = []
    public var sublayers: [Layer]
    /// CALayer's shadow, drawn beneath the layer (`LayerShadow`): `shadowColor` (opaque
    /// black), `shadowOpacity` (0: none), `shadowRadius` (σ of the Gaussian, in pixels),
    /// `shadowOffset` ((0, -3) as on iOS, y down: cast upwards), Core Animation's defaults.
    public var shadowColor = Color.black
    public var shadowOpacity = 0.0
    public var shadowRadius = 3.0
    public var shadowOffset = Size(width: 0, height: -3)
    /// `shadowPath`: when set, the shadow is this path filled (non-zero, in the layer's
    /// coordinates) instead of the layer's alpha, as Core Animation draws it.
    public var shadowPath: Path?
    /// Applied in order; each reads the value the ones before it left.
    public var animations: [LayerAnimation]
    /// CAMediaTiming on the layer, as `CALayer` adopts it: its local time, for its own
    /// animations, its mask and its sublayers, is `(parent time - beginTime) * speed +
    /// timeOffset`, repeated, autoreversed and filled when it has a `duration` (0: its time
    /// runs on without end; see `MediaTiming.layerTime(atParentTime:)`). Speed 0 holds a tree
    /// still at `timeOffset`: the pause idiom a notification uses on what it covers. A
    /// `beginTime` counts from when the layer was added (`resolvingBeginTimes(to:)`).
    public var timing = MediaTiming()
    /// `timing.speed`: the rate of the layer's time against its superlayer's.
    public var speed: Double {
        get { timing.speed }
        set { timing.speed = newValue }
    }
    /// `timing.timeOffset`: added to the layer's local time.
    public var timeOffset: Double {
        get { timing.timeOffset }
        set { timing.timeOffset = newValue }
    }

    /// When an animated image's frames (its own, or its text's inline icons') begin, in the
    /// layer's local time: when it was added, as an animation added with it
    /// (`resolvingBeginTimes(to:)`). Core Animation would play them as a discrete
    /// `CAKeyframeAnimation` on `contents` added with the layer.
    public var contentsBeginTime = 0.0

    /// The layer's local time at its parent's time `t`; `nil` when the layer has no time then
    /// (outside its active window with no fill that way): its tree then shows its model
    /// values, as an animation group's children do outside the group's window.
    @inline(__always)
    public func localTime(_ t: Double) -> Double? { timing.layerTime(atParentTime: t) }

    public init(
        id: String = "", content: Content = .none, frame: Rect = .zero, opacity: Double = 1,
        backgroundColor: Color? = nil, cornerRadius: Double = 0, masksToBounds: Bool = false,
        sublayers: [Layer] = [], animations: [LayerAnimation] = []
    ) {
        self.id = id
        self.content = content
        self.size = frame.size
        self.anchorPoint = Point(x: 0.5, y: 0.5)
        self.position = Point(x: frame.minX + frame.width / 2, y: frame.minY + frame.height / 2)
        self.opacity = opacity
        self.backgroundColor = backgroundColor
        self.borderColor = nil
        self.borderWidth = 0
        self.cornerRadius = cornerRadius
        self.masksToBounds = masksToBounds
        self.isHidden = false
        self.motion = .smooth
        self.sublayers = sublayers
        self.animations = animations
    }

    /// This layer with the first text found (its own, then its mask's, then its sublayers')
    /// replaced; `nil` when the tree shows no text.
    public func replacingText(with text: String) -> Layer? {
        var copy = self
        if case .text(var content) = content {
            content.text = text
            copy.content = .text(content)
            return copy
        }
        if let mask, let replaced = mask.replacingText(with: text) {
            copy.mask = replaced
            return copy
        }
        for (i, sublayer) in sublayers.enumerated() {
            if let replaced = sublayer.replacingText(with: text) {
                copy.sublayers[i] = replaced
                return copy
            }
        }
        return nil
    }

    /// The first text the tree shows, in the order `replacingText` looks.
    public var firstText: String? {
        if case .text(let content) = content { return content.text }
        return mask?.firstText ?? sublayers.lazy.compactMap(\.firstText).first
    }

    /// This tree with every layer's animations whose `beginTime` is 0 starting at `time`
    /// ("when added", as Core Animation resolves it), `time` being in this layer's parent's
    /// time. Animations inside groups keep theirs: they count from the group's start. A layer
    /// with a time of its own has its `beginTime` counted from `time` too, and what it holds
    /// is added at its local time 0: the whole subtree starts when the layer's time begins,
    /// and its `timeOffset` shifts all of it, as an animation group delays and shifts its
    /// children.
    public func resolvingBeginTimes(to time: Double) -> Layer {
        var copy = self
        var added = time
        if !timing.isLayerIdentity {
            copy.timing.beginTime = time + timing.beginTime
            added = 0
        }
        if contentsBeginTime == 0 { copy.contentsBeginTime = added }
        copy.animations = animations.map { animation in
            switch animation {
            case .property(var a) where a.timing.beginTime == 0:
                a.timing.beginTime = added
                return .property(a)
            case .group(var g) where g.timing.beginTime == 0:
                g.timing.beginTime = added
                return .group(g)
            default:
                return animation
            }
        }
        copy.sublayers = sublayers.map { $0.resolvingBeginTimes(to: added) }
        copy.mask = mask?.resolvingBeginTimes(to: added)
        return copy
    }

    /// The layer's rectangle in its superlayer's coordinates.
    public var frame: Rect {
        Rect(
            x: position.x - anchorPoint.x * size.width + translation.x,
            y: position.y - anchorPoint.y * size.height + translation.y, width: size.width, height: size.height)
    }
}

/// A line of text drawn by a text layer.
public struct TextContent: Sendable, Hashable {
    public var text: String
    public var font: FontSpec
    public var fallbacks: [FontSpec]
    /// `foregroundColor`.
    public var color: Color
    /// Where the line sits horizontally when it is narrower than the layer.
    public var alignment: Alignment
    /// When set, the text repeats to the left and right with this much space between copies
    /// (a marquee's strip).
    public var repeatGap: Double?
    /// The text's base direction (UAX #9): from its first strong letter, or set.
    public var direction: TextDirection = .auto
    /// OpenType features the text is shaped with (`font_features`), in HarfBuzz's syntax.
    public var features: [FontFeature] = []

    public enum Alignment: String, Sendable, Hashable, CaseIterable {
        case left, center, right
    }

    public init(
        text: String, font: FontSpec = .defaultFace, fallbacks: [FontSpec] = [.unifont], color: Color = .white,
        alignment: Alignment = .left, repeatGap: Double? = nil
    ) {
        self.text = text
        self.font = font
        self.fallbacks = fallbacks
        self.color = color
        self.alignment = alignment
        self.repeatGap = repeatGap
    }
}

/// A shape layer's path, filled and/or stroked (the stroke may be a gradient): a rounded
/// rectangle, or any path given as SVG path data (`pathData`), drawn with CAShapeLayer's
/// fill rule and stroke style.
public struct ShapeContent: Sendable, Hashable {
    /// In the layer's own coordinates; unused when `pathData` is set.
    public var path: RoundedRect
    /// `CAShapeLayer.path` as any path, in the layer's own coordinates: drawn by
    /// `PathRasterizer` with `fillRule` and `strokeStyle` instead of `path`.
    public var pathData: Path?
    public var fill: Canvas.Paint?
    public var stroke: Canvas.Paint?
    /// `fillRule`: which parts of a path crossing itself are inside (`pathData` only).
    public var fillRule: FillRule = .nonZero
    /// `lineWidth`, and for `pathData` the caps, joins, miter limit, dashes and
    /// `strokeStart` / `strokeEnd`.
    public var strokeStyle = StrokeStyle()
    public var lineWidth: Double {
        get { strokeStyle.lineWidth }
        set { strokeStyle.lineWidth = newValue }
    }
    /// Fill the layer's bounds except the path: what an even-odd path of the bounds plus the
    /// rounded rectangle fills (a spotlight's dimmed surround with its hole).
    public var fillsOutside: Bool

    public init(
        path: RoundedRect, fill: Canvas.Paint? = nil, stroke: Canvas.Paint? = nil, lineWidth: Double = 1,
        fillsOutside: Bool = false
    ) {
        self.path = path
        self.fill = fill
        self.stroke = stroke
        self.fillsOutside = fillsOutside
        self.lineWidth = lineWidth
    }
}

/// An image layer's contents: a decoded PNG, GIF or WebP (its frames, one for a still
/// image), how it is scaled to the bounds and how often its frames play.
public struct ImageContent: Sendable, Equatable {
    /// Where the image came from (for messages).
    public var source: String
    /// The frames, each composed onto the whole canvas.
    public var image: AnimatedImage
    public var scaling: ImageBitmap.Scaling
    /// How many times the frames play (`loop`): as the file says by default.
    public var loop: ImageLoop

    /// The first frame (a still image's only one).
    public var bitmap: ImageBitmap { image.first }

    public init(source: String, bitmap: ImageBitmap, scaling: ImageBitmap.Scaling = .linear) {
        self.init(source: source, image: AnimatedImage(still: bitmap), scaling: scaling)
    }

    public init(source: String, image: AnimatedImage, scaling: ImageBitmap.Scaling = .linear, loop: ImageLoop = .file) {
        self.source = source
        self.image = image
        self.scaling = scaling
        self.loop = loop
    }

    /// The frame shown at the layer's local time `t` when the frames began at `beginTime`
    /// (`Layer.contentsBeginTime`): the implicit discrete keyframe animation on `contents`
    /// evaluated (`AnimatedImage.frameIndex(at:plays:)`).
    @inlinable
    public func frameIndex(at t: Double, beginTime: Double) -> Int {
        image.frameIndex(at: t - beginTime, plays: loop.plays(of: image))
    }
}
