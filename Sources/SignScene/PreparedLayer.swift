import SignGraphics
import SignTiming

/// A layer tree made ready to draw: every text rasterised once (FreeType runs here, never
/// per frame), mirrored by the layer's sublayers and mask. Immutable and shared: a frame
/// passes it by reference, and its identity keys the compositor's cache of static pixels.
/// (`@unchecked`: its one pointer, `stored`, is written in `init` only.)
public final class PreparedLayer: @unchecked Sendable {
    /// The layer as given, its animations not applied.
    public var model: Layer { stored.pointee }
    /// Where the model is kept for the life of the tree, so the compositor reads it in place:
    /// a layer passed by value is copied on the way (its text, sublayers and animations
    /// retained, and released after).
    let stored: UnsafeMutablePointer<Layer>
    /// The model's animations, compiled for the frame loop (`LayerTrack`).
    let tracks: [LayerTrack]
    /// Each track updates a property of its own (`LayerTrack.updatedProperty`):
    /// `present(at:into:)` then writes only those.
    let updatesInPlace: Bool
    /// The rasterised line, for a text layer in one colour.
    public let text: AlphaBitmap?
    /// The line in its own colours, for marked-up text or text with colour glyphs.
    public let richText: ImageBitmap?
    /// Animated icons in the rich line, drawn over it at the frame's time.
    public let animatedIcons: [InlineIcon]
    /// Advance width of the text in pixels.
    public let textWidth: Double
    /// Characters no font in the chain could draw.
    public let missing: [Unicode.Scalar]
    public let sublayers: [PreparedLayer]
    public let mask: [PreparedLayer]
    /// Nothing in the tree animates: it draws the same at every time (for the same place),
    /// so the compositor may keep its pixels.
    public let isStatic: Bool
    /// What the tree draws in its own plane is the same at every time: nothing in it changes
    /// by itself, its sublayers and mask are static, and its own animations move only where
    /// and how opaque that drawing is placed (`ApartStore.placementOnly`). A resampled layer
    /// so is drawn apart once and kept while only its transform, position or opacity change.
    let isStillInPlane: Bool
    /// One drawing call paints all this tree shows (its content, or the content of its one
    /// plain sublayer; no background, border or nested group), whatever its animations do. A
    /// mask may then be applied to that call's paint instead of to an isolated copy of the
    /// tree: source-over of a single paint gives the same pixels either way.
    public let drawsOnce: Bool
    /// A path shape's kept coverage (`ShapeRaster`); `nil` for other content.
    let shapeRaster: ShapeRaster?
    /// An emitter's particles' kept birth attributes (`ParticleBirths`); `nil` for other content.
    let particleBirths: ParticleBirths?
    /// The rectangle, in the parent's coordinates, outside which this tree never draws
    /// whatever its animations do; `nil` when that is not known beforehand (its geometry
    /// animates, or a shape's path or unclipped sublayers may reach outside its frame). A
    /// tree whose extent misses the board is not evaluated at all.
    public let extent: Rect?
    /// Prepares `layer`; `icons` are the images `{icon:name}` in text refers to. A text in
    /// the tree drawn like `reusing`'s (same text, fonts and colour) takes its raster
    /// instead of being laid out again.
    public init(
        _ layer: Layer, fonts: FontLibrary, icons: [String: AnimatedImage] = [:], reusing known: TextRaster? = nil
    ) throws(FreeTypeError) {
        stored = .allocate(capacity: 1)
        stored.initialize(to: layer)
        tracks = layer.animations.map { LayerTrack($0, on: layer) }
        updatesInPlace = Self.updatesInPlace(tracks)
        if case .text(let content) = layer.content {
            let raster: TextRaster
            if let known, known.draws(content) {
                raster = known
            } else {
                raster = try TextRaster(content, fonts: fonts, icons: icons)
            }
            text = raster.text
            richText = raster.richText
            animatedIcons = raster.animatedIcons
            textWidth = raster.width
            missing = raster.missing
        } else {
            text = nil
            richText = nil
            animatedIcons = []
            textWidth = 0
            missing = []
        }
        sublayers = try layer.sublayers.map { sub throws(FreeTypeError) in
            try PreparedLayer(sub, fonts: fonts, icons: icons, reusing: known)
        }
        mask =
            try layer.mask.map { m throws(FreeTypeError) in
                [try PreparedLayer(m, fonts: fonts, icons: icons, reusing: known)]
            } ?? []
        // A stream changes whenever its sender sends, an animated image (or a text's animated
        // icon) with its frames: never kept as static pixels.
        var changesByItself = !animatedIcons.isEmpty
        if case .stream = layer.content { changesByItself = true }
        if case .image(let image) = layer.content, image.image.isAnimated { changesByItself = true }
        // An emitter's particles move with time whatever its animations do.
        if case .emitter = layer.content { changesByItself = true }
        isStatic =
            !changesByItself && layer.animations.isEmpty && sublayers.allSatisfy(\.isStatic) && mask.allSatisfy(\.isStatic)
        isStillInPlane =
            !changesByItself && ApartStore.placesOnly(layer) && sublayers.allSatisfy(\.isStatic)
            && mask.allSatisfy(\.isStatic)
        // A line with animated icons is several paints (the line, then each icon).
        drawsOnce = animatedIcons.isEmpty && Self.drawsOnce(layer, sublayers: sublayers) && !LayerShadow.mayCast(layer)
        extent = LayerShadow.extent(of: layer, drawing: Self.extent(layer, sublayers: sublayers))
        shapeRaster = Self.shapeRaster(layer)
        particleBirths = Self.particleBirths(layer)
    }

