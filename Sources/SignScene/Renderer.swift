import Glibc
import SignGraphics
import SignTiming

/// Draws a prepared scene at a time into a frame, through a compositor it keeps (so its
/// canvases are reused frame after frame). Reads only what preparation made: no FreeType
/// call per frame.
public final class Renderer {
    private let compositor: Compositor
    /// The size it draws.
    public let width: Int
    public let height: Int
    /// How long each top-level layer took to draw in the last frame (wall clock, ns, in the
    /// scene's order; 0 for a still layer, on the board from the start): for the log of a
    /// frame that overran.
    public private(set) var layerNanoseconds: [UInt64] = []
    /// Static subtrees the last frame drew into the cache (first sight, or moved).
    public var cacheFills: Int { compositor.cacheFills }

    public init(width: Int, height: Int) {
        compositor = Compositor(width: width, height: height)
        self.width = width
        self.height = height
    }

    /// Renders `scene` at scene time `t` into `frame` (which must match the board's size).
    public func render(_ scene: PreparedScene, at t: Double, into frame: inout Frame) {
        // The kept arrays are worked on as locals (taken out and put back): each access to a
        // class's stored array is checked for exclusivity at run time.
        var trees: [(tree: PreparedLayer, time: Double)] = []
        var times: [UInt64] = []
        swap(&trees, &self.trees)
        swap(&times, &layerNanoseconds)
        if times.count != scene.slots.count { times = Array(repeating: 0, count: scene.slots.count) }
        scene.slots.withUnsafeBufferPointer { slots in
            // Written in place while the scene keeps its number of layers (emptying the array
            // and appending again went through the array's generic replacing every frame).
            if trees.count != slots.count {
                trees = slots.indices.map { PreparedScene.Slot.drawing(slots.baseAddress! + $0, at: t) }
                return
            }
            trees.withUnsafeMutableBufferPointer { kept in
                for i in slots.indices { kept[i] = PreparedScene.Slot.drawing(slots.baseAddress! + i, at: t) }
            }
        }
        compositor.begin(trees)
        // The clock is read once before the layers and once after each drawn one: a still
        // layer is on the board already and takes no time of its own.
        var start = MonotonicClock.now()
        for i in trees.indices {
            guard compositor.draw(trees[i].tree, at: trees[i].time) else {
                times[i] = 0
                continue
            }
            let end = MonotonicClock.now()
            times[i] = end &- start
            start = end
        }
        compositor.finish(over: scene.scene.background, into: &frame)
        swap(&trees, &self.trees)
        swap(&times, &layerNanoseconds)
    }

    /// This frame's top-level trees and their times (storage kept between frames).
    private var trees: [(tree: PreparedLayer, time: Double)] = []

    /// Renders into a new frame with a new renderer; for tools and tests.
    public static func render(_ scene: PreparedScene, at t: Double) -> Frame {
        var frame = Frame(width: scene.scene.width, height: scene.scene.height)
        Renderer(width: frame.width, height: frame.height).render(scene, at: t, into: &frame)
        return frame
    }
}
