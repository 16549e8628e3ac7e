import SignGraphics

/// A top-level scene layer made ready to draw: a marquee expanded into its layer tree, or a
/// layer tree with its "when added" begin times resolved, and every text rasterised.
public struct PreparedSceneLayer: Sendable {
    /// The layer as configured or set, its live fields unexpanded.
    public let source: SceneLayer
    /// The text drawn: the source's with its fields expanded when it was prepared.
    public let shownText: String?
    /// What is drawn: the body, or during a text change the transition holding the old body
    /// and the new.
    public let tree: PreparedLayer
    /// The layer itself, without any transition (what the next change transitions from).
    public let body: PreparedLayer
    /// The local time the layer was added: animations with beginTime 0 count from it, also
    /// when the layer is prepared again for a change.
    public let addedAt: Double
    /// The local time a marquee's text animations count from (its text was set).
    public let beginTime: Double
    /// A marquee's motion; `nil` for other layers.
    public let path: MarqueePath?
    /// A marquee whose text reads right to left (a push brings it in from the left).
    public let isRightToLeft: Bool
    /// The rectangle the layer shows in (a marquee's; the board for other layers).
    public let rect: Rect
    /// Characters no font in the chain could draw.
    public var missing: [Unicode.Scalar] { tree.missingCharacters }
    /// Whether the layer scrolls (a marquee whose text moves).
    public var scrolls: Bool { (path?.speed ?? 0) > 0 }

    /// Prepares `source` for the context's board, added at scene time `beginTime`;
    /// replacing `previous` with `transition`, which starts at `beginTime` too. A marquee's
    /// scroll starts at `marqueeBeginTime` when given (a live field's new value keeps the
    /// strip where it was), else at `beginTime`.
    public init(
        _ source: SceneLayer, in context: PreparationContext, beginTime: Double,
        replacing previous: PreparedSceneLayer? = nil, transition: Transition = .cut, addedAt: Double? = nil,
        marqueeBeginTime: Double? = nil
    ) throws(FreeTypeError) {
        let (boardWidth, boardHeight) = (context.boardWidth, context.boardHeight)
        let (fonts, icons) = (context.fonts, context.icons)
        self.source = source
        let addedAt = addedAt ?? beginTime
        self.addedAt = addedAt
        self.beginTime = beginTime
        let drawn = context.fields.flatMap { expand in source.text.flatMap { source.withText(expand($0)) } } ?? source
        shownText = drawn.text
        let board = Rect(x: 0, y: 0, width: Double(boardWidth), height: Double(boardHeight))
        var rect = board
        var rightToLeft = false
        switch drawn {
        case .marquee(let text):
            let marquee = try PreparedTextLayer(
                text, in: context, beginTime: beginTime, marqueeBeginTime: marqueeBeginTime)
            body = marquee.tree
            path = marquee.path
            rightToLeft = marquee.isRightToLeft
            rect = Rect(
                x: Double(marquee.rect.x), y: Double(marquee.rect.y), width: Double(marquee.rect.width),
                height: Double(marquee.rect.height))
        case .layer(let layer):
            body = try PreparedLayer(layer.resolvingBeginTimes(to: addedAt), fonts: fonts, icons: icons)
            path = nil
        case .spotlight(let spotlight):
            body = try PreparedLayer(
                spotlight.layerTree(boardWidth: boardWidth, boardHeight: boardHeight), fonts: fonts)
            path = nil
        }
        self.rect = rect
        isRightToLeft = rightToLeft
        if let previous, transition.kind != .cut {
            tree = transition.tree(
                outgoing: previous.body, incoming: body, rect: rect, board: board.size, begin: beginTime,
                rightToLeft: rightToLeft)
        } else {
            tree = body
        }
    }
}
