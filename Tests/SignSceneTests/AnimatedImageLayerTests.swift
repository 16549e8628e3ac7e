import SignGraphics
import Testing

@testable import SignScene

/// Animated contents as a discrete keyframe animation on `contents` added with the layer:
/// the frame shown at the layer's local time, from when the layer was added, looping as set,
/// and the same for a rich text's inline icons.
@Suite("Animated image layers")
struct AnimatedImageLayerTests {
    static let fonts = try! FontLibrary()
    static let red = Color(red: 255, green: 0, blue: 0)
    static let green = Color(red: 0, green: 255, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 255)

    /// Three solid 2x2 frames, red 0.1 s, green 0.2 s, blue 0.3 s, played `plays` times.
    static func frames(plays: Int?) -> AnimatedImage {
        let solid = { (c: Color) in
            ImageBitmap(width: 2, height: 2, premultiplied: Array(repeating: ImageBitmap.premultiplied(c), count: 4))
        }
        return AnimatedImage(frames: [solid(red), solid(green), solid(blue)], delays: [0.1, 0.2, 0.3], plays: plays)
    }

    static func layer(loop: ImageLoop = .file, plays: Int? = nil) -> Layer {
        var layer = Layer(
            id: "icon",
            content: .image(ImageContent(source: "test", image: frames(plays: plays), scaling: .nearest, loop: loop)),
            frame: Rect(x: 0, y: 0, width: 4, height: 4))
        layer.motion = .pixel
        return layer
    }

    static func color(_ layer: Layer, at t: Double, addedAt: Double = 0) throws -> Color {
        let scene = Scene(width: 4, height: 4, layers: [.layer(layer)])
        return Renderer.render(try PreparedScene(scene, beginTime: addedAt, fonts: fonts), at: t).pixel(x: 1, y: 1)
    }

    @Test(
        "each frame shows for its delay on the layer's time, looping forever as the file says",
        arguments: [(0.0, red), (0.099, red), (0.1, green), (0.29, green), (0.31, blue), (0.59, blue), (0.61, red),
            (6.0 + 0.15, green)])
    func frameAtTime(t: Double, expected: Color) throws {
        #expect(try Self.color(Self.layer(), at: t) == expected)
    }

    @Test("the frames begin when the layer is added, as an animation added with it does")
    func beginsWhenAdded() throws {
        #expect(try Self.color(Self.layer(), at: 10.05, addedAt: 10) == Self.red)
        #expect(try Self.color(Self.layer(), at: 10.15, addedAt: 10) == Self.green)
        #expect(try Self.color(Self.layer(), at: 9, addedAt: 10) == Self.red)
    }

    @Test("`loop` plays the frames as the file says, forever, or N times and then holds the last")
    func loops() throws {
        // The file says one play: after 0.6 s the last frame stays.
        #expect(try Self.color(Self.layer(plays: 1), at: 0.65) == Self.blue)
        #expect(try Self.color(Self.layer(loop: .forever, plays: 1), at: 0.65) == Self.red)
        #expect(try Self.color(Self.layer(loop: .times(2), plays: 1), at: 0.65) == Self.red)
        #expect(try Self.color(Self.layer(loop: .times(2), plays: 1), at: 1.25) == Self.blue)
    }

    @Test("the layer's speed slows the frames, and speed 0 with a time offset holds one")
    func layerTime() throws {
        var slow = Self.layer()
        slow.speed = 0.5
        #expect(try Self.color(slow, at: 0.15) == Self.red)  // 0.075 s of its time
        #expect(try Self.color(slow, at: 0.25) == Self.green)
        var held = Self.layer()
        held.speed = 0
        held.timeOffset = 0.45
        #expect(try Self.color(held, at: 0) == Self.blue)
        #expect(try Self.color(held, at: 7.3) == Self.blue)
    }

    @Test("an animated image is never kept as static pixels; a still one is")
    func notStatic() throws {
        #expect(!(try PreparedLayer(Self.layer(), fonts: Self.fonts)).isStatic)
        var still = Self.layer()
        still.content = .image(ImageContent(source: "still", bitmap: Self.frames(plays: nil).first))
        #expect(try PreparedLayer(still, fonts: Self.fonts).isStatic)
    }

    @Test("an animated inline icon in rich text shows its frame at the layer's time, where a still one would be")
    func inlineIcon() throws {
        let layer = Layer(
            content: .text(TextContent(text: "a{icon:dot}b", fallbacks: FontSpec.defaultFallbacks(for: .defaultFace))),
            frame: Rect(x: 0, y: 0, width: 32, height: 16))
        var scene = Scene(width: 32, height: 16, layers: [.layer(layer)])
        scene.icons = ["dot": Self.frames(plays: nil)]
        let prepared = try PreparedScene(scene, beginTime: 0, fonts: Self.fonts)
        // After "a" (6 px): the icon, scaled to the 10-pixel line.
        for (t, expected) in [(0.05, Self.red), (0.2, Self.green), (0.4, Self.blue), (0.65, Self.red)] {
            let frame = Renderer.render(prepared, at: t)
            #expect(frame.pixel(x: 10, y: 8) == expected, "at \(t)")
        }
        var still = scene
        still.icons = ["dot": AnimatedImage(still: Self.frames(plays: nil).frames[1])]
        let stillFrame = Renderer.render(try PreparedScene(still, beginTime: 0, fonts: Self.fonts), at: 0.4)
        let animatedFrame = Renderer.render(prepared, at: 0.2)
        #expect(stillFrame == animatedFrame)
    }

    @Test("an animated icon scrolls with its marquee, through the faded edges, as the same icon still at that frame does")
    func marqueeIcon() throws {
        func scene(_ icon: AnimatedImage) throws -> PreparedScene {
            let layer = TextLayer(
                id: "main", text: "ab{icon:dot}cd", fallbacks: [], marquee: Marquee(speed: 40, fade: .pixels(8)))
            var scene = Scene(width: 40, height: 10, layers: [layer])
            scene.icons = ["dot": icon]
            return try PreparedScene(scene, beginTime: 0, fonts: Self.fonts)
        }
        let animated = try scene(Self.frames(plays: nil))
        for (t, k) in [(0.05, 0), (0.25, 1), (0.45, 2), (1.0, 2)] {
            let still = try scene(AnimatedImage(still: Self.frames(plays: nil).frames[k]))
            let a = Renderer.render(animated, at: t), b = Renderer.render(still, at: t)
            var worst = 0
            for y in 0..<a.height {
                for x in 0..<a.width {
                    let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                    worst = max(
                        worst, abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)),
                        abs(Int(p.blue) - Int(q.blue)))
                }
            }
            #expect(worst <= 1, "at \(t): differs by \(worst)")
        }
    }
}
