import Benchmark
import Glibc
import SignGraphics
import SignOutput
import SignWire

/// The thread's own CPU time over an iteration's 1000 frames, in nanoseconds: the kernel
/// counts it to the nanosecond, where `Time (total CPU)` comes from /proc in 10 ms ticks
/// (10 us a frame over 1000 frames, 0.15 ns an LED at 512x128), and time the thread waits
/// for a core while other work runs is not in it.
let threadCPU = BenchmarkMetric.custom("Thread CPU (ns)", polarity: .prefersSmaller, useScalingFactor: true)

/// Nanoseconds of CPU this thread has run.
func threadCPUNanoseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}

/// A benchmark of one output's whole frame, `frame` run 1000 times an iteration after one
/// warm frame and one warm iteration (the state is warm after a frame: more only costs a
/// loaded machine's time): wall clock, mallocs and the thread's CPU time (`threadCPU`).
func outputFrameBenchmark(_ name: String, _ frame: @escaping @Sendable () -> Void) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, threadCPU], warmupIterations: 1,
            scalingFactor: .kilo, maxDuration: .seconds(2))
    ) { benchmark in
        frame()
        benchmark.startMeasurement()
        let start = threadCPUNanoseconds()
        for _ in benchmark.scaledIterations { frame() }
        let spent = threadCPUNanoseconds() - start
        benchmark.stopMeasurement()
        benchmark.measurement(threadCPU, spent)
    }
}

/// Every output's frame at 512x128 (and DDP's at 128x32 too, for the C peer): a white frame
/// through the panel map, colour correction and temporal dithering, then the protocol's
/// bytes as the output makes them (the datagrams handed to a closure, not sent).
func outputFrameBenchmarks() {
    for (w, h) in [(128, 32), (512, 128)] {
        let leds = w * h
        let map = PixelMap(panels: [Panel(width: w, height: h)], frameWidth: w, frameHeight: h)
        let frame = Frame(width: w, height: h, fill: .white)
        @Sendable func pipeline(_ order: ColourOrder = .rgb) -> LEDPipeline {
            LEDPipeline(map: map, correction: ColorCorrection(), dithering: true, order: order)
        }
        func datagrams<F: DatagramFramer>(_ name: String, _ framer: F) {
            nonisolated(unsafe) var framer = framer
            nonisolated(unsafe) var p = pipeline(framer.order)
            outputFrameBenchmark("output frame \(name) \(w)x\(h)") {
                var bytes = 0
                framer.writeFrame(frame, scale: 65536, through: &p) { d, _ in bytes &+= d.count }
                blackHole(bytes)
            }
        }
        datagrams("ddp", DDPFramer())
        guard w == 512 else { continue }
        let source = E131.Source(cid: Array(0..<16), name: "bench")
        datagrams(
            "e131", E131Framer(source: source, firstUniverse: 1, syncUniverse: 1000, multicast: false, ledCount: leds))
        datagrams("artnet", ArtNetFramer(firstPortAddress: 0, sync: true))
        datagrams("flaschen-taschen", FlaschenTaschenFramer(width: w, ledCount: leds))
        datagrams("colorlight", ColorlightFramer(width: w, ledCount: leds))
        do {
            nonisolated(unsafe) var p = pipeline()
            nonisolated(unsafe) var message: [UInt8] = []
            outputFrameBenchmark("output frame opc \(w)x\(h)") {
                OPCSink.compose(frame, scale: 65536, channel: 0, through: &p, into: &message)
                blackHole(message)
            }
        }
        do {
            nonisolated(unsafe) var device = BulkPanelDevice(
                match: USBMatch(vendorID: 1, productID: 1, serial: nil), interface: 0, endpoint: 1, order: "GRB",
                header: [0xAA, 0x55], footer: [], packetSize: 64, map: map, correction: ColorCorrection(),
                dithering: true)
            nonisolated(unsafe) var transfers: [[UInt8]] = []
            outputFrameBenchmark("output frame usb bulk \(w)x\(h)") {
                device.encode(frame, display: .full, into: &transfers)
                blackHole(transfers)
            }
        }
        do {
            nonisolated(unsafe) var p = pipeline()
            nonisolated(unsafe) var grey: [UInt8] = []
            outputFrameBenchmark("output frame grey \(w)x\(h)") {
                p.grey(frame, into: &grey)
                blackHole(grey)
            }
        }
        let serial: [(String, SerialSink.Framing)] = [
            ("adalight", .adalight), ("awa", .awa), ("tpm2", .tpm2),
            ("enttec", .enttecSendDMX(channels: 512, startChannel: 1)),
        ]
        for (name, framing) in serial {
            nonisolated(unsafe) var p = pipeline()
            nonisolated(unsafe) var message: [UInt8] = []
            outputFrameBenchmark("output frame \(name) \(w)x\(h)") {
                SerialSink.compose(frame, scale: 65536, framing: framing, through: &p, into: &message)
                blackHole(message)
            }
        }
        spiFrameBenchmarks(frame: frame, pipeline: pipeline)
    }
}

/// The SPI strips' frames at 512x128 as SPISink makes them: APA102 (BGR, full global
/// brightness) and WS2812 at 2.4 MHz (GRB).
func spiFrameBenchmarks(frame: Frame, pipeline: @escaping (ColourOrder) -> LEDPipeline) {
    let name = "\(frame.width)x\(frame.height)"
    let ws2812 = WS2812SPIFrame(speedHz: 2_400_000)!
    do {
        nonisolated(unsafe) var p = pipeline(ColourOrder("BGR")!)
        nonisolated(unsafe) var out: [UInt8] = []
        outputFrameBenchmark("output frame apa102 \(name)") {
            APA102Frame.encode(frame, scale: 65536, brightness: 31, chip: .apa102, through: &p, into: &out)
            blackHole(out)
        }
    }
    do {
        nonisolated(unsafe) var p = pipeline(ColourOrder("GRB")!)
        nonisolated(unsafe) var out: [UInt8] = []
        outputFrameBenchmark("output frame ws2812 spi \(name)") {
            ws2812.encode(frame, scale: 65536, through: &p, into: &out)
            blackHole(out)
        }
    }
}
