import SignOutput
import Testing

@testable import SignDaemon

@Suite("DisplayControl")
struct DisplayControlTests {
    @Test("a fade is exact on every frame: linear in scene time from the level shown to the target")
    func fadeExactOnFrames() {
        let display = DisplayControl(brightness: 1)
        display.setBrightness(0.2, duration: 2, now: 10)
        for n in 0...120 {
            let t = 10 + Double(n) / 60
            let expected = n >= 120 ? 0.2 : 1 + (0.2 - 1) * (Double(n) / 60 / 2)
            #expect(abs(display.setting(at: t).brightness - expected) < 1e-12, "frame \(n)")
        }
        #expect(display.setting(at: 9).brightness == 1, "before the fade began: where it started")
        #expect(display.setting(at: 13).brightness == 0.2 && display.target == 0.2)
    }

    @Test("a fade that interrupts another carries on from the level shown then; duration 0 is at once")
    func interruptedFade() {
        let display = DisplayControl(brightness: 0)
        display.setBrightness(1, duration: 4, now: 0)
        display.setBrightness(0, duration: 1, now: 1)  // shown then: 0.25
        #expect(abs(display.setting(at: 1.5).brightness - 0.125) < 1e-12)
        display.setBrightness(0.6, now: 1.5)
        #expect(display.setting(at: 1.5).brightness == 0.6 && display.setting(at: 100).brightness == 0.6)
    }

    @Test("off shows black on every output at any brightness; on again shows the brightness it had")
    func onOff() {
        let display = DisplayControl(brightness: 0.7)
        display.setOn(false)
        #expect(!display.isOn && display.setting(at: 0).scale == 0)
        #expect(display.setting(at: 0).brightness == 0.7)
        display.setOn(true)
        #expect(display.setting(at: 0) == .init(brightness: 0.7, on: true))
    }
}
