import Benchmark
import SignGraphics
import SignOutput

/// The serial, DMX and SPI strip encodings: one frame's LED bytes (already coloured) into
/// the bytes for the wire, at 1,024 and 16,384 LEDs; each must not allocate.
func stripEncodingBenchmarks() {
    let ws2812 = WS2812SPIFrame(speedHz: 2_400_000)!
    let bgr = ColourOrder("BGR")!
    let grb = ColourOrder("GRB")!
    let encodings: [(String, @Sendable ([UInt8], inout [UInt8]) -> Void)] = [
        ("adalight", { Adalight.encode($0, into: &$1) }),
        ("awa", { Adalight.encodeAWA($0, into: &$1) }),
        ("tpm2", { TPM2.encode($0, into: &$1) }),
        ("enttec 512 channels", { EnttecDMXUSBPro.encodeSendDMX($0, channels: 512, startChannel: 1, into: &$1) }),
        ("apa102", { APA102Frame.encode($0, brightness: 31, order: bgr, chip: .apa102, into: &$1) }),
        ("sk9822", { APA102Frame.encode($0, brightness: 31, order: bgr, chip: .sk9822, into: &$1) }),
        ("ws2812 spi", { ws2812.encode($0, order: grb, into: &$1) }),
    ]
    for leds in [1024, 16384] {
        for (name, encode) in encodings {
            Benchmark("strip encoding \(name) \(leds) LEDs", configuration: .init(scalingFactor: .kilo)) { benchmark in
                let rgb = (0..<leds * 3).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                var out: [UInt8] = []
                encode(rgb, &out)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    encode(rgb, &out)
                    blackHole(out)
                }
                benchmark.stopMeasurement()
            }
        }
    }
}

/// Whole frames for the serial and SPI outputs at 512x128 (65,536 LEDs; DMX takes its 170
/// LEDs of 512 channels): correction, dithering and the wire's bytes, as the outputs do it.
func stripFrameBenchmarks() {
    let (w, h) = (512, 128)
    let map = PixelMap(panels: [Panel(width: w, height: h)], frameWidth: w, frameHeight: h)
    let serial: [(String, SerialSink.Framing)] = [
        ("adalight", .adalight), ("awa", .awa), ("tpm2", .tpm2), ("enttec 512 channels", .enttecSendDMX(channels: 512, startChannel: 1)),
    ]
    for (name, framing) in serial {
        Benchmark("strip frame \(name) \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var pipeline = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
            let frame = Frame(width: w, height: h, fill: .white)
            var message: [UInt8] = []
            SerialSink.compose(frame, scale: 65536, framing: framing, through: &pipeline, into: &message)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                SerialSink.compose(frame, scale: 65536, framing: framing, through: &pipeline, into: &message)
                blackHole(message)
            }
            benchmark.stopMeasurement()
        }
    }
    let ws2812 = WS2812SPIFrame(speedHz: 2_400_000)!
    let spi: [(String, @Sendable ([UInt8], inout [UInt8]) -> Void)] = [
        ("apa102", { APA102Frame.encode($0, brightness: 31, order: ColourOrder("BGR")!, chip: .apa102, into: &$1) }),
        ("ws2812 spi", { ws2812.encode($0, order: ColourOrder("GRB")!, into: &$1) }),
    ]
    for (name, encode) in spi {
        Benchmark("strip frame \(name) \(w)x\(h)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            var pipeline = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
            let frame = Frame(width: w, height: h, fill: .white)
            var leds: [UInt8] = []
            var out: [UInt8] = []
            pipeline.colour(frame, into: &leds)
            encode(leds, &out)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                pipeline.colour(frame, into: &leds)
                encode(leds, &out)
                blackHole(out)
            }
            benchmark.stopMeasurement()
        }
    }
}
