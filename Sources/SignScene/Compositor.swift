import SignGraphics

/// Draws prepared layer trees as Core Animation composites them: each layer's background,
/// content, sublayers and border, premultiplied source-over; a layer with a mask, group
/// opacity or rounded clipping is drawn apart and then composited. The walk is here; what is
/// kept between frames is the static subtrees' pixels (`SubtreeCache`) and what the board
/// holds (`BoardSeed`). It owns its canvases and reuses them, so a frame allocates nothing
/// once the first has been drawn.
public final class Compositor {
    public let width: Int
    public let height: Int
    /// Canvas 0 is the board; the rest are scratch, two per nesting depth (content, mask).
    var canvases: [Canvas]
    /// Static subtrees' kept pixels; `nil` for the compositor that fills them.
    private let cache: SubtreeCache?
    private var seed = BoardSeed<StillLayers>()
    /// The animated layers' presentations, kept between frames.
    private let presentations = PresentationStore()
    /// The still layers the board starts from, while they stay the same.
    private var still: StillLayers?
    /// Which of the frame's trees they are, chosen again only when the trees change.
    private var chosen: [Int] = []
    /// The top-level trees `chosen` was chosen from, held so their identities stay theirs.
    private var chosenFrom: [PreparedLayer] = []
    /// Scratch for choosing, kept so a frame allocates nothing.
    private var blockers: [StillLayers.Box] = []
    /// Where a resampled layer is drawn apart at its own size before it is placed
    /// (`drawResampled`): a compositor of its own (its own scratch canvases, its own
    /// resampled layers nested below), made when a layer first needs one and grown only
    /// when a layer needs more, so steady frames allocate nothing.
    var apart: Compositor?
    /// Resampled layers' drawings apart, kept while only their placement changes.
    let aparts = ApartStore()
    /// Layers' shadows, blurred with buffers kept between frames (`LayerShadow`).
    let shadows: ShadowStore

