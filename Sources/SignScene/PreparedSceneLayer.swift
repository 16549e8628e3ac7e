import SignGraphics

/// A top-level scene layer made ready to draw: a marquee expanded into its layer tree, or a
/// layer tree with its "when added" begin times resolved, and every text rasterised.
public struct PreparedSceneLayer: Sendable {
    public let source: SceneLayer
    public let tree: PreparedLayer
    /// A marquee's motion; `nil` for other layers.
    public let path: MarqueePath?
    /// Characters no font in the chain could draw.
    public var missing: [Unicode.Scalar] { tree.missingCharacters }
    /// Whether the layer scrolls (a marquee whose text moves).
    public var scrolls: Bool { (path?.speed ?? 0) > 0 }

    /// Prepares `source` for a board of `boardWidth x boardHeight`, added at scene time `beginTime`.
    public init(_ source: SceneLayer, boardWidth: Int, boardHeight: Int, beginTime: Double, fonts: FontLibrary)
        throws(FreeTypeError)
    {
        self.source = source
        switch source {
        case .marquee(let text):
            let marquee = try PreparedTextLayer(
                text, boardWidth: boardWidth, boardHeight: boardHeight, beginTime: beginTime, fonts: fonts)
            tree = marquee.tree
            path = marquee.path
        case .layer(let layer):
            tree = try PreparedLayer(layer.resolvingBeginTimes(to: beginTime), fonts: fonts)
            path = nil
        case .spotlight(let spotlight):
            tree = try PreparedLayer(
                spotlight.layerTree(boardWidth: boardWidth, boardHeight: boardHeight), fonts: fonts)
            path = nil
        }
    }
}