    /// A content-less layer holding trees already prepared (no FreeType work): how
    /// transitions wrap the text going out and the text coming in.
    public init(wrapping sublayers: [PreparedLayer], in layer: Layer) {
        stored = .allocate(capacity: 1)
        stored.initialize(to: layer)
        tracks = layer.animations.map { LayerTrack($0, on: layer) }
        updatesInPlace = Self.updatesInPlace(tracks)
        text = nil
        richText = nil
        animatedIcons = []
        textWidth = 0
        missing = []
        self.sublayers = sublayers
        mask = []
        isStatic = layer.animations.isEmpty && sublayers.allSatisfy(\.isStatic)
        isStillInPlane = ApartStore.placesOnly(layer) && sublayers.allSatisfy(\.isStatic)
        drawsOnce = Self.drawsOnce(layer, sublayers: sublayers) && !LayerShadow.mayCast(layer)
        extent = LayerShadow.extent(of: layer, drawing: Self.extent(layer, sublayers: sublayers))
        shapeRaster = Self.shapeRaster(layer)
        particleBirths = Self.particleBirths(layer)
    }

    /// The layer at its local time `t`: its model with its animations applied, as
    /// `Layer.presentation(at:)` has it, evaluated through the compiled tracks.
    public func presentation(at t: Double) -> Layer {
        var layer = model
        if !tracks.isEmpty { withUnsafeMutablePointer(to: &layer) { present(at: t, into: $0) } }
        return layer
    }

    deinit {
        stored.deinitialize(count: 1)
        stored.deallocate()
    }

    /// Presents the layer at its local time `t` in place: `layer` holds this layer's model,
    /// or a presentation of it this method made, and is made its presentation at `t` as
    /// `Layer.presentation(at:)` has it. When each track updates a property of its own, only
    /// those are written, each once: the layer is not copied, so nothing is retained or
    /// released.
    func present(at t: Double, into layer: UnsafeMutablePointer<Layer>) {
        if updatesInPlace {
            for track in tracks { track.update(atParentTime: t, on: layer) }
        } else {
            layer.pointee = model
            for track in tracks { track.apply(atParentTime: t, to: layer) }
        }
    }

    private static func particleBirths(_ layer: Layer) -> ParticleBirths? {
        guard case .emitter(let emitter) = layer.content else { return nil }
        return ParticleBirths(emitter)
    }

    private static func shapeRaster(_ layer: Layer) -> ShapeRaster? {
        guard case .shape(let shape) = layer.content, shape.pathData != nil else { return nil }
        return ShapeRaster()
    }

    /// Whether every track updates a property in place, and no two the same one (or one and
    /// a part of it): each then writes what no other does.
    private static func updatesInPlace(_ tracks: [LayerTrack]) -> Bool {
        var written: Set<LayerProperty> = []
        for track in tracks {
            guard let property = track.updatedProperty else { return false }
            let whole: LayerProperty
            switch property {
            case .positionX, .positionY: whole = .position
            case .translationX, .translationY: whole = .translation
            // `transform.scale` writes all three scales.
            case .scaleX, .scaleY, .scaleZ: whole = .scale
            case .rotationZ: whole = .rotation
            case .shadowOffsetWidth, .shadowOffsetHeight: whole = .shadowOffset
            default: whole = property
            }
            guard written.insert(whole).inserted else { return false }
        }
        return true
    }

    /// Key paths that move or resize a layer.
    private static let geometry: Set<LayerProperty> = [
        .position, .positionX, .positionY, .bounds, .boundsSize, .anchorPoint, .translation, .translationX,
        .translationY, .scale, .scaleX, .scaleY, .scaleZ, .rotation, .rotationX, .rotationY, .rotationZ,
    ]

