/// What the board canvas holds between frames, so a frame starts from it without a clear
/// or a copy it does not need. A frame whose first layer is static starts from that layer's
/// kept pixels (a copy instead of a clear and a composite); `finish` writes the frame out and
/// resets the board, in the same pass, to what the next frame most likely starts from: this
/// frame's start.
struct BoardSeed {
    /// What the board must be made before the frame's first layer is drawn.
    enum Step: Equatable {
        /// It holds that already.
        case none
        /// Made transparent.
        case clear
        /// Given the kept pixels of this static first layer.
        case copy(PreparedLayer)

        static func == (a: Step, b: Step) -> Bool {
            switch (a, b) {
            case (.none, .none), (.clear, .clear): return true
            case (.copy(let x), .copy(let y)): return x === y
            default: return false
            }
        }
    }

    private enum Held {
        case unknown, transparent, kept(PreparedLayer)
    }
    private var held = Held.unknown
    /// Whether the frame has not made its board ready yet.
    private(set) var pending = false
    /// This frame's static first layer (`nil`: the frame started transparent).
    private(set) var start: PreparedLayer?

    /// A frame begins.
    mutating func begin() { pending = true }

    /// Makes the board this frame's starting point, `layer`'s kept pixels or transparent:
    /// what to do for that.
    mutating func prepare(startingFrom layer: PreparedLayer?) -> Step {
        pending = false
        start = layer
        switch (held, layer) {
        case (.kept(let kept), let layer?) where kept === layer: return .none
        case (_, let layer?): return .copy(layer)
        case (.transparent, nil): return .none
        case (_, nil): return .clear
        }
    }

    /// The frame is written out: the board is reset to the frame's start, which is returned
    /// (`nil`: transparent).
    mutating func finish() -> PreparedLayer? {
        held = start.map { .kept($0) } ?? .transparent
        return start
    }
}
