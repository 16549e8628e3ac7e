import SignGraphics

/// Draws prepared layer trees as Core Animation composites them: each layer's background,
/// content, sublayers and border, premultiplied source-over; a layer with a mask, group
/// opacity or rounded clipping is drawn apart and then composited. It owns its canvases and
/// reuses them, so a frame allocates nothing once the first has been drawn.
public final class Compositor {
    public let width: Int
    public let height: Int
    /// Canvas 0 is the board; the rest are scratch, two per nesting depth (content, mask).
    private var canvases: [Canvas]

    /// The pixels of a static subtree drawn at one place, kept between frames.
    private struct Cached {
        /// Held so its identity, the key, is not reused while the entry lives.
        let layer: PreparedLayer
        let origin: Point
        let clip: Rect
        var canvas: Canvas
        /// Where the kept pixels are not transparent (the bounding box, and its runs row by
        /// row): all a composite needs to cover.
        let occupied: (x0: Int, y0: Int, x1: Int, y1: Int)
        var runs: [Int]
        var lastUsed: UInt64
        /// The kept pixels' alpha as a coverage mask, once the subtree has clipped a paint.
        var coverage: CoverageMask?
    }
    /// At most `cacheLimit` entries, one per prepared tree: a short list scanned by identity is
    /// cheaper per frame than hashing.
    private var cache: [Cached] = []
    /// Whether static subtrees are drawn from the cache (off while filling it).
    private let caching: Bool
    private var builder: Compositor?
    private var frameCount: UInt64 = 0
    /// Static subtrees drawn into the cache since the frame began.
    public private(set) var cacheFills = 0
    /// Most subtrees kept; beyond that the least recently drawn are dropped.
    private static let cacheLimit = 16

    public convenience init(width: Int, height: Int) {
        self.init(width: width, height: height, caching: true)
    }

    private init(width: Int, height: Int, caching: Bool) {
        self.width = width
        self.height = height
        self.caching = caching
        canvases = [Canvas(width: width, height: height)]
    }

    private var board: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// Whether the board still has to be made ready for this frame, when its first layer is
    /// drawn: cleared, or given a static first layer's kept pixels.
    private var boardPending = false
    /// What the board holds between frames: `finish` resets it, as it writes the frame out,
    /// to the transparent board or the static first layer the next frame most likely starts
    /// from (this frame's).
    private enum Seed {
        case unknown, transparent, kept(PreparedLayer)
    }
    private var seed = Seed.unknown
    /// This frame's static first layer (`nil`: the frame started transparent).
    private var frameSeed: PreparedLayer?

    /// Starts a frame.
    public func begin() {
        boardPending = true
        frameCount += 1
        cacheFills = 0
    }

    /// Draws a top-level layer (in board coordinates) at scene time `t`.
    public func draw(_ layer: PreparedLayer, at t: Double) {
        if boardPending {
            // A static first layer's kept pixels are the frame's starting point: a copy
            // instead of a clear and a composite, and none when the board holds them already.
            prepareBoard(startingFrom: caching && layer.isStatic ? layer : nil)
            if frameSeed != nil { return }
        }
        draw(layer, target: 0, origin: .zero, clip: board, depth: 1, t: t)
    }

    /// Finishes a frame: the board over an opaque background, into `frame`.
    public func finish(over background: Color, into frame: inout Frame) {
        if boardPending { prepareBoard(startingFrom: nil) }
        let next = frameSeed.map { cached($0, origin: .zero, clip: board).canvas }
        canvases[0].write(into: &frame, over: background, resettingTo: next)
        seed = frameSeed.map { .kept($0) } ?? .transparent
    }

    /// Makes the board this frame's starting point: `layer`'s kept pixels, or transparent;
    /// nothing to do when it holds them already (`finish` left it so).
    private func prepareBoard(startingFrom layer: PreparedLayer?) {
        boardPending = false
        frameSeed = layer
        switch (seed, layer) {
        case (.kept(let held), let layer?) where held === layer: break
        case (_, let layer?): canvases[0].copy(from: cached(layer, origin: .zero, clip: board).canvas)
        case (.transparent, nil): break
        case (_, nil): canvases[0].clear()
        }
    }

