import SignScene

/// `[[playlist]]`: texts or scene files shown one after another on a layer, each for its
/// loops or its duration, round and round.
public struct Playlist: Sendable, Equatable {
    /// One item: a text (fields and markup allowed) or a scene file.
    public struct Item: Sendable, Equatable {
        /// What the item shows.
        public enum Content: Sendable, Equatable {
            case text(String)
            /// A config file's layers (a path as `load-scene` takes it).
            case scene(String)
        }

        public var content: Content
        /// Seconds shown; `nil`: its loops (a text that does not scroll, and a scene: 5 s a loop).
        public var duration: Double?
        public var loops: Int

        public init(_ content: Content, duration: Double? = nil, loops: Int = 1) {
            self.content = content
            self.duration = duration
            self.loops = loops
        }

        /// The item as `status` and the `playlist-item` event name it: its text or scene path.
        public var label: String {
            switch content {
            case .text(let t): return t
            case .scene(let path): return path
            }
        }
    }

    public var name: String
    /// The layer a text item is shown on; `nil`: the main layer.
    public var layer: String?
    /// How one item gives way to the next; `nil`: the layer's own transition.
    public var transition: Transition.Kind?
    public var items: [Item]

    public init(name: String, layer: String? = nil, transition: Transition.Kind? = nil, items: [Item]) {
        self.name = name
        self.layer = layer
        self.transition = transition
        self.items = items
    }

    /// Seconds a loop of an item lasts when it does not scroll.
    public static let standingLoop = 5.0
}
