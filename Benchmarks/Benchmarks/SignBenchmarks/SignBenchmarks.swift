import Benchmark
import Foundation
import Glibc
import SignConfig
import SignDaemon
import SignGraphics
import SignOutput
import SignScene
import SignTiming
import SignWire

/// The project's root, found from this file.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
    .path

/// Every example scene: the demo and configs/examples/*.toml.
func exampleConfigs() -> [String] {
    let dir = root + "/configs/examples"
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".toml") }
        .sorted()
    return [root + "/configs/demo.toml"] + files.map { dir + "/" + $0 }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .cpuTotal], warmupIterations: 10, maxDuration: .seconds(2),
        maxIterations: 1_000_000)

    // Timing functions: one evaluation, Newton and bisection included; must not allocate.
    for (name, function) in [
        ("easeInEaseOut", TimingFunction.easeInEaseOut),
        ("overshoot 0.5,-1,0.5,2", TimingFunction(controlPoints: 0.5, -1, 0.5, 2)),
    ] {
        Benchmark("TimingFunction \(name)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var x = 0.0
            var sum = 0.0
            for _ in benchmark.scaledIterations {
                x += 0.000_999
                if x > 1 { x -= 1 }
                sum += function(x)
            }
            blackHole(sum)
        }
    }

    // One frame of each example scene at four board sizes (steady state: the renderer and its
    // canvases already exist, as in the daemon).
    let fonts = try! FontLibrary()
    for path in exampleConfigs() {
        guard var config = try? ConfigLoader.load(path: path, fonts: fonts) else { continue }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        for (w, h) in [(32, 8), (64, 32), (128, 32), (256, 64), (512, 128)] {
            config.display.width = w
            config.display.height = h
            guard let scene = try? PreparedScene(config.scene, beginTime: 0, fonts: fonts) else { continue }
            // A thousand frames per iteration from one renderer: the steady state the daemon is in.
            Benchmark("render \(name) \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
                renderFrames(scene, width: w, height: h, benchmark: benchmark)
            }
        }
    }

    // 500 particles on a 128x32 board (at most 20 us a frame, no allocation): 250 alive of
    // a cell of 2 px circles and 250 of spinning 2 px squares, in the steady state (the
    // layer's time past the longest lifetime), drawn in each render order.
    for mode in [EmitterContent.RenderMode.unordered, .oldestFirst, .additive] {
        var circles = EmitterCell(contents: Sprite(look: .circle, width: 2, height: 2))
        (circles.birthRate, circles.lifetime, circles.velocity) = (50, 5, 6)
        (circles.emissionLongitude, circles.emissionRange, circles.yAcceleration) = (1.5708, 0.6, 0.5)
        var squares = circles
        squares.contents = Sprite(look: .square, width: 2, height: 2)
        (squares.spin, squares.spinRange, squares.color) = (2, 3, SIMD4(1, 0.3, 0.2, 1))
        var emitter = EmitterContent(cells: [circles, squares])
        (emitter.shape, emitter.position, emitter.size, emitter.renderMode) = (
            .line, Point(x: 64, y: 0), Size(width: 128, height: 0), mode
        )
        let layer = Layer(id: "particles", content: .emitter(emitter), frame: Rect(x: 0, y: 0, width: 128, height: 32))
        guard let scene = try? PreparedScene(Scene(width: 128, height: 32, layers: [.layer(layer)]), beginTime: 0, fonts: fonts)
        else { continue }
        Benchmark("emitter 500 particles \(mode.rawValue) 128x32", configuration: .init(scalingFactor: .kilo)) {
            benchmark in
            renderFrames(scene, width: 128, height: 32, from: 10, benchmark: benchmark)
        }
    }

    // The glowing-text example's layer at 128x32 in the shadow's three cases, side by side
    // with the same layer without a shadow: still (the whole tree kept by the subtree cache),
    // the glow pulsing (the example: the blurred alpha kept, recoloured each frame), the text
    // scrolling inside the layer (blurred every frame), the radius animated (blurred every
    // frame, the kernel recomputed).
    if let glow = try? ConfigLoader.load(path: root + "/configs/examples/glowing-text.toml", fonts: fonts),
        case .layer(let sign)? = glow.scene.layers.first
    {
        func animation(_ key: LayerProperty, from: Double, to: Double) -> LayerAnimation {
            .property(
                LayerPropertyAnimation(
                    keyPath: key, motion: .basic(BasicValues(from: .number(from), to: .number(to))),
                    timing: MediaTiming(duration: 1.2, repeatCount: .infinity, autoreverses: true)))
        }
        var still = sign
        still.animations = []
        var scrolling = sign
        scrolling.animations = [animation(.translationX, from: -20, to: 20)]
        var radius = sign
        radius.animations = [animation(.shadowRadius, from: 1, to: 4)]
        var unshadowed = scrolling
        unshadowed.shadowOpacity = 0
        for (name, layer) in [
            ("still", still), ("pulsing (the example)", sign), ("text scrolling inside", scrolling),
            ("shadowRadius animated", radius), ("no shadow, text scrolling", unshadowed),
        ] {
            var scene = glow.scene
            scene.layers = [.layer(layer)]
            guard let prepared = try? PreparedScene(scene, beginTime: 0, fonts: fonts) else { continue }
            Benchmark("glow 128x32: \(name)", configuration: .init(scalingFactor: .kilo)) { benchmark in
                renderFrames(prepared, width: 128, height: 32, benchmark: benchmark)
            }
        }
    }

    // Seconds of frames at 120 fps of the storefront's board with its clock field turning a
    // minute each second and the playlist moving to its next item, all prepared ahead as the
    // daemon's field clock and playlist do (preparing is not measured). The third second is
    // measured: the frame path's cost of a turn and an item once the renderer has seen some.
    // Beside it, a third second in which nothing changes.
    if let store = try? ConfigLoader.load(path: root + "/configs/examples/storefront.toml", fonts: fonts) {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let start = Date(timeIntervalSince1970: 1_795_514_399.5)  // 2026-11-24, half a second before 11:00 in Berlin
        func fields(_ second: Int) -> @Sendable (String) -> String {
            // A minute a second: the clock shows 11:00, 11:01, 11:02 at the turns.
            let at = start.addingTimeInterval(Double(second) * 60 + 0.5)
            return { LiveFields.expand($0, at: at, LiveFields.Values(timeZone: zone)) }
        }
        let items = [
            "{amber}Today:{/} two coffees for the price of one", "Fresh bread until noon",
            "{green}OPEN{/} {time:%H:%M}",
        ]
        for changing in [false, true] {
            Benchmark(
                "storefront 128x32, the third second at 120 fps\(changing ? ": a minute turns, the next playlist item" : "")"
            ) { benchmark in
                guard var scene = try? PreparedScene(store.scene, beginTime: 0, fonts: fonts, fields: fields(-1)),
                    let shown = try? scene.settingText(
                        "{green}OPEN{/} {time:%H:%M}", ofLayer: 0, when: .now, now: 0, fonts: fonts, fields: fields(-1))
                else { return }
                scene = shown
                var scenes: [PreparedScene] = []
                for second in 0..<3 {
                    let t = Double(second)
                    if changing {
                        scene =
                            (try? scene.refreshingFields(
                                ofLayer: 0, fields: fields(second), from: t + 0.5, now: t + 0.25, fonts: fonts))
                            ?? scene
                        scene =
                            (try? scene.settingText(
                                items[second], ofLayer: 0, when: .now, now: t + 0.6, from: t + 0.75, fonts: fonts,
                                transition: Transition(kind: .slide), fields: fields(second))) ?? scene
                    }
                    scenes.append(scene)
                }
                let renderer = Renderer(width: 128, height: 32)
                var frame = Frame(width: 128, height: 32)
                for k in 0..<240 { renderer.render(scenes[k / 120], at: Double(k) / 120, into: &frame) }
                benchmark.startMeasurement()
                for k in 240..<360 { renderer.render(scenes[2], at: Double(k) / 120, into: &frame) }
                benchmark.stopMeasurement()
                blackHole(frame)
            }
        }
    }

    // The same layer (a gradient badge with a text sublayer, moving a little each frame so
    // it is drawn every frame) untransformed and rotated 10° and scaled 1.1, side by side at
    // 128x32: the cost of drawing it apart and resampling it (issue 38: at most 2x).
    for (name, transform) in [("untransformed", ""), ("transformed", "transform = { rotation_z = 10, scale = 1.1 }")] {
        let source = """
            [display]
            width = 128
            height = 32
            [[layer]]
            type = "gradient"
            x = 30
            y = 4
            width = 60
            height = 24
            colors = ["#ffcc00", "#ff3000"]
            \(transform)
            [[layer.sublayer]]
            type = "text"
            text = "SALE 50%"
            align = "center"
            [[layer.animation]]
            key_path = "position.x"
            from = 60
            to = 61
            duration = 100
            """
        guard let config = try? ConfigLoader.parse(source, file: "transform.toml", fonts: fonts),
            let scene = try? PreparedScene(config.scene, beginTime: 0, fonts: fonts)
        else { continue }
        Benchmark("render layer \(name) 128x32", configuration: .init(scalingFactor: .kilo)) { benchmark in
            renderFrames(scene, width: 128, height: 32, benchmark: benchmark)
        }
    }

    // Laying out 200 characters (glyphs cached, as after the first frame).
    let text = String(repeating: "Now Playing: signd 안녕 ", count: 9).prefix(200)
    Benchmark("text layout 200 characters") { benchmark in
        _ = try? fonts.layout(String(text), primary: .defaultFace, fallbacks: [.unifont])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? fonts.layout(String(text), primary: .defaultFace, fallbacks: [.unifont]))
        }
        benchmark.stopMeasurement()
    }

    // Laying out 200 characters of scripts that HarfBuzz shapes and FriBidi orders: joined
    // Arabic with numbers, Devanagari conjuncts, emoji sequences (ZWJ families, flags, skin
    // tones) from the colour font.
    let noto = "/usr/share/fonts/truetype/noto/"
    for (name, sample, font) in [
        ("Arabic", "مرحبا بكم في متجرنا 2026 · خصم 50% اليوم · ", FontSpec(name: noto + "NotoSansArabic-Regular.ttf", size: 16)),
        ("Devanagari", "नमस्ते स्वागत क्षत्रिय श्री · ", FontSpec(name: noto + "NotoSansDevanagari-Regular.ttf", size: 16)),
        ("emoji", "👩‍👩‍👧 🇯🇵 👍🏽 1️⃣ ☕ ", FontSpec.emoji(size: 16)),
    ] {
        let scalars = String.UnicodeScalarView(
            String(repeating: sample, count: 200 / sample.unicodeScalars.count + 1).unicodeScalars.prefix(200))
        let shaped = String(scalars)
        Benchmark("text layout 200 characters, \(name)") { benchmark in
            _ = try? fonts.layout(shaped, primary: font, fallbacks: [.unifont])
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try? fonts.layout(shaped, primary: font, fallbacks: [.unifont]))
            }
            benchmark.stopMeasurement()
        }
    }

    // Hostile text, laid out where every text change is (off the frame clock): 10,000
    // combining marks on one letter (30 are kept), and 8,192 characters of mixed scripts
    // with bidi controls and joiners. The target: at most 50 ms each.
    let dejaVu = FontSpec(name: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", size: 16)
    for (name, hostile) in [
        ("10,000 combining marks", "a" + String(repeating: "\u{301}", count: 10_000)),
        (
            "8,192 mixed-script characters",
            String(
                String(repeating: "abc \u{202E}مرحبا 12\u{2067} नमस्ते ไทย 👩\u{200D}👩\u{200D}👧 \u{200D}שלום (א) ", count: 400)
                    .unicodeScalars.prefix(8_192))
        ),
    ] {
        Benchmark("text layout, \(name)", configuration: .init(maxDuration: .seconds(3), maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try? fonts.layout(hostile, primary: dejaVu, fallbacks: [.unifont, .emoji(size: 16)]))
            }
        }
    }

    // Network outputs: one frame through the panel map, colour correction and dithering,
    // then the protocol's datagrams (the bytes handed to the socket, not the send itself).
    for (w, h) in [(128, 32), (512, 128)] {
        let leds = w * h
        let source = E131.Source(cid: Array(0..<16), name: "bench")
        let framers: [(String, () -> any DatagramFramer)] = [
            ("ddp", { DDPFramer() }),
            (
                "e131",
                { E131Framer(source: source, firstUniverse: 1, syncUniverse: 1000, multicast: false, ledCount: leds) }
            ),
            ("artnet", { ArtNetFramer(firstPortAddress: 0, sync: true) }),
            ("flaschen-taschen", { FlaschenTaschenFramer(width: w, ledCount: leds) }),
        ]
        for (name, make) in framers {
            Benchmark("network frame \(name) \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
                encodeFrames(make(), benchmark: benchmark, width: w, height: h)
            }
        }
        Benchmark("network frame opc \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var pipeline = LEDPipeline(
                map: PixelMap(panels: [Panel(width: w, height: h)], frameWidth: w, frameHeight: h),
                correction: ColorCorrection(), dithering: true)
            let frame = Frame(width: w, height: h, fill: .white)
            var message: [UInt8] = []
            OPCSink.compose(frame, scale: 65536, channel: 0, through: &pipeline, into: &message)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                OPCSink.compose(frame, scale: 65536, channel: 0, through: &pipeline, into: &message)
                blackHole(message)
            }
            benchmark.stopMeasurement()
        }
    }

    // USB boards at the same sizes: a custom bulk panel's transfer (colour in GRB order,
    // header, padding) and grey levels as the Framework matrix takes them, through a
    // display-sized map (the module itself is 9x34).
    for (w, h) in [(128, 32), (512, 128)] {
        let map = PixelMap(panels: [Panel(width: w, height: h)], frameWidth: w, frameHeight: h)
        Benchmark("usb frame bulk \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var device = BulkPanelDevice(
                match: USBMatch(vendorID: 1, productID: 1, serial: nil), interface: 0, endpoint: 1, order: "GRB",
                header: [0xAA, 0x55], footer: [], packetSize: 64, map: map, correction: ColorCorrection(),
                dithering: true)
            let frame = Frame(width: w, height: h, fill: .white)
            var transfers: [[UInt8]] = []
            device.encode(frame, display: .full, into: &transfers)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                device.encode(frame, display: .full, into: &transfers)
                blackHole(transfers)
            }
            benchmark.stopMeasurement()
        }
        Benchmark("usb frame grey \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var pipeline = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
            let frame = Frame(width: w, height: h, fill: .white)
            var grey: [UInt8] = []
            pipeline.grey(frame, into: &grey)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                pipeline.grey(frame, into: &grey)
                blackHole(grey)
            }
            benchmark.stopMeasurement()
        }
    }

    // A Colorlight 5A-75 frame: the pipeline, then the brightness, row and display-frame
    // packets (the bytes handed to the socket, not the send itself).
    for (w, h) in [(128, 64), (512, 128)] {
        Benchmark("network frame colorlight \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            encodeFrames(ColorlightFramer(width: w, ledCount: w * h), benchmark: benchmark, width: w, height: h)
        }
    }

    // signd-matrix's frame copy: one published frame out of the shm framebuffer through the
    // seqlock into the buffer handed to led_canvas_set_pixels (the library's own copy and
    // the vsync wait are hzeller's, not measured here).
    for (w, h) in [(128, 64), (512, 128)] {
        Benchmark("matrix frame copy \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            let name = "bench-matrix-\(getpid())-\(w)"
            guard let fb = try? SharedMemoryFramebuffer(name: name, width: w, height: h, fps: 60),
                let reader = try? SharedMemoryReader(output: name)
            else { return }
            defer { shm_unlink("/signd.\(name)") }
            fb.send(Frame(width: w, height: h, fill: .white), number: 1, deadline: 0, display: .full)
            let pixels = UnsafeMutableRawPointer.allocate(byteCount: w * h * 3, alignment: 8)
            defer { pixels.deallocate() }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(reader.read(into: pixels))
            }
            benchmark.stopMeasurement()
        }
    }

    // A stream layer's receiving side without the socket: one 64x32 frame's datagrams (13
    // E1.31 universes, 5 DDP packets, 13 ArtDmx) parsed and assembled.
    for wire in StreamAssembler.Wire.allCases {
        Benchmark("stream assemble \(wire.rawValue) 64x32 frame", configuration: .init(scalingFactor: .kilo)) {
            benchmark in
            let frame = [UInt8](repeating: 0x5a, count: 64 * 32 * 3)
            var packets: [[UInt8]] = []
            frame.withUnsafeBytes { f in
                switch wire {
                case .ddp:
                    for i in 0..<DDP.packetCount(frameBytes: f.count) {
                        var p: [UInt8] = []
                        DDP.writePacket(i, of: f, sequence: 1, into: &p)
                        packets.append(p)
                    }
                case .e131, .artnet:
                    for u in 0..<13 {
                        let slots = UnsafeRawBufferPointer(rebasing: f[(u * 510)..<min(f.count, (u + 1) * 510)])
                        var p: [UInt8] = []
                        if wire == .e131 {
                            E131.writeData(
                                source: E131.Source(cid: Array(0..<16), name: "bench"), universe: UInt16(u + 1),
                                priority: 100, syncAddress: 0, sequence: 1, options: 0, slots: slots, into: &p)
                        } else {
                            ArtNet.writeDmx(portAddress: UInt16(u), sequence: 1, channels: slots, into: &p)
                        }
                        packets.append(p)
                    }
                }
            }
            var assembler = StreamAssembler(wire: wire, pixelCount: 64 * 32, firstUniverse: wire == .e131 ? 1 : 0)
            benchmark.startMeasurement()
            for n in benchmark.scaledIterations {
                for p in packets {
                    blackHole(p.withUnsafeBytes { assembler.take($0, now: UInt64(n)) })
                }
            }
            benchmark.stopMeasurement()
        }
    }

    // The whole send path of a DDP output at 128x32 into a loopback socket nobody reads
    // (once its buffer is full, datagrams are dropped and counted: still the same path).
    Benchmark("network send ddp 128x32 to loopback", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let receiver = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(receiver) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(receiver, $0, length)
                _ = getsockname(receiver, $0, &length)
            }
        }
        let sink = DatagramSink(
            name: "bench", framer: DDPFramer(),
            pipeline: LEDPipeline(
                map: PixelMap(panels: [Panel(width: 128, height: 32)], frameWidth: 128, frameHeight: 32),
                correction: ColorCorrection(), dithering: true),
            host: "127.0.0.1", port: UInt16(bigEndian: address.sin_port), cap: FrameRateCap(maxFPS: nil, displayFPS: 60)
        ) { _ in }
        let frame = Frame(width: 128, height: 32, fill: .white)
        sink.send(frame, number: 0, deadline: 0)
        var n: UInt64 = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            n += 1
            sink.send(frame, number: n, deadline: n)
        }
        benchmark.stopMeasurement()
        sink.stop()
    }

    // Publishing a 128x32 frame to the shm framebuffer (copy and seqlock).
    Benchmark("shm publish 128x32", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let name = "bench-\(getpid())"
        guard let fb = try? SharedMemoryFramebuffer(name: name, width: 128, height: 32, fps: 60) else { return }
        defer { shm_unlink("/signd.\(name)") }
        let frame = Frame(width: 128, height: 32, fill: .white)
        var n: UInt64 = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            n += 1
            fb.send(frame, number: n, deadline: n)
        }
        // Creating and removing the object is not what is measured.
        benchmark.stopMeasurement()
    }

    // The serial, DMX and SPI strips (StripEncodingBenchmarks.swift).
    stripEncodingBenchmarks()
    stripFrameBenchmarks()
    outputFrameBenchmarks()

    // A shape's path morphing (PathMorphBenchmarks.swift).
    pathMorphBenchmarks(fonts: fonts)

    // Encoding one frame for a Fadecandy board: the serpentine 32x16 map and 25 packets.
    Benchmark("Fadecandy frame encoding 32x16", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var panel = Panel(width: 32, height: 16)
        panel.serpentine = true
        let map = PixelMap(panels: [panel], frameWidth: 32, frameHeight: 16, ledCount: FadecandyDevice.ledCount)
        var device = FadecandyDevice(serial: nil, map: map, correction: ColorCorrection())
        let frame = Frame(width: 32, height: 16, fill: .white)
        var transfers: [[UInt8]] = []
        device.encode(frame, display: .full, into: &transfers)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            device.encode(frame, display: .full, into: &transfers)
            blackHole(transfers)
        }
        benchmark.stopMeasurement()
    }
}