    /// Scratch canvas `index`, transparent within `bounds` (nothing outside them is read).
    private func scratch(_ index: Int, clearing bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Int {
        while canvases.count <= index { canvases.append(Canvas(width: width, height: height)) }
        canvases[index].clear(bounds)
        return index
    }

    private func draw(
        _ prepared: PreparedLayer, target: Int, origin: Point, clip: Rect, depth: Int, t parentTime: Double,
        clipMask: CoverageMask? = nil
    ) {
        let t = prepared.model.localTime(parentTime)
        if caching && prepared.isStatic {
            drawCached(prepared, target: target, origin: origin, clip: clip)
            return
        }
        // A tree that cannot reach the clip is not even evaluated.
        if let extent = prepared.extent {
            let reach = extent.offsetBy(dx: origin.x, dy: origin.y).intersection(clip)
            guard reach.width > 0, reach.height > 0 else { return }
        }
        let layer = prepared.model.presentation(at: t)
        guard !layer.isHidden, layer.opacity > 0 else { return }
        let frame = layer.frame.offsetBy(dx: origin.x, dy: origin.y)
        let rounded = layer.masksToBounds && layer.cornerRadius > 0
        // A static mask over a tree that one drawing call paints masks that call's paint
        // directly: no copy of the tree to clear, mask and composite.
        if caching, let mask = prepared.mask.first, mask.isStatic, !rounded, prepared.drawsOnce,
            layer.opacity == 1 || prepared.sublayers.isEmpty, clipMask == nil
        {
            let kept = cached(mask, origin: frame.origin, clip: board)
            let o = kept.occupied
            guard o.x0 < o.x1 else { return }
            let visible = Rect(
                x: Double(o.x0), y: Double(o.y0), width: Double(o.x1 - o.x0), height: Double(o.y1 - o.y0))
            draw(
                layer, prepared, target: target, frame: frame, clip: clip.intersection(visible), rounded: false,
                isolate: false, depth: depth, t: t, mask: coverage(of: mask, origin: frame.origin))
            return
        }
        let isolate = !prepared.mask.isEmpty || rounded || (layer.opacity < 1 && !prepared.sublayers.isEmpty)
        draw(
            layer, prepared, target: target, frame: frame, clip: clip, rounded: rounded, isolate: isolate, depth: depth,
            t: t, mask: clipMask)
    }

    /// Draws a presentation layer at `frame`: into `target`, or drawn apart (`isolate`) and
    /// then masked, clipped and composited into it.
    private func draw(
        _ layer: Layer, _ prepared: PreparedLayer, target: Int, frame: Rect, clip: Rect, rounded: Bool, isolate: Bool,
        depth: Int, t: Double, mask targetMask: CoverageMask?
    ) {
        // Everything of an isolated layer that is used lies within its clip.
        let inside = frame.intersection(clip)
        let area = (layer.masksToBounds ? inside : clip).pixelBounds(clippedTo: width, height)
        let dst = isolate ? scratch(depth * 2, clearing: area) : target
        let opacity = Float(isolate ? 1 : layer.opacity)
        let outline = RoundedRect(rect: frame, cornerRadius: layer.cornerRadius)
        // The paints into `target` carry its mask; an isolated layer is masked afterwards.
        let mask = isolate ? nil : targetMask

        if let background = layer.backgroundColor, background.alpha > 0 {
            canvases[dst].draw(outline, paint: .color(background), opacity: opacity, clip: clip, mask: mask)
        }
        switch layer.content {
        case .none:
            break
        case .gradient(let gradient):
            if layer.cornerRadius > 0 {
                canvases[dst].draw(outline, paint: .gradient(gradient), opacity: opacity, clip: clip, mask: mask)
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
                    bitmap, at: origin, color: content.color, opacity: opacity, smooth: layer.motion == .smooth,
                    tilePeriod: period, clip: textClip, mask: mask)
            } else if let rich = prepared.richText {
                canvases[dst].draw(
                    rich, at: origin, opacity: opacity, smooth: layer.motion == .smooth, tilePeriod: period,
                    clip: textClip, mask: mask)
            }
        case .image(let image):
            canvases[dst].draw(
                image.bitmap, in: frame, scaling: image.scaling, opacity: opacity, clip: clip, mask: mask)
        case .stream(let stream):
            if let bitmap = stream.feed.current {
                canvases[dst].draw(bitmap, in: frame, scaling: .nearest, opacity: opacity, clip: clip, mask: mask)
            }
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
        let subClip = layer.masksToBounds ? inside : clip
        for sublayer in prepared.sublayers {
            draw(sublayer, target: dst, origin: frame.origin, clip: subClip, depth: depth + 1, t: t, clipMask: mask)
        }
        if layer.borderWidth > 0, let border = layer.borderColor, border.alpha > 0 {
            // Core Animation draws the border inside the bounds.
            let w = layer.borderWidth
            let inset = RoundedRect(
                rect: Rect(
                    x: frame.minX + w / 2, y: frame.minY + w / 2, width: frame.width - w, height: frame.height - w),
                cornerRadius: max(layer.cornerRadius - w / 2, 0))
            canvases[dst].draw(inset, paint: .color(border), lineWidth: w, opacity: opacity, clip: clip, mask: mask)
        }
        guard isolate else { return }
        if let mask = prepared.mask.first, caching && mask.isStatic {
            // A static mask (an edge fade, a text) is applied straight from its kept pixels.
            canvases[dst].apply(mask: cached(mask, origin: frame.origin, clip: board).canvas, in: area)
        } else if let mask = prepared.mask.first {
            let m = scratch(depth * 2 + 1, clearing: area)
            draw(mask, target: m, origin: frame.origin, clip: board, depth: depth + 1, t: t)
            canvases[dst].apply(mask: canvases[m], in: area)
        }
        if rounded {
            let clipShape = outline
            canvases[dst].scale(by: { x, y in clipShape.fillCoverage(x: x, y: y) }, in: area)
        }
        canvases[target].composite(canvases[dst], opacity: Float(layer.opacity), in: area)
    }
}

extension Compositor {
    /// Composites a static subtree's kept pixels, drawing them first if this place is new.
    /// Source-over is associative, so this equals drawing the subtree directly.
    private func drawCached(_ prepared: PreparedLayer, target: Int, origin: Point, clip: Rect) {
        let kept = cached(prepared, origin: origin, clip: clip)
        canvases[target].composite(kept.canvas, runs: kept.runs)
    }

