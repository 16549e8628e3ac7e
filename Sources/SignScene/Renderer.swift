import SignGraphics

/// Draws a prepared scene at a time into a frame, through a compositor it keeps (so its
/// canvases are reused frame after frame). Reads only what preparation made: no FreeType
/// call per frame.
public final class Renderer {
    private let compositor: Compositor
    /// The size it draws.
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        compositor = Compositor(width: width, height: height)
        self.width = width
        self.height = height
    }

    /// Renders `scene` at scene time `t` into `frame` (which must match the board's size).
    public func render(_ scene: PreparedScene, at t: Double, into frame: inout Frame) {
        compositor.begin()
        for i in scene.slots.indices {
            let (tree, time) = scene.slots[i].drawing(at: t)
            compositor.draw(tree, at: time)
        }
        compositor.finish(over: scene.scene.background, into: &frame)
    }

    /// Renders into a new frame with a new renderer; for tools and tests.
    public static func render(_ scene: PreparedScene, at t: Double) -> Frame {
        var frame = Frame(width: scene.scene.width, height: scene.scene.height)
        Renderer(width: frame.width, height: frame.height).render(scene, at: t, into: &frame)
        return frame
    }
}
