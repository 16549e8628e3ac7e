import Foundation
import Glibc
import SignGraphics
import SignWire
import Synchronization
import Testing

@testable import SignOutput

/// A UDP or TCP socket on 127.0.0.1 for a sink to send to, read by the test.
final class LoopbackPeer {
    let fd: Int32
    let port: UInt16

    init(tcp: Bool) {
        let fd = socket(AF_INET, Int32((tcp ? SOCK_STREAM : SOCK_DGRAM).rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(fd, $0, length)
                _ = getsockname(fd, $0, &length)
            }
        }
        if tcp { listen(fd, 1) }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    /// Datagrams waiting now (UDP), each cut to `capacity` bytes.
    func datagrams(capacity: Int = 2048) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n < 0 { return out }
            out.append(Array(buffer[0..<n]))
        }
    }
}

@Suite("Network outputs on loopback")
struct NetworkSinkTests {
    static let log: @Sendable (String) -> Void = { _ in }

    static func pipeline(width: Int, height: Int) -> LEDPipeline {
        LEDPipeline(
            map: PixelMap(panels: [Panel(width: width, height: height)], frameWidth: width, frameHeight: height),
            correction: .identity, dithering: false)
    }

    @Test("a DDP output sends each frame as its packets at once, and counts it")
    func ddpSends() throws {
        let peer = LoopbackPeer(tcp: false)
        let sink = DatagramSink(
            name: "t", framer: DDPFramer(), pipeline: Self.pipeline(width: 32, height: 8), host: "127.0.0.1",
            port: peer.port, cap: FrameRateCap(maxFPS: nil, displayFPS: 60), log: Self.log)
        #expect(sink.state == .ok, "a literal address opens at once")
        let frame = Frame(width: 32, height: 8, fill: Color(red: 255, green: 128, blue: 0))
        for n in 1...5 { sink.send(frame, number: UInt64(n), deadline: 0) }
        let datagrams = peer.datagrams()
        #expect(datagrams.count == 5)
        #expect(datagrams.allSatisfy { $0.count == 10 + 768 && $0[0] == 0x41 && $0[10] == 255 && $0[11] == 128 })
        #expect(sink.counters?.framesSent == 5 && sink.counters?.device == "ddp 127.0.0.1:\(peer.port)")
        sink.stop()
    }

    @Test("a DDP frame of more datagrams than a system call takes arrives whole: every packet, in order, the framer's bytes")
    func ddpManyDatagrams() throws {
        let peer = LoopbackPeer(tcp: false)
        var size = Int32(1 << 20)
        _ = setsockopt(peer.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let (width, height) = (256, 128)  // 98,304 LED bytes: 69 packets, two batches
        let sink = DatagramSink(
            name: "t", framer: DDPFramer(), pipeline: Self.pipeline(width: width, height: height), host: "127.0.0.1",
            port: peer.port, cap: FrameRateCap(maxFPS: nil, displayFPS: 60), log: Self.log)
        var frame = Frame(width: width, height: height)
        for i in frame.pixels.indices { frame.pixels[i] = UInt8(truncatingIfNeeded: i &* 7 &+ i >> 9) }
        sink.send(frame, number: 1, deadline: 0)
        // What the framer writes for the same frame, one datagram at a time.
        var framer = DDPFramer()
        var pipeline = Self.pipeline(width: width, height: height)
        var expected: [[UInt8]] = []
        framer.writeFrame(frame, scale: DisplaySetting().scale, through: &pipeline) { datagram, _ in
            expected.append(Array(datagram))
        }
        #expect(expected.count == 69)
        let received = peer.datagrams()
        #expect(received.count == expected.count && received == expected)
        #expect(sink.counters?.framesSent == 1 && sink.counters?.dropped == 0 && sink.counters?.errors == 0)
        sink.stop()
    }

    @Test("nothing listening: the refusal is counted and the output waits; two quiet seconds later it is ok again")
    func refused() throws {
        var port: UInt16 = 0
        do { port = LoopbackPeer(tcp: false).port }  // bound, then closed: nothing listens there
        let sink = DatagramSink(
            name: "t", framer: DDPFramer(), pipeline: Self.pipeline(width: 8, height: 8), host: "127.0.0.1",
            port: port, cap: FrameRateCap(maxFPS: nil, displayFPS: 60), log: Self.log)
        let frame = Frame(width: 8, height: 8)
        for n in 1...3 { sink.send(frame, number: UInt64(n), deadline: UInt64(n) * 16_000_000) }
        #expect(sink.state == .waiting)
        let counters = try #require(sink.counters)
        #expect(counters.errors >= 1 && counters.lastError?.contains("refused") == true, "\(counters)")
        // A receiver appears on the port: once two seconds pass without a refusal, it is ok.
        let peer = LoopbackPeer(tcp: false)
        guard peer.port == port else { return }  // the port was taken meanwhile; nothing to show
        sink.send(frame, number: 4, deadline: 1_000_000_000)
        #expect(sink.state == .waiting)
        sink.send(frame, number: 5, deadline: 3_000_000_000)
        #expect(sink.state == .ok && sink.counters?.reconnects == 1)
        sink.stop()
    }

    @Test("an OPC server that stops reading: frames are dropped whole, and the stream stays message-aligned")
    func opcBackPressure() throws {
        let server = LoopbackPeer(tcp: true)
        let sink = OPCSink(
            name: "t", pipeline: Self.pipeline(width: 128, height: 64), host: "127.0.0.1", port: server.port,
            cap: FrameRateCap(maxFPS: nil, displayFPS: 60), log: Self.log)
        let connection = accept(server.fd, nil, nil)
        #expect(connection >= 0)
        defer { close(connection) }
        for _ in 0..<200 where sink.state != .ok { usleep(5000) }
        // 24 KiB a frame into a peer that reads nothing: the kernel's buffers fill up.
        for n in 1...600 {
            sink.send(Frame(width: 128, height: 64, fill: Color(red: 0, green: 0, blue: UInt8(n % 2))), number: UInt64(n), deadline: 0)
        }
        let counters = try #require(sink.counters)
        #expect(counters.dropped > 0 && counters.framesSent > 0 && counters.errors == 0, "\(counters)")
        // The server reads again, to the end, while a few more frames come (each finishes a
        // message the kernel took part of first) and the output stops (finishing its last
        // message, then closing): the stream must be whole messages of 4 + 24576 bytes.
        let received = Mutex<[UInt8]>([])
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            while poll(&poller, 1, 5000) == 1 {
                let got = recv(connection, &buffer, buffer.count, 0)
                if got <= 0 { break }
                received.withLock { $0 += buffer[0..<got] }
            }
        }
        reader.start()
        for _ in 0..<50 {
            sink.send(Frame(width: 128, height: 64), number: 1000, deadline: 0)
            usleep(2000)
        }
        let sent = sink.counters?.framesSent ?? 0
        sink.stop()
        while reader.isExecuting || !reader.isFinished { usleep(10_000) }
        let stream = received.withLock { $0 }
        var offset = 0
        var messages = 0
        while offset + 4 <= stream.count {
            #expect(stream[offset] == 0 && stream[offset + 1] == 0)
            let length = Int(stream[offset + 2]) << 8 | Int(stream[offset + 3])
            #expect(length == 128 * 64 * 3)
            guard length == 128 * 64 * 3 else { break }
            offset += 4 + length
            messages += 1
        }
        #expect(offset == stream.count, "the stream ends on a message boundary")
        #expect(UInt64(messages) == sent, "every frame counted as sent arrived whole")
    }
}
