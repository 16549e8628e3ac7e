import Foundation
import SignGraphics
import SignControl
import SignScene
import Testing

@testable import SignDaemon

/// The scene store's hand-over to the frame clock.
@Suite("SceneStore")
struct SceneStoreTests {
    static let fonts = try! FontLibrary()

    @Test(
        "a replaced scene outlives the frame drawing it: the change's thread frees it, 100 ms on, never the frame's"
    )
    func replacedScenesAreRetired() throws {
        let time = VirtualClock()
        let store = try SceneStore(
            config: Scene(width: 64, height: 16, layers: [TextLayer(id: "main", text: "One")]), fonts: Self.fonts,
            time: time)
        // A frame's copy of the scene, and a weak look at a layer only that scene holds.
        var frameCopy: PreparedScene? = store.scene
        weak var drawn = frameCopy?.slots[0].current.tree
        try store.setText("Two", layer: nil, when: .now, now: 0)
        try store.setText("Three", layer: nil, when: .now, now: 0)
        frameCopy = nil  // the frame is done: had it held the last copy, it would free it here
        #expect(drawn != nil, "the store still holds the replaced scene")
        time.advance(by: Double(SceneStore.retiredFor) / 1e9 - 0.001)
        store.releaseRetired()
        #expect(drawn != nil, "kept until 100 ms have passed")
        time.advance(by: 0.001)
        store.releaseRetired()
        #expect(drawn == nil, "freed by the thread that released it, once no frame can draw it")
        _ = frameCopy
    }

    @Test("a layer id no layer has is answered with the layers there are, whichever command named it")
    func unknownLayerNamesTheLayers() throws {
        let store = try SceneStore(
            config: Scene(
                width: 64, height: 16,
                layers: [TextLayer(id: "main", text: "One"), TextLayer(id: "ticker", text: "Two")]),
            fonts: Self.fonts, time: VirtualClock())
        let expected = "no layer \"mian\" (did you mean \"main\"?) (layers: main, ticker)"
        #expect(throws: ControlError(.notFound, expected)) { try store.setRunning(false, layer: "mian", now: 0) }
        #expect(throws: ControlError(.notFound, expected)) {
            try store.setText("x", layer: "mian", when: .now, now: 0)
        }
    }
}
