import SignGraphics

/// Resampled layers' drawings apart, kept while what they draw in their own plane is still
/// (`PreparedLayer.isStillInPlane`): as Core Animation rasterises a layer once and a
/// changing transform only changes how the kept pixels are sampled, a layer that turns,
/// scales, moves or fades is drawn apart on its first frame and then only resampled. One
/// entry per layer (its identity the key), for the part of the layer it holds; at most
/// `limit` entries of at most `maxArea` pixels. A layer no frame has drawn since the frame
/// before last gives its storage to the next, so a steady frame allocates nothing.
final class ApartStore {
    /// The part of a layer's own pixels a drawing holds, `x0..<x1` by `y0..<y1`.
    struct Region: Equatable {
        var x0, y0, x1, y1: Int
    }

    private struct Kept {
        /// Held so its identity is not reused while kept.
        var layer: PreparedLayer
        /// What `canvas` holds at (0, 0): that part drawn, its size; `nil` when nothing yet.
        var region: Region?
        var size: Size
        var canvas: Canvas
        var lastUsed: UInt64
    }

    /// The largest drawing kept, in pixels (1 MiB); a larger one is drawn every frame.
    static let maxArea = 1 << 18

    /// Key paths whose animation moves a layer's drawing without changing it: it is drawn at
    /// its own place and full opacity apart, and placed, turned and faded when sampled.
    static let placement: Set<LayerProperty> = [
        .opacity, .position, .positionX, .positionY, .anchorPoint, .translation, .translationX, .translationY,
        .scale, .scaleX, .scaleY, .scaleZ, .rotation, .rotationX, .rotationY, .rotationZ,
    ]

    /// Whether every animation of `layer` (a model) is a placement's, and it is no replicator
    /// (whose instances' colours and places are drawn in its plane).
    static func placesOnly(_ layer: Layer) -> Bool {
        layer.replicator == nil && layer.animations.allSatisfy { $0.keyPaths.allSatisfy(placement.contains) }
    }

    private let limit: Int
    private var kept: [Kept] = []
    private var frame: UInt64 = 0
    /// Layers drawn apart into the store since the frame began (kept ones reused are not
    /// counted).
    private(set) var fills = 0

    init(limit: Int = 16) { self.limit = limit }

    func beginFrame() {
        frame &+= 1
        fills = 0
    }

    /// The entry for `layer`, which has `size`, holding `region`, and whether it holds it
    /// now (otherwise draw it and `keep` it). `nil` when too large to keep, or when no frame
    /// has begun here: the compositor that fills the static subtrees' cache draws each tree
    /// once, and keeping its drawings apart would only hold memory.
    func entry(_ layer: PreparedLayer, size: Size, region: Region) -> (index: Int, current: Bool)? {
        let (w, h) = (region.x1 - region.x0, region.y1 - region.y0)
        let frame = self.frame
        guard frame > 0, w > 0, h > 0, w * h <= Self.maxArea else { return nil }
        let found = kept.withUnsafeMutableBufferPointer { kept -> (Int, Bool)? in
            guard let i = kept.firstIndex(where: { $0.layer === layer }) else { return nil }
            kept[i].lastUsed = frame
            return (i, kept[i].region == region && kept[i].size == size)
        }
        if let found { return found }
        let oldest = kept.indices.min { kept[$0].lastUsed < kept[$1].lastUsed }
        if let oldest, kept.count >= limit || kept[oldest].lastUsed &+ 1 < frame {
            kept[oldest].layer = layer
            kept[oldest].region = nil
            kept[oldest].lastUsed = frame
            return (oldest, false)
        }
        kept.append(Kept(layer: layer, region: nil, size: size, canvas: Canvas(width: w, height: h), lastUsed: frame))
        return (kept.count - 1, false)
    }

    /// Keeps in entry `index` the drawing of `region` of a layer of `size`, at (0, 0) of
    /// `drawing`. Its storage is made again only to grow.
    func keep(_ index: Int, size: Size, region: Region, from drawing: Canvas) {
        let (w, h) = (region.x1 - region.x0, region.y1 - region.y0)
        fills += 1
        kept.withUnsafeMutableBufferPointer { kept in
            if kept[index].canvas.width < w || kept[index].canvas.height < h {
                kept[index].canvas = Canvas(
                    width: max(w, kept[index].canvas.width), height: max(h, kept[index].canvas.height))
            }
            kept[index].canvas.copy(from: drawing, in: (0, 0, w, h))
            kept[index].region = region
            kept[index].size = size
        }
    }

    /// The drawing kept in entry `index`.
    func canvas(_ index: Int) -> Canvas { kept[index].canvas }
}