/// Steady-state frames of one scene, a frame every 1/60 s, as the daemon draws them: a
/// renderer at the board's size draws the frame at `start` first (not measured), then each
/// iteration's frames after it.
func renderFrames(_ scene: PreparedScene, width: Int, height: Int, from start: Double = 0, benchmark: Benchmark) {
    let renderer = Renderer(width: width, height: height)
    var frame = Frame(width: width, height: height)
    var t = start
    renderer.render(scene, at: t, into: &frame)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        t += 1.0 / 60
        renderer.render(scene, at: t, into: &frame)
    }
    benchmark.stopMeasurement()
    blackHole(frame)
}

/// Steady-state frames of one network framer: colour a white frame straight into its
/// datagrams, as the output does.
func encodeFrames<F: DatagramFramer>(_ framer: F, benchmark: Benchmark, width: Int, height: Int) {
    var framer = framer
    var pipeline = LEDPipeline(
        map: PixelMap(panels: [Panel(width: width, height: height)], frameWidth: width, frameHeight: height),
        correction: ColorCorrection(), dithering: true)
    pipeline = pipeline.ordered(framer.order)
    let frame = Frame(width: width, height: height, fill: .white)
    var bytes = 0
    framer.writeFrame(frame, scale: 65536, through: &pipeline) { datagram, _ in bytes &+= datagram.count }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        framer.writeFrame(frame, scale: 65536, through: &pipeline) { datagram, _ in bytes &+= datagram.count }
    }
    benchmark.stopMeasurement()
    blackHole(bytes)
}
