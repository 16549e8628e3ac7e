import SignGraphics
import SignOutput
import SignScene

/// What the frame clock does every tick: render the current scene at the frame's time into
/// the one frame buffer it owns and hand it to every output.
final class RenderLoop: Sendable {
    private let store: SceneStore
    private let outputs: [any FrameSink]
    // Only touched on the frame clock's serial queue.
    private nonisolated(unsafe) var frame: Frame

    init(store: SceneStore, outputs: [any FrameSink]) {
        self.store = store
        self.outputs = outputs
        let scene = store.scene.scene
        self.frame = Frame(width: scene.width, height: scene.height, fill: scene.background)
    }

    func render(_ tick: FrameClock.Tick) {
        let scene = store.scene
        Renderer.render(scene, at: tick.time, into: &frame)
        for output in outputs {
            output.send(frame, number: tick.number, deadline: tick.deadline)
        }
    }
}
