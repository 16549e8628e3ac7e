/// What the board canvas holds between frames, so a frame starts from it without a clear
/// or a copy it does not need. A frame whose still layers are known starts from their kept
/// pixels, `Start` (a copy instead of a clear and composites); `finish` writes the frame out
/// and resets the board, in the same pass, to what the next frame most likely starts from:
/// this frame's start. Starts are told apart by identity.
struct BoardSeed<Start: AnyObject> {
    /// What the board must be made before the frame's first layer is drawn.
    enum Step: Equatable {
        /// It holds that already.
        case none
        /// Made transparent.
        case clear
        /// Given the kept pixels of this start.
        case copy(Start)

        static func == (a: Step, b: Step) -> Bool {
            switch (a, b) {
            case (.none, .none), (.clear, .clear): return true
            case (.copy(let x), .copy(let y)): return x === y
            default: return false
            }
        }
    }

    private enum Held {
        case unknown, transparent, kept(Start)
    }
    private var held = Held.unknown
    /// Whether the frame has not made its board ready yet.
    private(set) var pending = false
    /// This frame's start (`nil`: the frame started transparent).
    private(set) var start: Start?

    /// A frame begins.
    mutating func begin() { pending = true }

    /// Makes the board this frame's starting point, `layer`'s kept pixels or transparent:
    /// what to do for that.
    mutating func prepare(startingFrom layer: Start?) -> Step {
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
    mutating func finish() -> Start? {
        held = start.map { .kept($0) } ?? .transparent
        return start
    }
}
