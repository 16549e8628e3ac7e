import SignGraphics

/// A `CAEmitterLayer`'s particle system: where particles are born (`emitterPosition`,
/// `emitterSize`, `emitterShape`, `emitterMode`), the layer's multipliers of its cells'
/// `birthRate`, `lifetime`, `velocity`, `scale` and `spin`, the `seed` of their random
/// attributes, and the `renderMode`. Defaults are Core Animation's. Particles are not
/// simulated: the ones shown at a time are a pure function of that time (`EmitterParticles`).
public struct EmitterContent: Sendable, Equatable {
    /// `emitterShape`. Core Animation's `cuboid` and `sphere` need depth and are refused.
    public enum Shape: String, Sendable, CaseIterable {
        case point, line, rectangle, circle
    }

    /// `emitterMode`: where on the shape particles are born. `volume` is `surface` in 2D.
    public enum Mode: String, Sendable, CaseIterable {
        /// The shape's corners (a line's two ends; a point's or circle's centre).
        case points
        case outline, surface, volume
    }

    /// `renderMode`. `backToFront` needs depth and is refused.
    public enum RenderMode: String, Sendable, CaseIterable {
        /// Cell by cell, each cell's particles oldest first.
        case unordered
        /// The oldest particle first (under the newer ones).
        case oldestFirst = "oldest_first"
        /// The oldest particle last (over the newer ones).
        case oldestLast = "oldest_last"
        /// As `unordered`, each particle added to what is under it.
        case additive
    }

    /// Most cells a layer holds.
    public static let maxCells = 8
    /// Most particles a cell may have alive at once (`population`).
    public static let maxCellPopulation = 2000
    /// Most particles a layer's cells may have alive at once, together.
    public static let maxLayerPopulation = 4000

    public var cells: [EmitterCell]
    /// `emitterPosition`, in the layer's own coordinates.
    public var position: Point = .zero
    /// `emitterZPosition`: kept, and without effect on a flat board.
    public var zPosition: Double = 0
    /// `emitterSize`.
    public var size: Size = .zero
    public var shape: Shape = .point
    public var mode: Mode = .volume
    public var renderMode: RenderMode = .unordered
    /// Multiplies each cell's `birthRate`.
    public var birthRate: Double = 1
    /// Multiplies each particle's lifetime.
    public var lifetime: Double = 1
    /// Multiplies each particle's velocity.
    public var velocity: Double = 1
    /// Multiplies each particle's scale.
    public var scale: Double = 1
    /// Multiplies each particle's spin.
    public var spin: Double = 1
    /// Where the random attributes start: the same seed shows the same particles.
    public var seed: UInt32 = 0

    public init(cells: [EmitterCell]) { self.cells = cells }

    /// Particles born a second by cell `i` (its `birthRate` times the layer's).
    public func rate(of i: Int) -> Double { cells[i].enabled ? max(0, cells[i].birthRate * birthRate) : 0 }

    /// The longest a particle of cell `i` lives, in seconds.
    public func longestLife(of i: Int) -> Double { max(0, (cells[i].lifetime + cells[i].lifetimeRange) * lifetime) }

    /// Most particles of cell `i` alive at once: its rate times its longest life.
    public func population(of i: Int) -> Double {
        let r = rate(of: i), l = longestLife(of: i)
        return r > 0 && l > 0 ? r * l : 0
    }
}

/// A `CAEmitterCell`: what each particle it emits looks like and how it moves, each
/// attribute a mean and a range (`value ± range`, uniform) and, for scale, colour and spin, a
/// rate of change. Defaults are Core Animation's (all 0 but `scale` 1, `color` opaque white,
/// `enabled`). Angles are radians; speeds per second; y runs down the board.
public struct EmitterCell: Sendable, Equatable {
    public var name: String = ""
    public var enabled = true
    /// `contents`: the picture a particle shows (a PNG, or a built-in shape).
    public var contents: Sprite
    public var birthRate: Double = 0
    public var lifetime: Double = 0
    public var lifetimeRange: Double = 0
    public var velocity: Double = 0
    public var velocityRange: Double = 0
    /// The direction of emission, from the x axis towards y (down: clockwise on the board).
    public var emissionLongitude: Double = 0
    /// `emissionLatitude`: kept, and without effect on a flat board.
    public var emissionLatitude: Double = 0
    /// The angle of the cone particles leave in, centred on `emissionLongitude`.
    public var emissionRange: Double = 0
    public var xAcceleration: Double = 0
    public var yAcceleration: Double = 0
    public var scale: Double = 1
    public var scaleRange: Double = 0
    public var scaleSpeed: Double = 0
    /// Turns a second; a particle starts unturned.
    public var spin: Double = 0
    public var spinRange: Double = 0
    /// `color` as straight red, green, blue, alpha in 0...1.
    public var color = SIMD4<Double>(1, 1, 1, 1)
    /// `redRange`, `greenRange`, `blueRange`, `alphaRange`.
    public var colorRange = SIMD4<Double>(0, 0, 0, 0)
    /// `redSpeed`, `greenSpeed`, `blueSpeed`, `alphaSpeed`.
    public var colorSpeed = SIMD4<Double>(0, 0, 0, 0)

    public init(contents: Sprite) { self.contents = contents }
}

extension EmitterContent {
    /// What `check-config` says of the emitter: each cell's population and the total,
    /// against the caps.
    public var populationSummary: String {
        let each = cells.indices.map { i in
            let name = cells[i].name.isEmpty ? "cell \(i)" : "\"\(cells[i].name)\""
            return "\(name) \(Int(population(of: i).rounded(.up)))"
        }
        let total = cells.indices.reduce(0.0) { $0 + population(of: $1) }
        return "at most \(Int(total.rounded(.up))) particles alive (\(each.joined(separator: ", "))); "
            + "caps \(Self.maxCellPopulation) a cell, \(Self.maxLayerPopulation) an emitter"
    }
}

extension Layer {
    /// The emitters in this tree (its own, its mask's, its sublayers'), each with the ids
    /// leading to it.
    public var emitters: [(path: String, emitter: EmitterContent)] {
        var found: [(path: String, emitter: EmitterContent)] = []
        if case .emitter(let e) = content { found.append((id, e)) }
        for (inner, e) in (mask.map { [$0] } ?? []).flatMap(\.emitters) + sublayers.flatMap(\.emitters) {
            found.append(("\(id)/\(inner)", e))
        }
        return found
    }
}
