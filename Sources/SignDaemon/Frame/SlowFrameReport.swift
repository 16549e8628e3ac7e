import SignScene

/// What a frame that took more than half its period to draw was drawing: each top-level
/// layer's time and state, for the log, so an overrun names its layer instead of only its
/// length. Built on the clock's thread only for such a frame; logged off it.
struct SlowFrameReport: Sendable {
    let frame: UInt64
    let renderNanoseconds: UInt64
    let sendNanoseconds: UInt64
    /// The clock thread's CPU time over the tick: far below the wall time, the thread waited
    /// for a CPU (the machine's doing); near it, the work was signd's.
    let cpuNanoseconds: UInt64
    /// Whether the thread gave up the CPU on its own during the tick (slept, waited on a
    /// lock or for I/O) rather than only being preempted.
    let blocked: Bool
    let periodNanoseconds: UInt64
    /// Per output, in the order frames go to them: its name and how long its `send` took.
    let outputs: [(name: String, nanoseconds: UInt64)]
    /// Per layer: its id, how long it drew and what it was showing.
    let layers: [(id: String, nanoseconds: UInt64, showing: String)]
    let cacheFills: Int

    init(
        frame: UInt64, renderNanoseconds: UInt64, sendNanoseconds: UInt64, cpuNanoseconds: UInt64 = 0,
        blocked: Bool = false, periodNanoseconds: UInt64, outputs: [(name: String, nanoseconds: UInt64)] = [],
        scene: PreparedScene, at t: Double, layerNanoseconds: [UInt64], cacheFills: Int
    ) {
        self.frame = frame
        self.renderNanoseconds = renderNanoseconds
        self.sendNanoseconds = sendNanoseconds
        self.cpuNanoseconds = cpuNanoseconds
        self.blocked = blocked
        self.periodNanoseconds = periodNanoseconds
        self.outputs = outputs
        self.cacheFills = cacheFills
        layers = scene.slots.indices.map { i in
            let ns = i < layerNanoseconds.count ? layerNanoseconds[i] : 0
            return (scene.scene.layers[i].id, ns, Self.describe(scene.slots[i], at: t))
        }
    }

    /// The log line: the frame, then its layers, slowest first.
    var message: String {
        func ms(_ ns: UInt64) -> String { String(Double(ns / 10_000) / 100) }
        let parts = layers.sorted { $0.nanoseconds > $1.nanoseconds }.map {
            "\($0.id) \(ms($0.nanoseconds)) ms (\($0.showing))"
        }
        let sends =
            outputs.isEmpty
            ? "" : " (" + outputs.map { "\($0.name) \(ms($0.nanoseconds)) ms" }.joined(separator: ", ") + ")"
        return
            "slow frame \(frame): drawn in \(ms(renderNanoseconds)) ms and sent in \(ms(sendNanoseconds)) ms\(sends) "
            + "(\(ms(cpuNanoseconds)) ms of CPU\(blocked ? ", blocked" : "")), over half its \(ms(periodNanoseconds)) ms period; "
            + "\(cacheFills) static subtree(s) drawn into the cache; "
            + "layers: " + parts.joined(separator: ", ")
    }

    private static func describe(_ slot: PreparedScene.Slot, at t: Double) -> String {
        var words: [String] = []
        if let run = slot.notifications, t >= run.begin {
            words.append(run.show(at: t) != nil ? "a notification" : "back from notifications")
        }
        let local = slot.localTime(t)
        let layer = slot.layer(at: local)
        switch layer.source {
        case .marquee: words.append("marquee")
        case .layer: words.append("layer tree")
        case .spotlight: words.append("spotlight")
        }
        if let text = layer.shownText { words.append("\(text.unicodeScalars.count) characters") }
        if layer.scrolls { words.append("scrolling") }
        if layer.tree !== layer.body { words.append("in a transition") }
        if let next = slot.next { words.append(local >= next.from ? "a scheduled text, shown" : "a text scheduled") }
        if slot.pausedAt != nil { words.append("stopped") }
        return words.joined(separator: ", ")
    }
}