    private static func extent(_ layer: Layer, sublayers: [PreparedLayer]) -> Rect? {
        guard layer.animations.allSatisfy({ Self.geometry.isDisjoint(with: $0.keyPaths) }) else { return nil }
        // A resampled layer, or sublayers placed by a sublayer transform, may reach anywhere.
        guard !layer.isResampled, layer.sublayerTransform.isTranslation, layer.replicator == nil else { return nil }
        if layer.masksToBounds { return layer.frame }
        guard sublayers.isEmpty else { return nil }
        switch layer.content {
        // Particles fly past the frame unless it clips them.
        case .shape, .emitter: return nil
        // A repeating strip runs on sideways past its frame.
        case .text(let t) where t.repeatGap != nil: return nil
        // Background, border, gradient, image and (clipped) text stay inside the frame.
        default: return layer.frame
        }
    }

    private static func drawsOnce(_ layer: Layer, sublayers: [PreparedLayer]) -> Bool {
        let animated = Set(layer.animations.flatMap(\.keyPaths))
        // A resampled layer is drawn apart and then placed: never one paint.
        guard !layer.isResampled, layer.sublayerTransform.isTranslation, layer.replicator == nil,
            animated.isDisjoint(with: [.scale, .scaleX, .scaleY, .scaleZ, .rotation, .rotationX, .rotationY, .rotationZ])
        else { return false }
        guard (layer.backgroundColor?.alpha ?? 0) == 0, layer.borderWidth == 0,
            animated.isDisjoint(with: [.backgroundColor, .borderWidth])
        else { return false }
        switch layer.content {
        case .none:
            // A container of one leaf that is not drawn apart (no mask, no rounded clip).
            guard sublayers.count == 1, let only = sublayers.first else { return false }
            let model = only.model
            let roundedClip =
                model.masksToBounds
                && (model.cornerRadius > 0 || model.animations.contains { $0.keyPaths.contains(.cornerRadius) })
            return only.drawsOnce && only.mask.isEmpty && only.sublayers.isEmpty && !roundedClip
        case .emitter:
            // Each particle is a paint of its own.
            return false
        case .shape(let shape):
            // A fill and a stroke are two paints.
            return sublayers.isEmpty && (shape.fill == nil || shape.stroke == nil)
                && animated.isDisjoint(with: [.fillColor, .strokeColor])
        default:
            return sublayers.isEmpty
        }
    }

    /// Every text drawn by this tree, depth first (the layer's own, its mask's, its sublayers').
    public var missingCharacters: [Unicode.Scalar] {
        missing + mask.flatMap(\.missingCharacters) + sublayers.flatMap(\.missingCharacters)
    }
}

extension Animation {
    /// Every key path the animation (or a group's children) animates.
    var keyPaths: [Key] {
        switch self {
        case .property(let a): return [a.keyPath]
        case .group(let g): return g.animations.flatMap(\.keyPaths)
        }
    }
}

/// A line of text laid out and rasterised (FreeType's work, done once per text change).
public struct TextRaster: Sendable {
    /// What was laid out, to tell whether another layer draws the same pixels.
    let content: TextContent
    /// The line in one colour, or `nil` when it is rich.
    public let text: AlphaBitmap?
    /// The line in its own colours, for marked-up text or text with colour glyphs.
    public let richText: ImageBitmap?
    /// Animated icons, drawn over `richText` at the frame's time.
    public let animatedIcons: [InlineIcon]
    /// Advance width in pixels.
    public let width: Double
    /// Characters no font in the chain could draw.
    public let missing: [Unicode.Scalar]
    /// The text's base direction is right to left.
    public let isRightToLeft: Bool

    /// Lays out and rasterises `content`.
    public init(_ content: TextContent, fonts: FontLibrary, icons: [String: AnimatedImage] = [:]) throws(FreeTypeError) {
        self.content = content
        if let rich = try RichTextRaster(content, icons: icons, fonts: fonts) {
            text = nil
            richText = rich.image
            animatedIcons = rich.animatedIcons
            width = Double(rich.width)
            missing = rich.missing
            isRightToLeft = rich.isRightToLeft
        } else {
            let run = try fonts.layout(
                content.text, primary: content.font, fallbacks: content.fallbacks, direction: content.direction,
                features: content.features)
            text = run.rasterize()
            richText = nil
            animatedIcons = []
            width = Double(run.width)
            missing = run.missing
            isRightToLeft = run.isRightToLeft
        }
    }

    /// Whether this raster is what `other` draws (how it repeats and aligns does not matter).
    func draws(_ other: TextContent) -> Bool {
        other.text == content.text && other.font == content.font && other.fallbacks == content.fallbacks
            && other.color == content.color && other.direction == content.direction
            && other.features == content.features
    }
}
