import SignGraphics
import Testing

@testable import SignOutput

@Suite("LiveFrame")
struct LiveFrameTests {
    @Test("keeps the newest frame and its number; nothing before the first")
    func newest() {
        let live = LiveFrame()
        #expect(live.latest() == nil)
        #expect(live.newestMark == 0)
        live.send(Frame(width: 4, height: 2, fill: Color(red: 9, green: 8, blue: 7)), number: 0, deadline: 0)
        #expect(live.newestMark == 1)
        live.send(Frame(width: 4, height: 2, fill: Color(red: 1, green: 2, blue: 3)), number: 41, deadline: 0)
        let got = live.latest()
        #expect(got?.number == 41)
        #expect(got?.frame == Frame(width: 4, height: 2, fill: Color(red: 1, green: 2, blue: 3)))
        #expect(live.newestMark == 42)
    }

    @Test("a frame of a new size (after a reload) replaces the old one whole")
    func resized() {
        let live = LiveFrame()
        live.send(Frame(width: 4, height: 2), number: 1, deadline: 0)
        live.send(Frame(width: 3, height: 3, fill: Color(red: 5, green: 5, blue: 5)), number: 2, deadline: 0)
        #expect(live.latest()?.frame == Frame(width: 3, height: 3, fill: Color(red: 5, green: 5, blue: 5)))
    }

    @Test("the picture as rendered: the display's brightness is not applied")
    func asRendered() {
        let live = LiveFrame()
        let frame = Frame(width: 2, height: 1, fill: Color(red: 200, green: 100, blue: 50))
        live.send(frame, number: 1, deadline: 0, display: DisplaySetting(brightness: 0.1, on: true))
        #expect(live.latest()?.frame == frame)
    }
}
