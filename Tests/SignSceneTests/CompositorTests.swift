import SignGraphics
import SignTiming
import Testing

@testable import SignScene

@Suite("Compositor")
struct CompositorTests {
    static let fonts = try! FontLibrary()

    func render(_ layers: [Layer], width: Int = 4, height: Int = 1, at t: Double = 0) throws -> Frame {
        let scene = Scene(width: width, height: height, layers: layers.map { .layer($0) })
        return Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: t)
    }

    @Test("an axial gradient samples pixel centres: black to white over 4 px is 32, 96, 159, 223")
    func gradientPixels() throws {
        let layer = Layer(
            content: .gradient(
                Gradient(
                    ramp: ColorRamp(colors: [.black, .white]), startPoint: Point(x: 0, y: 0.5),
                    endPoint: Point(x: 1, y: 0.5))),
            frame: Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(
            try render([layer]).pixels.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) == [32, 96, 159, 223])
    }

    @Test("locations outside [0, 1] are legal: the first and last colours extend past them")
    func locationsOutside() throws {
        let layer = Layer(
            content: .gradient(
                Gradient(
                    ramp: ColorRamp(colors: [.black, .white], locations: [-1, 0.25]), startPoint: Point(x: 0, y: 0.5),
                    endPoint: Point(x: 1, y: 0.5))),
            frame: Rect(x: 0, y: 0, width: 4, height: 1))
        // u = 0.125 is 1.125 / 1.25 of the way from -1 to 0.25: 229.5 rounds to 230; past 0.25 it is white.
        #expect(
            try render([layer]).pixels.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) == [
                230, 255, 255, 255,
            ])
    }

    @Test("a mask contributes only its alpha: red under a half-transparent mask is half red")
    func maskAlpha() throws {
        var red = Layer(
            frame: Rect(x: 0, y: 0, width: 4, height: 1), backgroundColor: Color(red: 255, green: 0, blue: 0))
        red.mask = Layer(
            frame: Rect(x: 0, y: 0, width: 2, height: 1),
            backgroundColor: Color(red: 0, green: 0, blue: 255, alpha: 128))
        let frame = try render([red])
        #expect(frame.pixel(x: 0, y: 0) == Color(red: 128, green: 0, blue: 0))
        #expect(frame.pixel(x: 3, y: 0) == .black)
    }

    @Test("a mask applied straight to a single paint draws what masking the isolated layer draws")
    func maskedPaintMatchesIsolation() throws {
        // A moving red-to-blue gradient under a clear-to-opaque mask, over a green backdrop.
        var moving = Layer(
            content: .gradient(
                Gradient(
                    ramp: ColorRamp(colors: [Color(red: 255, green: 0, blue: 0), Color(red: 0, green: 0, blue: 255)]),
                    startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))),
            frame: Rect(x: 0.5, y: 0, width: 15, height: 4))
        moving.opacity = 0.8
        moving.animations = [
            .property(
                PropertyAnimation(
                    keyPath: .translationX,
                    motion: .basic(BasicValues(from: .number(0), to: .number(4))), timing: MediaTiming(duration: 1)))
        ]
        func container(_ sublayers: [Layer]) -> Layer {
            var layer = Layer(frame: Rect(x: 0, y: 0, width: 16, height: 4), sublayers: sublayers)
            layer.mask = Layer(
                content: .gradient(
                    Gradient(
                        ramp: ColorRamp(colors: [.clear, .white]), startPoint: Point(x: 0, y: 0.5),
                        endPoint: Point(x: 1, y: 0.5))),
                frame: Rect(x: 0, y: 0, width: 16, height: 4))
            return layer
        }
        let backdrop = Layer(
            frame: Rect(x: 0, y: 0, width: 16, height: 4),
            backgroundColor: Color(red: 0, green: 160, blue: 0, alpha: 200))
        let single = container([moving])
        // An empty second sublayer draws nothing but makes two paints: the layer is drawn apart.
        let isolated = container([moving, Layer(frame: Rect(x: 0, y: 0, width: 1, height: 1))])
        #expect(try PreparedLayer(single, fonts: Self.fonts).drawsOnce)
        #expect(try !PreparedLayer(isolated, fonts: Self.fonts).drawsOnce)
        for t in [0.0, 0.37, 0.8] {
            let a = try render([backdrop, single], width: 16, height: 4, at: t)
            let b = try render([backdrop, isolated], width: 16, height: 4, at: t)
            let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "at \(t) s a channel differs by \(worst)")
            #expect(a.pixels != Frame(width: 16, height: 4).pixels)
        }
    }

    @Test(
        "a masked layer moving by whole pixels keeps its static mask: drawn once, placed each frame, as if drawn in place"
    )
    func movingMaskKept() throws {
        // A white layer sliding right one pixel a frame under a fade that moves with it.
        func slider(maskAnimates: Bool) -> Layer {
            var layer = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 4), backgroundColor: .white)
            layer.animations = [
                .property(
                    PropertyAnimation(
                        keyPath: .translationX, motion: .basic(BasicValues(from: .number(0), to: .number(60))),
                        timing: MediaTiming(duration: 1)))
            ]
            var mask = Layer(
                content: .gradient(
                    Gradient(
                        ramp: ColorRamp(colors: [.clear, .white]), startPoint: Point(x: 0, y: 0.5),
                        endPoint: Point(x: 1, y: 0.5))),
                frame: Rect(x: 0, y: 0, width: 8, height: 4))
            if maskAnimates {
                // Animated to the value it has: draws the same, but is not static.
                mask.animations = [
                    .property(
                        PropertyAnimation(
                            keyPath: .opacity, motion: .basic(BasicValues(from: .number(1), to: .number(1))),
                            timing: MediaTiming(duration: 10)))
                ]
            }
            layer.mask = mask
            return layer
        }
        let scene = { (layer: Layer) in
            try PreparedScene(
                Scene(width: 32, height: 4, layers: [.layer(layer)]), beginTime: 0, fonts: Self.fonts)
        }
        let kept = try scene(slider(maskAnimates: false)), drawn = try scene(slider(maskAnimates: true))
        let renderer = Renderer(width: 32, height: 4)
        var frame = Frame(width: 32, height: 4)
        for step in 0..<20 {
            let t = Double(step) / 60
            renderer.render(kept, at: t, into: &frame)
            #expect(step == 0 ? renderer.cacheFills == 1 : renderer.cacheFills == 0, "frame \(step)")
            let reference = Renderer.render(drawn, at: t)
            let worst = zip(frame.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "frame \(step): a channel differs by \(worst) from the mask drawn in place")
            #expect(frame.pixel(x: step + 7, y: 0).red > 200, "frame \(step): the layer moved")
        }
    }

    @Test("a tree's extent is its frame unless its geometry animates or it may draw outside it")
    func extents() throws {
        var gradient = Layer(
            content: .gradient(Gradient(ramp: ColorRamp(colors: [.white, .black]))),
            frame: Rect(x: 2, y: 20, width: 8, height: 4))
        gradient.animations = [
            .property(
                PropertyAnimation(
                    keyPath: .locations, motion: .basic(BasicValues(from: .numbers([0, 1]), to: .numbers([0.5, 1]))),
                    timing: MediaTiming(duration: 1)))
        ]
        #expect(try PreparedLayer(gradient, fonts: Self.fonts).extent == Rect(x: 2, y: 20, width: 8, height: 4))
        var moving = gradient
        moving.animations.append(
            .property(
                PropertyAnimation(
                    keyPath: .positionY, motion: .basic(BasicValues(from: .number(22), to: .number(0))),
                    timing: MediaTiming(duration: 1))))
        #expect(try PreparedLayer(moving, fonts: Self.fonts).extent == nil)
        let shape = Layer(
            content: .shape(
                ShapeContent(path: RoundedRect(rect: Rect(x: -20, y: 0, width: 40, height: 4)), fill: .color(.white))),
            frame: Rect(x: 0, y: 0, width: 4, height: 4))
        #expect(try PreparedLayer(shape, fonts: Self.fonts).extent == nil, "a path may reach past the frame")
        var clipped = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 4), sublayers: [shape])
        clipped.masksToBounds = true
        #expect(try PreparedLayer(clipped, fonts: Self.fonts).extent == Rect(x: 0, y: 0, width: 4, height: 4))

        // Below a 16x8 board the animated gradient is skipped; moved into view it draws.
        #expect(try render([gradient], width: 16, height: 8, at: 0.5) == Frame(width: 16, height: 8))
        #expect(try render([moving], width: 16, height: 8, at: 0.95) != Frame(width: 16, height: 8))
    }

    @Test("a white layer's opacity animated 0 to 1 over 1 s is mid-grey at 0.5 s")
    func opacityAnimation() throws {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 1), backgroundColor: .white)
        layer.animations = [
            .property(
                PropertyAnimation(
                    keyPath: .opacity, motion: .basic(BasicValues(from: .number(0), to: .number(1))),
                    timing: MediaTiming(duration: 1)))
        ]
        #expect(try render([layer], at: 0.5).pixel(x: 0, y: 0) == Color(red: 128, green: 128, blue: 128))
    }

    @Test("fillMode forwards holds the end value only when the animation is not removed on completion")
    func removedOnCompletion() throws {
        func layer(removed: Bool) -> Layer {
            var l = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 1), backgroundColor: .white, animations: [])
            l.animations = [
                .property(
                    PropertyAnimation(
                        keyPath: .opacity, motion: .basic(BasicValues(from: .number(1), to: .number(0.2))),
                        timing: MediaTiming(duration: 1, fillMode: .forwards), isRemovedOnCompletion: removed))
            ]
            return l
        }
        #expect(try render([layer(removed: true)], at: 2).pixel(x: 0, y: 0) == .white)
        #expect(try render([layer(removed: false)], at: 2).pixel(x: 0, y: 0) == Color(red: 51, green: 51, blue: 51))
    }

    @Test("a rounded rectangle's corner pixel is partly covered (anti-aliased), its middle fully")
    func antialiasedCorner() throws {
        let shape = Layer(
            content: .shape(
                ShapeContent(
                    path: RoundedRect(rect: Rect(x: 0, y: 0, width: 8, height: 8), cornerRadius: 4),
                    fill: .color(.white))),
            frame: Rect(x: 0, y: 0, width: 8, height: 8))
        let frame = try render([shape], width: 8, height: 8)
        let corner = frame.pixel(x: 0, y: 0).red, edge = frame.pixel(x: 1, y: 0).red,
            middle = frame.pixel(x: 4, y: 4).red
        #expect(corner < edge && edge < 255 && middle == 255)
        #expect(corner == frame.pixel(x: 7, y: 7).red)
    }

    @Test("a path morphs between rectangles and radii with its corners round throughout")
    func pathMorph() {
        let a = AnimatableValue.path(RoundedRect(rect: Rect(x: 0, y: 0, width: 20, height: 10), cornerRadius: 0))
        let b = AnimatableValue.path(RoundedRect(rect: Rect(x: 40, y: 0, width: 30, height: 10), cornerRadius: 5))
        #expect(
            a.interpolated(to: b, fraction: 0.5)
                == .path(RoundedRect(rect: Rect(x: 20, y: 0, width: 25, height: 10), cornerRadius: 2.5)))
    }

    @Test("colours interpolate as straight RGBA in the encoded space")
    func colorInterpolation() {
        let mid = AnimatableValue(.white).interpolated(to: AnimatableValue(.clear), fraction: 0.5)
        #expect(mid.color == Color(red: 128, green: 128, blue: 128, alpha: 128))
    }
}

