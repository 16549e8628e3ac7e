import SignGraphics

/// The still part of a frame: static top-level layers composited once, which the board
/// starts each frame from. A static layer belongs to it when nothing drawn before it that
/// is not still can reach its pixels: drawing it first then changes no pixel (source-over
/// of things that do not overlap commutes). So a sign's background and the frames and
/// labels beside its moving text are one copy, as a cairo program pre-composites them.
final class StillLayers {
    /// A box of pixels, `x0..<x1` by `y0..<y1`.
    typealias Box = (x0: Int, y0: Int, x1: Int, y1: Int)

    /// The layers, in drawing order.
    let layers: [PreparedLayer]
    /// Their kept pixels composited in that order.
    let canvas: Canvas

    /// Where each layer is among them, for a scene of many layers (`nil` for a few, where a
    /// look along the list costs less than hashing).
    private let positions: [ObjectIdentifier: Int]?
    /// The one the next `contains` most likely asks about: the layers are drawn in order.
    private var next = 0

    init(layers: [PreparedLayer], canvas: Canvas) {
        self.layers = layers
        self.canvas = canvas
        positions =
            layers.count > 16
            ? Dictionary(layers.enumerated().map { (ObjectIdentifier($1), $0) }, uniquingKeysWith: { a, _ in a }) : nil
    }

    /// Whether they are the `chosen` of a frame's `trees`, the same trees in the same order.
    func holds(_ chosen: [Int], of trees: [(tree: PreparedLayer, time: Double)]) -> Bool {
        layers.count == chosen.count && zip(layers, chosen).allSatisfy { $0 === trees[$1].tree }
    }

    /// Whether `layer` is one of them. Asked of every drawn layer in drawing order, so the
    /// layer after the last one found is looked at first: a frame of many layers asks in
    /// constant time, not along the whole list for each (which made 10,000 layers quadratic).
    func contains(_ layer: PreparedLayer) -> Bool {
        if next < layers.count, layers[next] === layer {
            next = next + 1 == layers.count ? 0 : next + 1
            return true
        }
        let found: Int?
        if let positions {
            found = positions[ObjectIdentifier(layer)]
        } else {
            found = layers.firstIndex { $0 === layer }
        }
        guard let found else { return false }
        next = found + 1 == layers.count ? 0 : found + 1
        return true
    }

    /// Which of a frame's top-level layers, in drawing order, are still: `isStill(i)` and
    /// `box(i)` say whether layer `i` is static and where its pixels are (for a layer that
    /// moves, the box it never draws outside; `nil` when that is not known, which keeps
    /// every later layer out). Appends the chosen indices to `chosen`; `blockers` is scratch.
    static func choose(
        count: Int, isStill: (Int) -> Bool, box: (Int) -> Box?, into chosen: inout [Int], blockers: inout [Box]
    ) {
        blockers.removeAll(keepingCapacity: true)
        for i in 0..<count {
            let b = box(i)
            if isStill(i), let b {
                // Nothing drawn (an empty box) or nothing below it in the way.
                if b.x0 >= b.x1 || b.y0 >= b.y1 || blockers.allSatisfy({ !overlap($0, b) }) {
                    chosen.append(i)
                    continue
                }
            }
            guard let b else { return }
            blockers.append(b)
        }
    }

    private static func overlap(_ a: Box, _ b: Box) -> Bool {
        a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    }
}
