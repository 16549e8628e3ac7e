import SignGraphics
import SignTiming
import Testing

@testable import SignScene

/// `CAReplicatorLayer`: instances moved by the instance transform applied i times, i delays
/// behind, tinted by the instance colour plus i offsets.
@Suite("Replicator")
struct ReplicatorTests {
    static let fonts = try! FontLibrary()

    func render(_ layers: [Layer], width: Int = 8, height: Int = 8, at t: Double = 0) throws -> Frame {
        let scene = Scene(width: width, height: height, layers: layers.map { .layer($0) })
        return Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: t)
    }

    func replicator(_ r: Replicator, _ sublayers: [Layer], width: Double = 8, height: Double = 8) -> Layer {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: width, height: height), sublayers: sublayers)
        layer.replicator = r
        return layer
    }

    func row(_ frame: Frame, _ y: Int) -> [UInt8] { (0..<frame.width).map { frame.pixel(x: $0, y: y).red } }

    @Test("instance i is moved by the instance transform applied i times: a translation lines up bars")
    func translatedInstances() throws {
        var r = Replicator()
        r.instanceCount = 3
        r.instanceTransform.translation = Point(x: 3, y: 0)
        let bar = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 8), backgroundColor: .white)
        let frame = try render([replicator(r, [bar])])
        #expect(row(frame, 4) == [255, 255, 0, 255, 255, 0, 255, 255])
    }

    @Test("a rotation about the replicator's anchor point puts the copies of a dot round its middle")
    func rotatedInstances() throws {
        var r = Replicator()
        r.instanceCount = 4
        r.instanceTransform.rotationZ = .pi / 2
        let dot = Layer(frame: Rect(x: 3, y: 0, width: 2, height: 2), backgroundColor: .white)
        let frame = try render([replicator(r, [dot])])
        let lit = Set((0..<8).flatMap { y in (0..<8).filter { frame.pixel(x: $0, y: y) == .white }.map { [$0, y] } })
        let expected = Set([
            [3, 0], [4, 0], [3, 1], [4, 1],  // instance 0, on top
            [6, 3], [7, 3], [6, 4], [7, 4],  // a quarter turn clockwise: right
            [3, 6], [4, 6], [3, 7], [4, 7],  // bottom
            [0, 3], [1, 3], [0, 4], [1, 4],  // left
        ])
        #expect(lit == expected)
        #expect((0..<8).allSatisfy { y in (0..<8).allSatisfy { x in lit.contains([x, y]) || frame.pixel(x: x, y: y) == .black } })
    }

    @Test("instance i runs i delays behind instance 0: at 0.5 s with delay 0.25 the copies are at 0.5, 0.25 and 0 s")
    func delayedInstances() throws {
        var r = Replicator()
        r.instanceCount = 3
        r.instanceDelay = 0.25
        var dot = Layer(frame: Rect(x: 0, y: 0, width: 1, height: 1), backgroundColor: .white)
        // position.x from 0.5 to 8.5 in 1 s: x = 0.5 + 8 t, whole pixels at quarter seconds.
        dot.animations = [
            .property(
                PropertyAnimation(
                    keyPath: .positionX, motion: .basic(BasicValues(from: .number(0.5), to: .number(8.5))),
                    timing: MediaTiming(duration: 1)))
        ]
        let frame = try render([replicator(r, [dot], height: 1)], height: 1, at: 0.5)
        // Instance 0 at t = 0.5: x = 4.5 (pixel 4); instance 1 at 0.25: 2.5; instance 2 at 0: 0.5.
        #expect(row(frame, 0) == [255, 0, 255, 0, 255, 0, 0, 0])
        #expect(r.time(ofInstance: 2, at: 0.5) == 0)
    }

    @Test("instance i's colour is instanceColor + i offsets, clamped, multiplying what it draws")
    func tintedInstances() throws {
        var r = Replicator()
        r.instanceCount = 4
        r.instanceTransform.translation = Point(x: 2, y: 0)
        r.colorOffset = SIMD4(-0.5, 0, 0, 0)
        let cell = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 1), backgroundColor: .white)
        let frame = try render([replicator(r, [cell], height: 1)], height: 1)
        #expect(r.color(ofInstance: 3) == SIMD4(0, 1, 1, 1))
        #expect(row(frame, 0) == [255, 255, 128, 128, 0, 0, 0, 0])
        #expect(frame.pixel(x: 6, y: 0) == Color(red: 0, green: 255, blue: 255))
        // Alpha multiplies too: half-transparent white over black is half grey.
        r.instanceColor = SIMD4(1, 1, 1, 0.5)
        r.colorOffset = .zero
        let faint = try render([replicator(r, [cell], height: 1)], height: 1)
        #expect(faint.pixel(x: 0, y: 0) == Color(red: 128, green: 128, blue: 128))
    }
}
