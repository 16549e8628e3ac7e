import Foundation
import Glibc
import SignGraphics
import Testing

@testable import SignOutput

/// The display's brightness on every kind of output: in linear light after correction and
/// before dithering, in a Fadecandy's own table, and the shm framebuffer's display-off flag.
@Suite("DisplaySetting")
struct DisplaySettingTests {
    @Test("the scale is 16.16 fixed point: full is 65536, off and brightness 0 are 0, out of range clamps")
    func scale() {
        #expect(DisplaySetting.full.scale == 65536)
        #expect(DisplaySetting(brightness: 0.5).scale == 32768)
        #expect(DisplaySetting(brightness: 0.5, on: false).scale == 0)
        #expect(DisplaySetting(brightness: 0).scale == 0)
        #expect(DisplaySetting(brightness: 7).scale == 65536 && DisplaySetting(brightness: -1).scale == 0)
        #expect(DisplaySetting(brightness: .nan).scale == 0)
        #expect(DisplaySetting.scaled(65535, by: 65536) == 65535 && DisplaySetting.scaled(65535, by: 32768) == 32768)
    }

    @Test(
        "an LED pipeline scales the corrected linear level: gamma 2.2 grey 200 at a quarter is a quarter of its light")
    func pipelineInLinearLight() {
        let frame = Frame(width: 4, height: 1, fill: Color(red: 200, green: 200, blue: 200))
        let map = PixelMap(panels: [Panel(width: 4, height: 1)], frameWidth: 4, frameHeight: 1)
        var pipeline = LEDPipeline(map: map, correction: ColorCorrection(), dithering: false)
        var full: [UInt8] = [], quarter: [UInt8] = []
        pipeline.colour(frame, into: &full)
        pipeline.colour(frame, scale: DisplaySetting(brightness: 0.25).scale, into: &quarter)
        let light = pow(200.0 / 255, 2.2)
        #expect(full.allSatisfy { Int($0) == Int((light * 255).rounded()) })
        // Scaling the byte sRGB-wise would give 50; in linear light a quarter of 155 is 39.
        #expect(quarter.allSatisfy { Int($0) == Int((light * 0.25 * 255).rounded()) })
        var grey: [UInt8] = []
        pipeline.grey(frame, scale: 0, into: &grey)
        #expect(grey == [0, 0, 0, 0])
    }

    @Test("dimmed low levels stay smooth: with dithering, a dim grey averages to its exact light over frames")
    func dimmedLevelsDither() {
        let frame = Frame(width: 1, height: 1, fill: Color(red: 128, green: 128, blue: 128))
        let map = PixelMap(panels: [Panel(width: 1, height: 1)], frameWidth: 1, frameHeight: 1)
        var pipeline = LEDPipeline(map: map, correction: ColorCorrection(curve: .exponent(1)), dithering: true)
        let scale = DisplaySetting(brightness: 0.01).scale
        var out: [UInt8] = []
        var sum = 0
        for _ in 0..<256 {
            pipeline.colour(frame, scale: scale, into: &out)
            sum += Int(out[0])
        }
        // 128/255 of full at 1 %: 1.28 of 255 on average, where rounding alone would show 1.
        let exact = 128.0 / 255 * 0.01 * 255
        #expect(abs(Double(sum) / 256 - exact) < 0.02)
    }

    @Test(
        "a Fadecandy gets a new colour table, before the frame, only when the brightness changes; a reconnect uploads the current one"
    )
    func fadecandyTable() {
        let map = PixelMap(panels: [Panel(width: 2, height: 1)], frameWidth: 2, frameHeight: 1, ledCount: 512)
        var device = FadecandyDevice(
            serial: nil, map: map, correction: ColorCorrection(curve: .exponent(1)), dithering: false,
            interpolation: true)
        let frame = Frame(width: 2, height: 1, fill: .white)
        var transfers: [[UInt8]] = []
        device.encode(frame, display: .full, into: &transfers)
        #expect(transfers.count == 1 && transfers[0][0] == 0)
        device.encode(frame, display: DisplaySetting(brightness: 0.5), into: &transfers)
        #expect(transfers.count == 2 && transfers[0].count == 1600 && transfers[0][0] == 0x40)
        // Red entry 256 (input 1.0) at half: 32768, as connect's table at a configured 0.5.
        #expect(Array(transfers[0][8 * 64 + 2 + 16...8 * 64 + 2 + 17]) == [0x00, 0x80])
        #expect(transfers[1].count == 1600 && transfers[1][0] == 0, "then the frame, in its pixels unchanged")
        #expect(transfers[1][1...6] == [255, 255, 255, 255, 255, 255])
        device.encode(frame, display: DisplaySetting(brightness: 0.5), into: &transfers)
        #expect(transfers.count == 1, "the same brightness again: the frame alone")
        #expect(Array(device.connectTransfers()[0][8 * 64 + 2 + 16...8 * 64 + 2 + 17]) == [0x00, 0x80])
        device.encode(frame, display: DisplaySetting(brightness: 0.5, on: false), into: &transfers)
        #expect(transfers.count == 2 && transfers[0][8 * 64 + 2 + 16...8 * 64 + 2 + 17].allSatisfy { $0 == 0 })
    }

    @Test(
        "the shm framebuffer sets flag bit 1 while the display is off and clears it when it comes on; frames keep their numbers"
    )
    func framebufferDisplayOffFlag() throws {
        let name = "display-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fb = try SharedMemoryFramebuffer(name: name, width: 4, height: 2, fps: 60)
        defer { shm_unlink("/signd.\(name)") }
        let reader = try SharedMemoryReader(output: name)
        fb.send(Frame(width: 4, height: 2, fill: .white), number: 1, deadline: 1)
        #expect(!reader.read().displayOff)
        fb.send(Frame(width: 4, height: 2), number: 2, deadline: 2, display: DisplaySetting(brightness: 1, on: false))
        var snapshot = reader.read()
        #expect(snapshot.displayOff && snapshot.frameNumber == 2 && !snapshot.stopped)
        let header = try JSONSerialization.jsonObject(with: Data(try contractReader([name, "header"]).output.utf8))
        #expect((header as? [String: Any])?["flags"] as? Int == 2)
        fb.send(
            Frame(width: 4, height: 2, fill: .white), number: 3, deadline: 3, display: DisplaySetting(brightness: 0.1))
        snapshot = reader.read()
        #expect(!snapshot.displayOff && snapshot.frameNumber == 3)
        #expect(snapshot.frame.pixels.allSatisfy { $0 == 255 }, "the shm carries the picture as rendered, undimmed")
        fb.stop()
        #expect(reader.read().stopped && !reader.read().displayOff)
    }
}