    /// Where a tree is drawn: the canvas, its parent's origin on the board, the clip, the
    /// nesting depth (which scratch canvases are free), its parent's time (NaN: the parent
    /// has no time now), and the coverage mask every paint into the target carries.
    struct DrawContext {
        var target: Int
        var origin: Point
        var clip: Rect
        var depth: Int
        var time: Double
        var mask: CoverageMask?
        /// The superlayer's `sublayerTransform` about its anchor point, in its own
        /// coordinates (from `origin`), when it is more than a translation.
        var sublayerTransform: Transform3D? = nil
        /// Drawn for a replicator's instance after the first: never from the static cache,
        /// which keeps one place per tree.
        var replica = false
        /// The layer drawn is drawn apart to be projected, and its shadow is made where it is
        /// projected (`LayerShadow.isProjected`), not in its plane here. Not passed down.
        var shadowProjected = false
    }

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        canvases = [Canvas(width: width, height: height)]
        shadows = ShadowStore(width: width, height: height)
        let builder = Compositor(uncachedWidth: width, height: height)
        cache = SubtreeCache(width: width, height: height) { layer, origin, clip, canvas in
            builder.draw(layer, origin: origin, clip: clip, into: &canvas)
        }
    }

    init(uncachedWidth width: Int, height: Int) {
        self.width = width
        self.height = height
        canvases = [Canvas(width: width, height: height)]
        shadows = ShadowStore(width: width, height: height)
        cache = nil
    }

    /// Static subtrees drawn into the cache since the frame began.
    public var cacheFills: Int { cache?.fills ?? 0 }

    /// Shadows blurred since the frame began (a kept one drawn again is not counted).
    public var shadowBlurs: Int { shadows.blurs }

    var board: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// Starts a frame whose top-level layers (in board coordinates) are `trees`, in drawing
    /// order: the board is made what the frame starts from, their still layers
    /// (`StillLayers`), which `draw` then passes over.
    public func begin(_ trees: [(tree: PreparedLayer, time: Double)]) {
        seed.begin()
        cache?.beginFrame()
        beginPresentations()
        // Which trees are still depends on the trees alone (whether each is static, where its
        // pixels are or may be), so a frame drawing the trees the last one drew keeps its
        // choice: a steady frame neither looks them up in the cache nor compares their boxes.
        if !sameTrees(trees) {
            chooseStill(trees)
            prepareApart(for: trees)
            chosenFrom.removeAll(keepingCapacity: true)
            for entry in trees { chosenFrom.append(entry.tree) }
        }
        prepareBoard(startingFrom: chosen.isEmpty ? nil : still)
    }

    /// A frame begins for the presentations kept here and in the compositors below.
    func beginPresentations() {
        presentations.beginFrame()
        shadows.beginFrame()
        aparts.beginFrame()
        apart?.beginPresentations()
    }

    /// Whether `trees` are the ones the still layers were chosen from, in the same order.
    private func sameTrees(_ trees: [(tree: PreparedLayer, time: Double)]) -> Bool {
        chosenFrom.withUnsafeBufferPointer { held in
            guard held.count == trees.count else { return false }
            for i in held.indices where held[i] !== trees[i].tree { return false }
            return true
        }
    }

    /// Chooses the still layers of `trees` into `chosen`, compositing them again when they
    /// are not the ones kept.
    private func chooseStill(_ trees: [(tree: PreparedLayer, time: Double)]) {
        // The scratch arrays are worked on as locals (taken out and put back): each access to
        // a class's stored array is checked for exclusivity at run time.
        var (chosen, blockers) = ([Int](), [StillLayers.Box]())
        swap(&chosen, &self.chosen)
        swap(&blockers, &self.blockers)
        defer {
            swap(&chosen, &self.chosen)
            swap(&blockers, &self.blockers)
        }
        chosen.removeAll(keepingCapacity: true)
        guard let cache else { return }
        let board = self.board, (w, h) = (width, height)
        StillLayers.choose(
            count: trees.count, isStill: { trees[$0].tree.isStatic },
            box: { i -> StillLayers.Box? in
                let tree = trees[i].tree
                if tree.isStatic { return cache.occupied(tree, origin: .zero, clip: board) }
                return tree.extent.map { $0.pixelBounds(clippedTo: w, h) }
            }, into: &chosen, blockers: &blockers)
        if !chosen.isEmpty, still?.holds(chosen, of: trees) != true {
            // Drawn again only when the still layers change (a text set, a reload).
            var canvas = Canvas(width: width, height: height)
            for i in chosen {
                cache.composite(trees[i].tree, origin: .zero, clip: board, onto: &canvas)
            }
            still = StillLayers(layers: chosen.map { trees[$0].tree }, canvas: canvas)
        }
    }

    /// Draws a top-level layer (in board coordinates) at scene time `t`; a still one is on
    /// the board already. Returns whether it was drawn (false: it is still).
    @discardableResult
    public func draw(_ layer: PreparedLayer, at t: Double) -> Bool {
        if let start = seed.start, start.contains(layer) { return false }
        draw(layer, DrawContext(target: 0, origin: .zero, clip: board, depth: 1, time: t))
        return true
    }

    /// Finishes a frame: the board over an opaque background, into `frame`, the board reset
    /// as it goes to what the next frame starts from.
    public func finish(over background: Color, into frame: inout Frame) {
        canvases[0].write(into: &frame, over: background, resettingTo: seed.finish()?.canvas)
    }

    private func prepareBoard(startingFrom still: StillLayers?) {
        switch seed.prepare(startingFrom: still) {
        case .none: break
        case .clear: canvases[0].clear()
        case .copy(let still): canvases[0].copy(from: still.canvas)
        }
    }

    /// Draws `layer` at `origin` within `clip` onto `canvas` (transparent), at time 0.
    private func draw(_ layer: PreparedLayer, origin: Point, clip: Rect, into canvas: inout Canvas) {
        swap(&canvases[0], &canvas)
        draw(layer, DrawContext(target: 0, origin: origin, clip: clip, depth: 1, time: 0))
        swap(&canvases[0], &canvas)
    }

    /// Scratch canvas `index`, transparent within `bounds` (nothing outside them is read).
    func scratch(_ index: Int, clearing bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Int {
        while canvases.count <= index { canvases.append(Canvas(width: width, height: height)) }
        canvases[index].clear(bounds)
        return index
    }

    func draw(_ prepared: PreparedLayer, _ context: DrawContext) {
        if let cache, prepared.isStatic, context.mask == nil, context.sublayerTransform == nil, !context.replica {
            // Source-over is associative: the kept pixels composited equal the tree drawn.
            cache.composite(prepared, origin: context.origin, clip: context.clip, onto: &canvases[context.target])
            return
        }
        // A tree that cannot reach the clip is not even evaluated.
        if let extent = prepared.extent, context.sublayerTransform == nil {
            let reach = extent.offsetBy(dx: context.origin.x, dy: context.origin.y).intersection(context.clip)
            guard reach.width > 0, reach.height > 0 else { return }
        }
        // The layer is read where it is, never copied: a layer's copy retains its text,
        // sublayers and animations, and releases them after. The model is what shows, or a
        // presentation kept from the last frame and brought to this one.
        // A layer with no time now (outside its active window) shows its model, and so does
        // its tree: NaN, the time it passes down, is no time to every layer below.
        let t = prepared.stored.pointee.localTime(context.time) ?? .nan
        if prepared.tracks.isEmpty || t.isNaN {
            draw(prepared, showing: UnsafePointer(prepared.stored), at: t, context)
        } else {
            draw(prepared, showing: presentations.present(prepared, at: t), at: t, context)
        }
    }

    /// Draws `prepared` showing `layer`, its presentation at its local time `t`.
    private func draw(
        _ prepared: PreparedLayer, showing layer: UnsafePointer<Layer>, at t: Double, _ context: DrawContext
    ) {
        guard !layer.pointee.isHidden, layer.pointee.opacity > 0 else { return }
        if layer.pointee.isResampled || context.sublayerTransform != nil {
            drawResampled(prepared, showing: layer, at: t, context)
            return
        }
        let frame = layer.pointee.frame.offsetBy(dx: context.origin.x, dy: context.origin.y)
        draw(prepared, showing: layer, at: t, frame: frame, opacity: layer.pointee.opacity, context)
    }

    /// Draws `prepared` showing `layer` at `frame` untransformed, at `opacity` (its own, or 1
    /// when it is drawn apart to be resampled).
    func draw(
        _ prepared: PreparedLayer, showing layer: UnsafePointer<Layer>, at t: Double, frame: Rect, opacity: Double,
        _ context: DrawContext
    ) {
        let rounded = layer.pointee.masksToBounds && layer.pointee.cornerRadius > 0
        var here = context
        here.time = t
        here.sublayerTransform = nil
        // A static mask over a tree that one drawing call paints masks that call's paint
        // directly: no copy of the tree to clear, mask and composite.
        if let cache, let mask = prepared.mask.first, mask.isStatic, !rounded, prepared.drawsOnce,
            opacity == 1 || prepared.sublayers.isEmpty, context.mask == nil
        {
            let kept = cache.mask(mask, origin: frame.origin)
            let o = kept.occupied
            guard o.x0 < o.x1 else { return }
            here.clip = context.clip.intersection(
                Rect(x: Double(o.x0), y: Double(o.y0), width: Double(o.x1 - o.x0), height: Double(o.y1 - o.y0)))
            here.mask = kept.coverage
            draw(layer, prepared, frame: frame, opacity: opacity, rounded: false, isolate: false, here)
            return
        }
        // A shadow is made from the layer's alpha drawn apart.
        let isolate =
            !prepared.mask.isEmpty || rounded || (opacity < 1 && !prepared.sublayers.isEmpty)
            || (LayerShadow.casts(layer.pointee) && !context.shadowProjected)
        draw(layer, prepared, frame: frame, opacity: opacity, rounded: rounded, isolate: isolate, here)
    }

    /// Draws a presentation layer at `frame`: into the context's target, or drawn apart
    /// (`isolate`) and then masked, clipped and composited into it.
    private func draw(
        _ layer: UnsafePointer<Layer>, _ prepared: PreparedLayer, frame: Rect, opacity groupOpacity: Double,
        rounded: Bool, isolate: Bool, _ context: DrawContext
    ) {
        let clip = context.clip
        // Everything of an isolated layer that is used lies within its clip.
        let inside = frame.intersection(clip)
        let area = (layer.pointee.masksToBounds ? inside : clip).pixelBounds(clippedTo: width, height)
        let dst = isolate ? scratch(context.depth * 2, clearing: area) : context.target
        let opacity = Float(isolate ? 1 : groupOpacity)
        let outline = RoundedRect(rect: frame, cornerRadius: layer.pointee.cornerRadius)
        // The paints into the target carry its mask; an isolated layer is masked afterwards.
        let mask = isolate ? nil : context.mask

        if let background = layer.pointee.backgroundColor, background.alpha > 0 {
            canvases[dst].draw(outline, paint: .color(background), opacity: opacity, clip: clip, mask: mask)
        }
        switch layer.pointee.content {
        case .none:
            break
        case .gradient(let gradient):
            if layer.pointee.cornerRadius > 0 {
                canvases[dst].draw(outline, gradient: gradient, opacity: opacity, clip: clip, mask: mask)
            } else {
                canvases[dst].fill(frame, with: gradient, opacity: opacity, clip: clip, mask: mask)
            }
        case .text(let content):
            let lineHeight = prepared.text?.height ?? prepared.richText?.height ?? 0
            var x = frame.minX
            switch content.alignment {
            case .left: break
            case .center: x += ((frame.width - prepared.textWidth) / 2).rounded(.down)
            case .right: x += frame.width - prepared.textWidth
            }
            let origin = Point(x: x, y: frame.minY + ((frame.height - Double(lineHeight)) / 2).rounded(.down))
            // A repeating strip is endless sideways: only its rows are bounded by the layer.
            let textClip =
                content.repeatGap == nil
                ? inside : Rect(x: clip.minX, y: inside.minY, width: clip.width, height: inside.height)
            let period = content.repeatGap.map { prepared.textWidth + $0 }
            if let bitmap = prepared.text {
                canvases[dst].draw(
                    bitmap, at: origin, color: content.color, opacity: opacity, smooth: layer.pointee.motion == .smooth,
                    tilePeriod: period, clip: textClip, mask: mask)
            } else if let rich = prepared.richText {
                canvases[dst].draw(
                    rich, at: origin, opacity: opacity, smooth: layer.pointee.motion == .smooth, tilePeriod: period,
                    clip: textClip, mask: mask)
                // Animated icons over the line, each at its frame now.
                for icon in prepared.animatedIcons {
                    let shown = icon.frameIndex(at: context.time, beginTime: layer.pointee.contentsBeginTime)
                    canvases[dst].draw(
                        icon.frames[shown], at: Point(x: origin.x + Double(icon.x), y: origin.y), opacity: opacity,
                        smooth: layer.pointee.motion == .smooth, tilePeriod: period, clip: textClip, mask: mask)
                }
            }
        case .image(let image):
            // A GIF's or WebP's frame at the layer's local time (a still image's only one).
            let shown = image.frameIndex(at: context.time, beginTime: layer.pointee.contentsBeginTime)
            canvases[dst].draw(
                image.image.frames[shown], in: frame, scaling: image.scaling, opacity: opacity, clip: clip, mask: mask)
        case .stream(let stream):
            if let bitmap = stream.feed.current {
                canvases[dst].draw(bitmap, in: frame, scaling: .nearest, opacity: opacity, clip: clip, mask: mask)
            }
        case .emitter(let emitter):
            canvases[dst].draw(
                emitter, at: context.time, origin: frame.origin, opacity: opacity, clip: clip, mask: mask,
                births: prepared.particleBirths)
        case .shape(let shape) where shape.pathData != nil:
            prepared.shapeRaster?.draw(
                shape, origin: frame.origin, opacity: opacity, clip: clip, mask: mask, on: &canvases[dst])
        case .shape(let shape):
            let path = RoundedRect(
                rect: shape.path.rect.offsetBy(dx: frame.minX, dy: frame.minY), cornerRadius: shape.path.cornerRadius)
            if shape.fillsOutside, case .color(let color)? = shape.fill {
                canvases[dst].fill(outside: path, within: frame, color: color, opacity: opacity, clip: clip, mask: mask)
            } else if let fill = shape.fill {
                canvases[dst].draw(path, paint: fill, opacity: opacity, clip: clip, mask: mask)
            }
            if let stroke = shape.stroke, shape.lineWidth > 0 {
                canvases[dst].draw(
                    path, paint: stroke, lineWidth: shape.lineWidth, opacity: opacity, clip: clip, mask: mask)
            }
        }
        var sublayers = DrawContext(
            target: dst, origin: frame.origin, clip: layer.pointee.masksToBounds ? inside : clip,
            depth: context.depth + 1,
            time: context.time, mask: mask)
        sublayers.replica = context.replica
        if layer.pointee.sublayerTransform.isTranslation {
            let shift = layer.pointee.sublayerTransform.translation
            sublayers.origin = Point(x: frame.origin.x + shift.x, y: frame.origin.y + shift.y)
        } else {
            sublayers.sublayerTransform = Self.sublayerMatrix(of: layer)
        }
        if let replicator = layer.pointee.replicator {
            drawInstances(prepared, of: layer, replicator, sublayers, area: area)
        } else {
            for sublayer in prepared.sublayers { draw(sublayer, sublayers) }
        }
        if layer.pointee.borderWidth > 0, let border = layer.pointee.borderColor, border.alpha > 0 {
            // Core Animation draws the border inside the bounds.
            let w = layer.pointee.borderWidth
            let inset = RoundedRect(
                rect: Rect(
                    x: frame.minX + w / 2, y: frame.minY + w / 2, width: frame.width - w, height: frame.height - w),
                cornerRadius: max(layer.pointee.cornerRadius - w / 2, 0))
            canvases[dst].draw(inset, paint: .color(border), lineWidth: w, opacity: opacity, clip: clip, mask: mask)
        }
        guard isolate else { return }
        if LayerShadow.casts(layer.pointee), !context.shadowProjected {
            // Beneath the layer, before its mask and clip, which cut the shadow too.
            shadows.draw(beneath: &canvases[dst], area: area, layer: layer, prepared: prepared, origin: frame.origin)
        }
        if let cache, let m = prepared.mask.first, m.isStatic {
            // A static mask (an edge fade, a text) is applied straight from its kept pixels.
            canvases[dst].apply(mask: cache.mask(m, origin: frame.origin).coverage, in: area)
        } else if let m = prepared.mask.first {
            let s = scratch(context.depth * 2 + 1, clearing: area)
            draw(
                m,
                DrawContext(target: s, origin: frame.origin, clip: board, depth: context.depth + 1, time: context.time))
            canvases[dst].apply(mask: canvases[s], in: area)
        }
        if rounded {
            canvases[dst].scale(by: { x, y in outline.fillCoverage(x: x, y: y) }, in: area)
        }
        canvases[context.target].composite(canvases[dst], opacity: Float(groupOpacity), in: area)
    }
}