    /// A static mask's kept alpha at `origin` as a coverage mask, read once per cache entry.
    private func coverage(of mask: PreparedLayer, origin: Point) -> CoverageMask {
        let kept = cached(mask, origin: origin, clip: board)
        if let coverage = kept.coverage { return coverage }
        let i = cache.firstIndex { $0.layer === mask }!
        cache[i].coverage = CoverageMask(alphaOf: kept.canvas)
        return cache[i].coverage!
    }

    /// The kept pixels of a static subtree at `origin` within `clip`, drawn now if needed.
    private func cached(_ prepared: PreparedLayer, origin: Point, clip: Rect) -> Cached {
        let found = cache.firstIndex { $0.layer === prepared }
        if let i = found, cache[i].origin == origin, cache[i].clip == clip {
            cache[i].lastUsed = frameCount
            return cache[i]
        }
        let builder = self.builder ?? Compositor(width: width, height: height, caching: false)
        self.builder = builder
        cacheFills += 1
        builder.canvases[0].clear()
        builder.draw(prepared, target: 0, origin: origin, clip: clip, depth: 1, t: 0)
        let kept = builder.canvases[0]
        // The entry this one replaces gives up its storage, so a kept subtree that moves (a
        // faded mask sliding with its layer in a transition) is drawn again without
        // allocating; so does one no frame has drawn since the frame before last (a layer a
        // text change or a minute's turn replaced), so a new layer takes its place.
        let oldest = cache.indices.min(by: { cache[$0].lastUsed < cache[$1].lastUsed })
        let slot =
            found
            ?? oldest.flatMap { cache.count >= Compositor.cacheLimit || cache[$0].lastUsed + 1 < frameCount ? $0 : nil }
        var runs: [Int] = []
        if let slot { swap(&runs, &cache[slot].runs) }
        kept.occupiedRuns(within: clip.pixelBounds(clippedTo: width, height), into: &runs)
        // The runs' bounding box: rows from the first run to the last, columns the widest span.
        var occupied = (x0: 0, y0: 0, x1: 0, y1: 0)
        if runs.count >= 3 {
            occupied = (Int.max, runs[0], 0, runs[runs.count - 3] + 1)
            for r in stride(from: 0, to: runs.count, by: 3) {
                occupied.x0 = min(occupied.x0, runs[r + 1])
                occupied.x1 = max(occupied.x1, runs[r + 2])
            }
        }
        let entry = Cached(
            layer: prepared, origin: origin, clip: clip, canvas: kept, occupied: occupied, runs: runs,
            lastUsed: frameCount)
        var spare: Canvas?
        if let slot {
            spare = cache[slot].canvas
            cache[slot] = entry
        } else {
            cache.append(entry)
        }
        builder.canvases[0] = spare ?? Canvas(width: width, height: height)
        return entry
    }
}

extension Canvas {
    /// Multiplies the pixels inside `bounds` by a coverage function of the pixel centre.
    mutating func scale(by coverage: (Double, Double) -> Float, in bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        for y in bounds.y0..<bounds.y1 {
            for x in bounds.x0..<bounds.x1 {
                pixels[y * width + x] *= coverage(Double(x) + 0.5, Double(y) + 0.5)
            }
        }
    }
}
