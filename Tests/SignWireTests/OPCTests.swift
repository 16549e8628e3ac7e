import Testing

@testable import SignWire

@Suite("OPC")
struct OPCTests {
    @Test("a set-pixels message is channel, command 0, big-endian length, then the pixels")
    func layout() {
        var message: [UInt8] = []
        [UInt8](repeating: 7, count: 300).withUnsafeBytes { OPC.writePixels(channel: 2, pixels: $0, into: &message) }
        #expect(Array(message[0..<4]) == [2, 0, 0x01, 0x2c])
        #expect(message.count == 304)
    }

    @Test("messages are found whole in a stream that arrives a byte at a time")
    func stream() {
        var one: [UInt8] = [], two: [UInt8] = []
        ([1, 2, 3] as [UInt8]).withUnsafeBytes { OPC.writePixels(channel: 0, pixels: $0, into: &one) }
        ([4, 5, 6, 7, 8, 9] as [UInt8]).withUnsafeBytes { OPC.writePixels(channel: 1, pixels: $0, into: &two) }
        let stream = one + two
        var buffer: [UInt8] = []
        var found: [[UInt8]] = []
        for byte in stream {
            buffer.append(byte)
            while let (message, length) = buffer.withUnsafeBytes({ OPC.next(in: $0) }) {
                found.append(Array(buffer[message.data]))
                buffer.removeFirst(length)
            }
        }
        #expect(found == [[1, 2, 3], [4, 5, 6, 7, 8, 9]])
        #expect(buffer.isEmpty)
    }
}
