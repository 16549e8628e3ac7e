import SignGraphics
import SignTiming
import Testing

@testable import SignScene

/// Animations compiled into typed tracks (`LayerTrack`) for the frame loop.
@Suite("LayerTrack")
struct LayerTrackTests {
    static let fonts = try! FontLibrary()

    static func animation(
        _ property: LayerProperty, _ motion: LayerPropertyAnimation.Motion, duration: Double = 2,
        repeatCount: Double = 0, autoreverses: Bool = false, fillMode: FillMode = .removed,
        timingFunction: TimingFunction? = nil, additive: Bool = false, cumulative: Bool = false,
        removedOnCompletion: Bool = true
    ) -> LayerAnimation {
        .property(
            PropertyAnimation(
                keyPath: property, motion: motion,
                timing: MediaTiming(
                    beginTime: 0.25, duration: duration, repeatCount: repeatCount, autoreverses: autoreverses,
                    fillMode: fillMode),
                timingFunction: timingFunction, isAdditive: additive, isCumulative: cumulative,
                isRemovedOnCompletion: removedOnCompletion))
    }

    static func rgba(_ hex: UInt32) -> AnimatableValue {
        AnimatableValue(
            Color(
                red: UInt8(hex >> 24), green: UInt8(hex >> 16 & 255), blue: UInt8(hex >> 8 & 255),
                alpha: UInt8(hex & 255)))
    }

