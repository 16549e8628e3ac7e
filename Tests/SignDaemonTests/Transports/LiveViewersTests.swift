import NIOCore
import Testing

@testable import SignDaemon

@Suite("LiveViewers")
struct LiveViewersTests {
    @Test("a live message begins \"SGF1\", width and height as u16 LE, the frame number as u64 LE: 16 bytes")
    func header() {
        var buffer = ByteBuffer()
        LiveViewers.writeHeader(width: 128, height: 32, number: 0x0102_0304_0506_0708, into: &buffer)
        #expect(buffer.readableBytes == LiveViewers.headerSize)
        #expect(
            Array(buffer.readableBytesView)
                == [0x53, 0x47, 0x46, 0x31, 128, 0, 32, 0, 8, 7, 6, 5, 4, 3, 2, 1])
    }
}
