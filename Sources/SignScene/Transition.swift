import SignGraphics
import SignTiming

/// How a layer changes from one text to the next, as a CATransition would.
public struct Transition: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The new text replaces the old on the next frame.
        case cut
        /// The old text fades out while the new one fades in.
        case crossfade
        /// The old text slides up and out while the new one slides up from below.
        case slide
        /// The new text pushes the old one out to the left, coming in from the right (for a
        /// right-to-left text, out to the right, coming in from the left).
        case push
    }

    public var kind: Kind
    public var duration: Double
    public var timingFunction: TimingFunction

    public init(kind: Kind = .cut, duration: Double = 0.4, timingFunction: TimingFunction = .easeInEaseOut) {
        self.kind = kind
        self.duration = duration
        self.timingFunction = timingFunction
    }

    public static let cut = Transition()

    /// The tree drawn while the change happens and after: the outgoing text animated out
    /// (and then hidden, so it costs nothing), the incoming one animated in, both clipped to
    /// `rect` and starting at `begin`. A push follows the incoming text's reading direction.
    func tree(
        outgoing: PreparedLayer, incoming: PreparedLayer, rect: Rect, board: Size, begin: Double,
        rightToLeft: Bool = false
    ) -> PreparedLayer {
        let timing = MediaTiming(beginTime: begin, duration: max(duration, 0.001), fillMode: .both)
        func animation(_ property: LayerProperty, _ from: Double, _ to: Double) -> LayerAnimation {
            .property(
                PropertyAnimation(
                    keyPath: property, motion: .basic(BasicValues(from: .number(from), to: .number(to))),
                    timing: timing,
                    timingFunction: timingFunction, isRemovedOnCompletion: false))
        }
        var exit: [LayerAnimation] = []
        var enter: [LayerAnimation] = []
        switch kind {
        case .cut:
            break
        case .crossfade:
            exit = [animation(.opacity, 1, 0)]
            enter = [animation(.opacity, 0, 1)]
        case .slide:
            exit = [animation(.translationY, 0, -rect.height)]
            enter = [animation(.translationY, rect.height, 0)]
        case .push:
            let width = rightToLeft ? -rect.width : rect.width
            exit = [animation(.translationX, 0, -width)]
            enter = [animation(.translationX, width, 0)]
        }
        // Once the change is over the outgoing text is hidden (opacity 0 is never drawn). It
        // comes first, so a crossfade's own opacity animation overrides it during the change.
        exit.insert(
            .property(
                PropertyAnimation(
                    keyPath: .opacity,
                    motion: .keyframes(
                        Keyframes(values: [.number(1), .number(0)], keyTimes: [0, 1, 1], calculationMode: .discrete)),
                    timing: MediaTiming(
                        beginTime: begin, duration: kind == .cut ? 0.001 : max(duration, 0.001), fillMode: .both),
                    isRemovedOnCompletion: false)), at: 0)
        // clip (the layer's rectangle) > mover (animated) > shift (back to board coordinates) > the tree.
        func wrap(_ tree: PreparedLayer, _ animations: [LayerAnimation]) -> PreparedLayer {
            let shift = PreparedLayer(
                wrapping: [tree],
                in: Layer(frame: Rect(x: -rect.minX, y: -rect.minY, width: board.width, height: board.height)))
            var mover = Layer(frame: Rect(origin: .zero, size: rect.size))
            mover.animations = animations
            return PreparedLayer(wrapping: [shift], in: mover)
        }
        let clip = Layer(frame: rect, masksToBounds: true)
        return PreparedLayer(wrapping: [wrap(outgoing, exit), wrap(incoming, enter)], in: clip)
    }
}
