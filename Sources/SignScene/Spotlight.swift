import SignGraphics
import SignTiming

/// The spotlight effect: one to three zones of the board; everything outside the selected
/// zone is dimmed, and the selected zone gets a gradient border with round corners. Selecting
/// another zone moves the hole and the border together: the same begin time, the same
/// duration and timing function, their paths morphing through rounded rectangles.
public struct Spotlight: Sendable, Equatable {
    /// A zone: a rectangle of the board, optionally named for `select-zone`.
    public struct Zone: Sendable, Equatable {
        public var name: String?
        public var rect: Rect
        public init(name: String? = nil, rect: Rect) {
            self.name = name
            self.rect = rect
        }
    }

    public var id: String
    public var zones: [Zone]
    /// Index of the zone in the light.
    public var selected: Int
    /// How dark the surround gets: 0 leaves it alone, 1 blacks it out.
    public var dim: Double
    public var borderColors: [Color]
    public var borderWidth: Double
    public var cornerRadius: Double
    /// The move between zones.
    public var duration: Double
    public var timingFunction: TimingFunction
    /// The zone the light is coming from and when the move began (none: it is still).
    public var transition: (from: Int, beginTime: Double)?

    public init(
        id: String, zones: [Zone], selected: Int = 0, dim: Double = 0.6,
        borderColors: [Color] = [Color(red: 0, green: 200, blue: 255), Color(red: 255, green: 0, blue: 200)],
        borderWidth: Double = 1.5, cornerRadius: Double = 4, duration: Double = 0.15,
        timingFunction: TimingFunction = .easeInEaseOut
    ) {
        self.id = id
        self.zones = zones
        self.selected = selected
        self.dim = dim
        self.borderColors = borderColors
        self.borderWidth = borderWidth
        self.cornerRadius = cornerRadius
        self.duration = duration
        self.timingFunction = timingFunction
    }

    public static func == (a: Spotlight, b: Spotlight) -> Bool {
        a.id == b.id && a.zones == b.zones && a.selected == b.selected && a.dim == b.dim
            && a.borderColors == b.borderColors
            && a.borderWidth == b.borderWidth && a.cornerRadius == b.cornerRadius && a.duration == b.duration
            && a.timingFunction == b.timingFunction && a.transition?.from == b.transition?.from
            && a.transition?.beginTime == b.transition?.beginTime
    }

    /// The zone index for a name or a number (as `select-zone` receives it).
    public func zoneIndex(named key: String) -> Int? {
        if let i = zones.firstIndex(where: { $0.name == key }) { return i }
        if let i = Int(key), zones.indices.contains(i) { return i }
        return nil
    }

    /// This spotlight moving to zone `index` from scene time `now`.
    public func selecting(_ index: Int, at now: Double) -> Spotlight {
        var copy = self
        copy.transition = (from: selected, beginTime: now)
        copy.selected = index
        return copy
    }

    func outline(_ index: Int) -> RoundedRect { RoundedRect(rect: zones[index].rect, cornerRadius: cornerRadius) }

    /// The layers Core Animation code would build: a dimming shape with a hole and a
    /// gradient-stroked border, both on the selected zone's path, both animating from the
    /// previous zone's path in one move.
    public func layerTree(boardWidth: Int, boardHeight: Int) -> Layer {
        let board = Rect(x: 0, y: 0, width: Double(boardWidth), height: Double(boardHeight))
        let target = outline(selected)
        var move: [LayerAnimation] = []
        if let transition, zones.indices.contains(transition.from) {
            // One timing for both layers: the hole and the border cannot drift apart.
            move = [
                .property(
                    PropertyAnimation(
                        keyPath: .path, motion: .basic(BasicValues(from: .path(outline(transition.from)))),
                        timing: MediaTiming(beginTime: transition.beginTime, duration: duration, fillMode: .backwards),
                        timingFunction: timingFunction))
            ]
        }
        var shade = Layer(
            id: id + ".dim",
            content: .shape(
                ShapeContent(
                    path: target, fill: .color(Color(red: 0, green: 0, blue: 0, alpha: UInt8((dim * 255).rounded()))),
                    fillsOutside: true)),
            frame: board)
        shade.animations = move
        var border = Layer(
            id: id + ".border",
            content: .shape(
                ShapeContent(
                    path: target,
                    stroke: .gradient(
                        Gradient(
                            ramp: ColorRamp(colors: borderColors), startPoint: Point(x: 0, y: 0),
                            endPoint: Point(x: 1, y: 1))),
                    lineWidth: borderWidth)),
            frame: board)
        border.animations = move
        return Layer(id: id, frame: board, sublayers: [shade, border])
    }
}
