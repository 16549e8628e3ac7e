import Benchmark
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
