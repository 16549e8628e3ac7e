import Foundation
import Testing

@testable import SignGraphics

@Suite("PNGImage")
struct PNGImageTests {
    @Test("a frame written as PNG reads back pixel for pixel")
    func roundTrip() throws {
        var frame = Frame(width: 5, height: 3, fill: Color(red: 10, green: 20, blue: 30))
        frame.pixels[3 * 7] = 200
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("signd-png-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGImage.write(frame, to: path)
        #expect(try PNGImage.readFrame(from: path) == frame)
    }

    @Test("reading a file that is not a PNG names the file")
    func notPNG() {
        #expect {
            try PNGImage.readFrame(from: "/etc/hostname")
        } throws: { error in
            "\(error)".hasPrefix("/etc/hostname:")
        }
    }
}