    /// Layers with animations of every kind a track types (and some it leaves as they are).
    static func layers() -> [(String, Layer)] {
        var shape = Layer(
            id: "shape",
            content: .shape(
                ShapeContent(
                    path: RoundedRect(rect: Rect(x: 1, y: 1, width: 10, height: 6), cornerRadius: 2),
                    fill: .color(.white), stroke: .color(Color(red: 0, green: 128, blue: 255)), lineWidth: 1)),
            frame: Rect(x: 4, y: 2, width: 12, height: 8))
        shape.backgroundColor = Color(red: 10, green: 20, blue: 30)
        shape.animations = [
            animation(
                .opacity, .basic(BasicValues(from: .number(0.2), to: .number(0.9))), repeatCount: 3,
                autoreverses: true, timingFunction: .easeInEaseOut),
            animation(
                .position,
                .keyframes(
                    Keyframes(
                        values: [.point(Point(x: 0, y: 0)), .point(Point(x: 9, y: 1)), .point(Point(x: 3, y: 7))],
                        calculationMode: .paced)), fillMode: .both, removedOnCompletion: false),
            animation(.positionX, .basic(BasicValues(by: .number(2.5))), additive: true),
            animation(
                .backgroundColor,
                .keyframes(
                    Keyframes(
                        values: [rgba(0xff0000ff), rgba(0x00ff0080), rgba(0x0000ffff), rgba(0xffffff00)],
                        calculationMode: .cubic)), repeatCount: .infinity),
            animation(.lineWidth, .spring(BasicValues(from: .number(1), to: .number(3)), Spring(damping: 4))),
            animation(.fillColor, .basic(BasicValues(to: rgba(0x20406080)))),
            animation(
                .translationY, .basic(BasicValues(from: .number(0), to: .number(1.5))), repeatCount: 2,
                cumulative: true),
            // Values of another kind than the key path's: left as they are, and still nearest-end.
            animation(.anchorPoint, .basic(BasicValues(to: .number(1)))),
            .group(
                AnimationGroup(
                    timing: MediaTiming(beginTime: 0.5, duration: 3),
                    animations: [
                        animation(.cornerRadius, .basic(BasicValues(from: .number(0), to: .number(4)))),
                        animation(.borderColor, .basic(BasicValues(from: rgba(0x000000ff), to: rgba(0xffffffff)))),
                    ])),
        ]
        var gradient = Layer(
            id: "gradient",
            content: .gradient(
                Gradient(
                    ramp: ColorRamp(colors: [.black, .white, .black], locations: [0, 0.5, 1]),
                    startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))),
            frame: Rect(x: 0, y: 0, width: 20, height: 4))
        gradient.animations = [
            animation(
                .locations,
                .basic(
                    BasicValues(
                        from: .numbers([-1, -0.5, 0]), to: .numbers([1, 1.5, 2]))), repeatCount: .infinity),
            animation(
                .startPoint,
                .keyframes(
                    Keyframes(
                        values: [.point(Point(x: 0, y: 0)), .point(Point(x: 0.5, y: 1))],
                        timingFunctions: [.easeIn]))),
            animation(
                .colors, .basic(BasicValues(to: .colors([SIMD4(1, 0, 0, 1), SIMD4(0, 1, 0, 1), SIMD4(0, 0, 1, 1)])))),
            // A list of another length: the nearer end wins.
            animation(.locations, .basic(BasicValues(to: .numbers([0.25, 0.75]))), fillMode: .forwards),
        ]
        var text = Layer(
            id: "text", content: .text(TextContent(text: "OPEN", font: .defaultFace)),
            frame: Rect(x: 0, y: 0, width: 30, height: 10))
        text.animations = [
            animation(
                .foregroundColor,
                .keyframes(
                    Keyframes(
                        values: [rgba(0xffb000ff), rgba(0xff6040ff), rgba(0xffb000ff)],
                        calculationMode: .linear)), duration: 3, repeatCount: .infinity, timingFunction: .easeInEaseOut),
            animation(
                .translationX, .basic(BasicValues(from: .number(0), to: .number(-40))), duration: 5,
                repeatCount: .infinity),
            // A border colour never set starts from clear.
            animation(.borderColor, .basic(BasicValues(to: rgba(0x00ff00ff))), autoreverses: true),
            animation(
                .anchorPoint, .basic(BasicValues(to: .point(Point(x: 0, y: 1)))), timingFunction: .easeOut),
            // A shape's properties on a text layer: nothing to read, nothing written.
            animation(.lineWidth, .basic(BasicValues(by: .number(2)))),
            animation(.strokeColor, .basic(BasicValues(to: rgba(0xff0000ff)))),
            animation(
                .opacity, .spring(BasicValues(from: .number(-0.5), to: .number(0)), Spring(damping: 3)), additive: true),
        ]
        // Ends given, but a property the layer lacks: a fill that is a gradient has no colour
        // to animate, and a text no stroke. Nothing is written, as the animation has it.
        var stroked = Layer(
            id: "stroked",
            content: .shape(
                ShapeContent(
                    path: RoundedRect(rect: Rect(x: 0, y: 0, width: 8, height: 8), cornerRadius: 1),
                    fill: .gradient(Gradient(ramp: ColorRamp(colors: [.black, .white]))))),
            frame: Rect(x: 0, y: 0, width: 8, height: 8))
        stroked.animations = [
            animation(.fillColor, .basic(BasicValues(from: rgba(0xff0000ff), to: rgba(0x0000ffff)))),
            animation(.strokeColor, .keyframes(Keyframes(values: [rgba(0xff0000ff), rgba(0x00ff00ff)]))),
        ]
        text.animations.append(
            animation(.strokeColor, .basic(BasicValues(from: rgba(0xff0000ff), to: rgba(0x0000ffff)))))
        return [("shape", shape), ("gradient", gradient), ("text", text), ("stroked", stroked)]
    }

    @Test("compiled tracks present the same layer as the animations they were compiled from")
    func sameAsAnimations() throws {
        for (name, layer) in Self.layers() {
            let prepared = try PreparedLayer(layer, fonts: Self.fonts)
            // Steps through several cycles, and the instants windows begin and end.
            let times = (0...400).map { Double($0) * 0.0173 } + [0.25, 0.5, 2.25, 3.5, 4.25, 5.25, 6.25]
            for t in times {
                // Compared as one flag: a mismatch names the layer and time, not both trees.
                let same = prepared.presentation(at: t) == layer.presentation(at: t)
                #expect(same, "\(name) at \(t)")
            }
        }
    }

    @Test(
        "property animations of numbers, points, colours and locations are typed; groups and mismatched values are not")
    func typedKinds() throws {
        let kinds = Self.layers().flatMap { _, layer in
            layer.animations.map { animation -> String in
                switch LayerTrack(animation, on: layer) {
                case .number: return "number"
                case .point: return "point"
                case .color: return "color"
                case .list: return "list"
                case .path: return "path"
                case .value: return "value"
                }
            }
        }
        #expect(
            kinds == [
                "number", "point", "number", "color", "number", "color", "number", "value", "value",
                "list", "point", "value", "list",
                "color", "number", "color", "point", "number", "color", "number", "color",
                "color", "color",
            ])
    }

    /// Layers whose every animation is typed and moves a property of its own, so a
    /// presentation is brought up to date in place (`PreparedLayer.present(at:into:)`).
    static func inPlaceLayers() -> [(String, Layer)] {
        var text = Layer(
            id: "text", content: .text(TextContent(text: "OPEN", font: .defaultFace)),
            frame: Rect(x: 0, y: 0, width: 30, height: 10))
        text.backgroundColor = Color(red: 10, green: 20, blue: 30)
        text.animations = [
            animation(
                .foregroundColor,
                .keyframes(
                    Keyframes(
                        values: [rgba(0xffb000ff), rgba(0xff6040ff), rgba(0xffb000ff)], calculationMode: .linear)),
                duration: 3, repeatCount: .infinity, timingFunction: .easeInEaseOut),
            // Removed on completion: before 0.25 s and after 2.25 s the model's value shows.
            animation(.translationX, .basic(BasicValues(from: .number(0), to: .number(-40)))),
            // Not taken apart (additive, a spring): the model's value is what they add to.
            animation(.position, .basic(BasicValues(by: .point(Point(x: 2, y: 1)))), additive: true),
            animation(.opacity, .spring(BasicValues(from: .number(0.2), to: .number(1)), Spring(damping: 3))),
            animation(.backgroundColor, .basic(BasicValues(to: rgba(0x00ff00ff))), autoreverses: true),
            animation(
                .anchorPoint,
                .keyframes(Keyframes(values: [.point(Point(x: 0, y: 0)), .point(Point(x: 1, y: 1))])),
                fillMode: .backwards),
        ]
        var gradient = Layer(
            id: "gradient",
            content: .gradient(
                Gradient(
                    ramp: ColorRamp(colors: [.black, .white, .black], locations: [0.25, 0.5, 0.75]),
                    startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))),
            frame: Rect(x: 0, y: 0, width: 20, height: 4))
        gradient.animations = [
            animation(.locations, .basic(BasicValues(from: .numbers([0, 0, 0.25]), to: .numbers([0.75, 1, 1])))),
            animation(.endPoint, .basic(BasicValues(to: .point(Point(x: 1, y: 1)))), fillMode: .forwards),
            animation(.cornerRadius, .basic(BasicValues(from: .number(0), to: .number(2))), repeatCount: 2),
        ]
        // Path morphs: a blob into a star by its ends (removed on completion, so the model's
        // path shows before and after), and through linear keyframes eased per segment.
        let blob = try! PathData.parse("M10 2C14 2 17 4 17 6C17 8 14 10 10 10C6 10 3 8 3 6C3 4 6 2 10 2Z")
        let star = try! PathData.parse("M10 0C12 3 19 4 15 6C19 8 12 9 10 12C8 9 1 8 5 6C1 4 8 3 10 0Z")
        let wide = try! PathData.parse("M10 3C16 2 20 5 20 6C20 7 16 10 10 9C4 10 0 7 0 6C0 5 4 2 10 3Z")
        var shape = ShapeContent(path: RoundedRect(rect: .zero), fill: .color(.white), stroke: .color(.black))
        shape.pathData = blob
        var morph = Layer(id: "morph", content: .shape(shape), frame: Rect(x: 0, y: 0, width: 20, height: 12))
        morph.animations = [
            animation(.path, .basic(BasicValues(from: .pathData(blob), to: .pathData(star))), timingFunction: .easeIn)
        ]
        var keyframed = morph
        keyframed.animations = [
            animation(
                .path,
                .keyframes(
                    Keyframes(
                        values: [.pathData(blob), .pathData(star), .pathData(wide)], keyTimes: [0, 0.3, 1],
                        timingFunctions: [.easeOut, .easeInEaseOut])), repeatCount: 2, autoreverses: true,
                fillMode: .backwards)
        ]
        return [
            ("in-place text", text), ("in-place gradient", gradient), ("in-place morph", morph),
            ("in-place morph keyframes", keyframed),
        ]
    }

    @Test("a presentation brought up to date in place, frame after frame and back, is the presentation at each time")
    func presentedInPlace() throws {
        let inPlace = Self.inPlaceLayers()
        for (name, layer) in inPlace + Self.layers() {
            let prepared = try PreparedLayer(layer, fonts: Self.fonts)
            // The path under test: every in-place layer takes it; a layer with a group, two
            // animations of one property or one the layer lacks copies its model instead.
            #expect(prepared.updatesInPlace == inPlace.contains { $0.0 == name }, "\(name)")
            let presented = UnsafeMutablePointer<Layer>.allocate(capacity: 1)
            presented.initialize(to: layer)
            defer {
                presented.deinitialize(count: 1)
                presented.deallocate()
            }
            // Forwards through the windows' ends, then back to before any begins.
            let times = (0...300).map { Double($0) * 0.0173 } + [5.0, 2.25, 0.1, 0.25, 3.5, 0]
            for t in times {
                prepared.present(at: t, into: presented)
                // Compared as one flag: a mismatch names the layer and time, not both trees.
                let same = presented.pointee == layer.presentation(at: t)
                #expect(same, "\(name) at \(t)")
            }
        }
    }

    @Test("a path morph is worked out in the storage of the kept presentation's path, frame after frame")
    func morphInPlace() throws {
        for (name, layer) in Self.inPlaceLayers() where name.contains("morph") {
            let prepared = try PreparedLayer(layer, fonts: Self.fonts)
            let store = PresentationStore()
            var storage: Set<UnsafeRawPointer> = []
            // Before the animation begins (the model's path), through it, and after.
            for k in 0..<300 {
                store.beginFrame()
                let shown = store.present(prepared, at: Double(k) * 0.0173)
                guard case .shape(let s) = shown.pointee.content, let path = s.pathData else { throw Failure() }
                path.elements.withUnsafeBufferPointer { elements in
                    if let p = elements.baseAddress { storage.insert(UnsafeRawPointer(p)) }
                }
            }
            #expect(storage.count == 1, "\(name): the path's storage changed \(storage.count - 1) times")
        }
    }

    struct Failure: Error {}

    @Test("the presentation store keeps a layer's presentation while frames draw it and lets it go two frames after")
    func presentationStore() throws {
        let (_, layer) = Self.inPlaceLayers()[0]
        let store = PresentationStore()
        var prepared: PreparedLayer? = try PreparedLayer(layer, fonts: Self.fonts)
        weak let held = prepared
        store.beginFrame()
        let first = store.present(prepared!, at: 0.5)
        #expect(first.pointee == layer.presentation(at: 0.5))
        store.beginFrame()
        #expect(store.present(prepared!, at: 1) == first, "the same storage, brought to the frame's time")
        #expect(first.pointee == layer.presentation(at: 1))
        prepared = nil
        store.beginFrame()
        #expect(store.count == 1 && held != nil, "drawn in the frame before: kept")
        store.beginFrame()
        #expect(store.count == 0 && held == nil, "not drawn since the frame before last: released")
        // Another layer takes the storage given up, starting from its own model.
        let other = try PreparedLayer(Self.inPlaceLayers()[1].1, fonts: Self.fonts)
        #expect(store.present(other, at: 0.75) == first)
        #expect(first.pointee == other.model.presentation(at: 0.75))
    }
}
