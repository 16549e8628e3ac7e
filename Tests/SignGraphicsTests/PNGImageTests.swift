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

    @Test("a frame encoded in memory is a PNG file that reads back pixel for pixel")
    func encodeInMemory() throws {
        var frame = Frame(width: 128, height: 32, fill: Color(red: 1, green: 2, blue: 3))
        for i in stride(from: 0, to: frame.pixels.count, by: 7) { frame.pixels[i] = UInt8(i % 251) }
        let bytes = try PNGImage.encode(frame)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("signd-png-mem-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
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

    /// A valid PNG header that claims `width x height`, with a few bytes of image data.
    static func claiming(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xffff_ffff
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
            }
            return be(UInt32(data.count)) + body + be(~crc)
        }
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
            + chunk("IHDR", be(width) + be(height) + [8, 6, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]) + chunk("IEND", [])
    }

    @Test(
        "an image whose header claims more than the limit is refused before anything is decoded",
        arguments: [(100_000, 100_000), (20_000, 20_000), (4097, 1), (4096, 1025)])
    func claimedSizeOverLimit(width: Int, height: Int) {
        #expect {
            try PNGImage.readImage(bytes: Self.claiming(width: UInt32(width), height: UInt32(height)), name: "big.png")
        } throws: { error in
            "\(error)".contains("images are limited to 4096 pixels a side and 4194304 pixels in all")
        }
    }

    @Test("a FIFO or a device named as an image is refused at once, not waited on")
    func notARegularFile() {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("signd-fifo-\(getpid()).png").path
        mkfifo(fifo, 0o600)
        defer { unlink(fifo) }
        for path in [fifo, "/dev/zero"] {
            #expect {
                try PNGImage.readImage(from: path)
            } throws: { error in
                "\(error)".contains("not a regular file")
            }
        }
    }
}
