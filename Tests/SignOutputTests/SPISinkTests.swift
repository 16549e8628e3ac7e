import Foundation
import Glibc
import SignGraphics
import Testing

@testable import SignOutput

/// The SPI output where no SPI device exists: what it says and does about paths that are
/// not one. Its frames are pinned in StripEncodingTests.
@Suite("SPI outputs without an SPI device")
struct SPISinkTests {
    static func sink(_ path: String) -> SPISink {
        SPISink(
            name: "t",
            pipeline: LEDPipeline(
                map: PixelMap(panels: [Panel(width: 4, height: 2)], frameWidth: 4, frameHeight: 2),
                correction: .identity, dithering: false),
            chip: .apa102(.apa102), order: ColourOrder("BGR")!, device: path, speedHz: 4_000_000,
            cap: FrameRateCap(maxFPS: nil, displayFPS: 60), log: { _ in })
    }

    @Test("a file that is not an spidev device: the output waits, saying so, and frames go nowhere")
    func notSPI() {
        let file = "/tmp/signd-spi-\(getpid())"
        FileManager_write(file)
        defer { unlink(file) }
        let sink = Self.sink(file)
        sink.send(Frame(width: 4, height: 2), number: 1, deadline: 0)
        #expect(sink.state == .waiting)
        #expect(sink.counters?.lastError == "\(file) is not an SPI device (spidev)")
        #expect(sink.counters?.framesSent == 0)
        sink.stop()
    }

    @Test("a missing spidev device is waited for, by name")
    func missing() {
        let sink = Self.sink("/dev/spidev9.\(getpid())")
        #expect(sink.state == .waiting)
        #expect(sink.counters?.lastError == "/dev/spidev9.\(getpid()) is not there (unplugged?); waiting for it")
        sink.stop()
    }

    @Test("spidev's buffer size is read from the module's parameter, 4096 when it is not loaded")
    func bufferSize() {
        let expected =
            (try? String(contentsOfFile: "/sys/module/spidev/parameters/bufsiz", encoding: .utf8)).flatMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            } ?? 4096
        #expect(SPISink.bufferSize() == expected)
    }
}
