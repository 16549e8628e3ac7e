import SignGraphics

/// Notifications shown over a layer's ordinary content, back to back: the content holds
/// still where it stood from `begin` (Core Animation's pause idiom: speed 0, then a time
/// offset), each notification shows in turn, and at `end` the content carries on from the
/// same pixel, its clock behind by the time the notifications took.
public struct NotificationRun: Sendable {
    /// One notification of the run, in scene time.
    public struct Show: Sendable {
        /// The request's id.
        public let id: Int
        /// The notification as a layer (its text in the layer's style), prepared from `start`.
        public let layer: PreparedSceneLayer
        /// What is drawn from `start`: the transition in from what showed before.
        public let tree: PreparedLayer
        public let start: Double
        public let end: Double
    }

    /// Scene time the ordinary content stopped.
    public let begin: Double
    /// The notifications, in order, each starting where the one before ends.
    public let shows: [Show]
    /// What is drawn from `end` while the transition back runs: the last notification going
    /// out, the content coming back in.
    public let exit: PreparedLayer
    /// How long the transition back takes.
    public let exitDuration: Double

    /// When the last notification ends and the content carries on.
    public var end: Double { shows.last?.end ?? begin }
    /// How long the content stood still.
    public var span: Double { end - begin }

    /// The show on screen at scene time `t`, if any.
    public func show(at t: Double) -> Show? {
        guard t >= begin, t < end else { return nil }
        return shows.last { $0.start <= t } ?? shows.first
    }

    /// Lays out `notifications` over `content`, the slot's tree, which stands still from
    /// scene time `begin` at its local time `frozenAt` and carries on afterwards behind scene
    /// time by `lag` plus the notifications' span. The first notification starts at
    /// `firstStart` (default `begin`: later when the ones before it in the run are over and
    /// left out). Each ends after its loops (a scrolling text) or its duration. A
    /// notification `previous` already prepared for the same start is taken from it, not
    /// laid out again.
    public init(
        _ notifications: [(id: Int, source: SceneLayer, loops: Int, duration: Double?)], begin: Double,
        firstStart: Double? = nil, content: PreparedLayer, frozenAt: Double, lag: Double, transition: Transition,
        rect: Rect, context: PreparationContext, previous: NotificationRun? = nil
    ) throws(FreeTypeError) {
        self.begin = begin
        let board = Rect(x: 0, y: 0, width: Double(context.boardWidth), height: Double(context.boardHeight))
        var held = Layer(frame: board)
        held.speed = 0
        held.timeOffset = frozenAt
        // Held at every scene time, before its begin time too.
        held.timing.fillMode = .both
        var start = max(firstStart ?? begin, begin)
        // After notifications left out, whatever came in before is long gone.
        var outgoing = PreparedLayer(wrapping: start == begin ? [content] : [], in: held)
        var shows: [Show] = []
        for n in notifications {
            let kept = previous?.shows.first { $0.id == n.id && $0.start == start && $0.layer.source == n.source }
            let layer: PreparedSceneLayer
            if let kept {
                layer = kept.layer
            } else {
                layer = try PreparedSceneLayer(n.source, in: context, beginTime: start)
            }
            let end: Double
            if let duration = n.duration {
                end = start + duration
            } else if layer.scrolls, let path = layer.path, path.timing.duration > 0 {
                end = path.timing.beginTime + Double(max(1, n.loops)) * path.timing.duration
            } else {
                end = start + 5
            }
            let tree =
                transition.kind == .cut
                ? layer.body
                : transition.tree(
                    outgoing: outgoing, incoming: layer.body, rect: rect, board: board.size, begin: start,
                    rightToLeft: layer.isRightToLeft)
            shows.append(Show(id: n.id, layer: layer, tree: tree, start: start, end: max(end, start + 0.001)))
            outgoing = layer.body
            start = shows.last!.end
        }
        self.shows = shows
        let end = start
        var resumed = Layer(frame: board)
        resumed.timeOffset = -(lag + (end - begin))
        resumed.timing.fillMode = .both
        let back = PreparedLayer(wrapping: [content], in: resumed)
        exit =
            transition.kind == .cut
            ? back : transition.tree(outgoing: outgoing, incoming: back, rect: rect, board: board.size, begin: end)
        exitDuration = transition.kind == .cut ? 0 : transition.duration
    }
}