@Suite("Image layers")
struct ImageLayerTests {
    /// A 2x1 image: opaque red, then half-transparent white.
    let image = ImageBitmap(width: 2, height: 1, straightRGBA: [255, 0, 0, 255, 255, 255, 255, 128])

    func render(_ layer: Layer, width: Int = 4) throws -> Frame {
        let scene = Scene(width: width, height: 1, layers: [.layer(layer)])
        return Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: CompositorTests.fonts), at: 0)
    }

    @Test("nearest scaling repeats texels; alpha is kept (half white over black is grey)")
    func nearest() throws {
        let layer = Layer(
            content: .image(ImageContent(source: "test", bitmap: image, scaling: .nearest)),
            frame: Rect(x: 0, y: 0, width: 4, height: 1))
        let reds = try render(layer).pixels.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        #expect(reds == [255, 255, 128, 128])
    }

    @Test("linear scaling blends neighbouring texels at pixel centres (hand-computed)")
    func linear() throws {
        let layer = Layer(
            content: .image(ImageContent(source: "test", bitmap: image, scaling: .linear)),
            frame: Rect(x: 0, y: 0, width: 4, height: 1))
        let frame = try render(layer)
        // Pixel centres map to u = -0.25, 0.25, 0.75, 1.25: clamped red, 3/4 red + 1/4 white,
        // 1/4 red + 3/4 white, white. Premultiplied white is (0.502, 0.502, 0.502, 0.502).
        #expect(frame.pixel(x: 0, y: 0) == Color(red: 255, green: 0, blue: 0))
        #expect(frame.pixel(x: 1, y: 0) == Color(red: 223, green: 32, blue: 32))
        #expect(frame.pixel(x: 2, y: 0) == Color(red: 160, green: 96, blue: 96))
        #expect(frame.pixel(x: 3, y: 0) == Color(red: 128, green: 128, blue: 128))
    }

    @Test("an image as a mask contributes only its alpha")
    func imageMask() throws {
        var layer = Layer(
            frame: Rect(x: 0, y: 0, width: 2, height: 1), backgroundColor: Color(red: 0, green: 255, blue: 0))
        layer.mask = Layer(
            content: .image(ImageContent(source: "test", bitmap: image, scaling: .nearest)),
            frame: Rect(x: 0, y: 0, width: 2, height: 1))
        let frame = try render(layer, width: 2)
        #expect(frame.pixel(x: 0, y: 0) == Color(red: 0, green: 255, blue: 0))
        #expect(frame.pixel(x: 1, y: 0) == Color(red: 0, green: 128, blue: 0))
    }
}
