import CSendmmsg
import Glibc
import Synchronization
import Testing

@testable import SignOutput

/// A kernel standing in for sendmmsg: each call takes what `script` says (a count of
/// messages, or an errno as a negative number; past the script, everything) and records the
/// messages it was offered and took, each as the first byte of each datagram in it.
final class ScriptedKernel: Sendable {
    private struct State {
        var script: [Int32]
        var offered: [[[UInt8]]] = []
        var taken: [[UInt8]] = []
    }
    private let state: Mutex<State>

    init(_ script: [Int32]) { state = Mutex(State(script: script)) }

    /// Per call, per message, the first byte of each datagram.
    var offered: [[[UInt8]]] { state.withLock { $0.offered } }
    /// Per message taken, the first byte of each datagram.
    var taken: [[UInt8]] { state.withLock { $0.taken } }

    /// The first byte of each datagram a message carries (several when it asks to be segmented).
    static func datagrams(_ message: UnsafeMutablePointer<signd_mmsghdr>) -> [UInt8] {
        let vector = message.pointee.msg_hdr.msg_iov.pointee
        let segment = Int(withUnsafePointer(to: &message.pointee.msg_hdr) { signd_udp_segment_of($0) })
        let step = segment > 0 ? segment : max(vector.iov_len, 1)
        return stride(from: 0, to: vector.iov_len, by: step).map { vector.iov_base!.load(fromByteOffset: $0, as: UInt8.self) }
    }

    func transmit(_ fd: Int32, _ messages: UnsafeMutablePointer<signd_mmsghdr>, _ count: UInt32, _ flags: Int32) -> Int32 {
        #expect(flags & Int32(MSG_DONTWAIT) != 0, "a batch never waits")
        return state.withLock { s in
            let offered = (0..<Int(count)).map { Self.datagrams(messages + $0) }
            s.offered.append(offered)
            let step = s.script.isEmpty ? Int32(count) : s.script.removeFirst()
            if step < 0 {
                errno = -step
                return -1
            }
            let took = min(Int(step), Int(count))
            s.taken += offered[0..<took]
            return Int32(took)
        }
    }
}

@Suite("Datagrams many to a system call")
struct DatagramSocketTests {
    /// A socket to `peer` whose batches go to `kernel`.
    static func socket(
        _ kernel: ScriptedKernel, peer: LoopbackPeer = LoopbackPeer(tcp: false), slots: Int = 64,
        arenaBytes: Int = 64 * 1500, segmenting: Bool = false
    ) throws -> DatagramSocket {
        let endpoint = try IPEndpoint.resolve(host: "127.0.0.1", port: peer.port, numericOnly: true).get()
        return try DatagramSocket(
            destinations: [endpoint], slots: slots, arenaBytes: arenaBytes, segmenting: segmenting,
            transmit: kernel.transmit)
    }

    /// Queues datagrams whose bytes are each of `firsts` (`size` bytes each, or `sizes`) and flushes.
    static func send(_ firsts: [UInt8], sizes: [Int]? = nil, through socket: DatagramSocket) -> DatagramSocket.Outcome {
        var outcome = DatagramSocket.Outcome()
        for (i, first) in firsts.enumerated() {
            let datagram = [UInt8](repeating: first, count: sizes?[i] ?? 10)
            datagram.withUnsafeBytes { socket.queue($0, to: 0, outcome: &outcome) }
        }
        socket.flush(&outcome)
        return outcome
    }

    @Test("a kernel that takes part of a batch gets the rest in the next call, in order")
    func partialSend() throws {
        let kernel = ScriptedKernel([2, 1])
        let outcome = Self.send([1, 2, 3, 4, 5], through: try Self.socket(kernel))
        #expect(kernel.offered == [[[1], [2], [3], [4], [5]], [[3], [4], [5]], [[4], [5]]])
        #expect(kernel.taken == [[1], [2], [3], [4], [5]])
        #expect(outcome == DatagramSocket.Outcome(), "a partial send is no failure")
    }

    @Test("a full socket buffer (EAGAIN, ENOBUFS) drops that datagram, marks the frame blocked, and the rest still go")
    func wouldBlock() throws {
        let kernel = ScriptedKernel([2, -EAGAIN, -ENOBUFS])
        let outcome = Self.send([1, 2, 3, 4, 5], through: try Self.socket(kernel))
        #expect(kernel.offered == [[[1], [2], [3], [4], [5]], [[3], [4], [5]], [[4], [5]], [[5]]])
        #expect(kernel.taken == [[1], [2], [5]])
        #expect(outcome.blocked && outcome.failure == 0)
    }

    @Test("a refusal at the head of a call is the frame's failure, and the datagrams after it still go")
    func refused() throws {
        let kernel = ScriptedKernel([-ECONNREFUSED])
        let outcome = Self.send([1, 2, 3], through: try Self.socket(kernel))
        #expect(kernel.offered == [[[1], [2], [3]], [[2], [3]]])
        #expect(kernel.taken == [[2], [3]])
        #expect(outcome.failure == ECONNREFUSED && !outcome.blocked)
    }

    @Test("a kernel that takes nothing on every call: each datagram is tried once and counted, the loop ends")
    func nothingGoes() throws {
        let kernel = ScriptedKernel(Array(repeating: -EAGAIN, count: 100))
        let outcome = Self.send(Array(1...40), through: try Self.socket(kernel))
        #expect(kernel.offered.count == 40 && kernel.taken.isEmpty)
        #expect(outcome.blocked)
    }

    @Test("a queue holds at most its slots and its bytes: more datagrams go in several calls")
    func bounded() throws {
        let bySlots = ScriptedKernel([])
        _ = Self.send(Array(1...7), through: try Self.socket(bySlots, slots: 3))
        #expect(bySlots.offered == [[[1], [2], [3]], [[4], [5], [6]], [[7]]])
        let byBytes = ScriptedKernel([])
        _ = Self.send(Array(1...7), through: try Self.socket(byBytes, arenaBytes: 25))
        #expect(byBytes.offered == [[[1], [2]], [[3], [4]], [[5], [6]], [[7]]])
    }

    @Test("equal datagrams to one destination go as one segmented message; a shorter one ends the run")
    func runs() throws {
        let kernel = ScriptedKernel([])
        let outcome = Self.send(
            [1, 2, 3, 4, 5, 6, 7, 8], sizes: [10, 10, 10, 4, 10, 10, 12, 12],
            through: try Self.socket(kernel, segmenting: true))
        #expect(kernel.offered == [[[1, 2, 3, 4], [5, 6], [7, 8]]])
        #expect(outcome == DatagramSocket.Outcome())
        // A run holds at most 64 datagrams and 65,000 bytes.
        let long = ScriptedKernel([])
        let socket = try Self.socket(long, slots: 8, arenaBytes: 1 << 18, segmenting: true)
        _ = Self.send(Array(repeating: 9, count: 70), through: socket)
        #expect(long.offered.map { $0.map(\.count) } == [[64, 6]])
        _ = Self.send(Array(repeating: 9, count: 50), sizes: Array(repeating: 1450, count: 50), through: socket)
        #expect(long.offered.last?.map(\.count) == [44, 6])
    }

    @Test("a run the kernel will not segment goes one datagram at a time, and so does everything after")
    func segmentsRefused() throws {
        let peer = LoopbackPeer(tcp: false)
        let kernel = ScriptedKernel([-EINVAL])
        let socket = try Self.socket(kernel, peer: peer, segmenting: true)
        let outcome = Self.send([1, 2, 3], through: socket)
        #expect(outcome == DatagramSocket.Outcome(), "the kernel's refusal to segment is no failure of the datagrams")
        #expect(peer.datagrams().map { $0[0] } == [1, 2, 3], "sent one by one, in order")
        #expect(!socket.segmenting)
        _ = Self.send([4, 5], through: socket)
        #expect(kernel.offered.last == [[4], [5]])
    }

    @Test("a run that fails at the head of a call: its first datagram is dropped and counted, the rest go one by one")
    func runBlocked() throws {
        let peer = LoopbackPeer(tcp: false)
        let kernel = ScriptedKernel([-EAGAIN])
        let socket = try Self.socket(kernel, peer: peer, segmenting: true)
        let outcome = Self.send([1, 2, 3, 4], sizes: [10, 10, 10, 5], through: socket)
        #expect(outcome.blocked && outcome.failure == 0)
        #expect(peer.datagrams().map { $0[0] } == [2, 3, 4])
        #expect(socket.segmenting, "EAGAIN says nothing against segmenting")
    }

    @Test("the kernel's own sendmmsg and segmenting: every datagram arrives whole and in order, one longer than the queue's bytes too")
    func loopback() throws {
        for segmenting in [false, true] {
            let peer = LoopbackPeer(tcp: false)
            var size = Int32(1 << 20)
            _ = setsockopt(peer.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let endpoint = try IPEndpoint.resolve(host: "127.0.0.1", port: peer.port, numericOnly: true).get()
            let socket = try DatagramSocket(destinations: [endpoint], slots: 4, arenaBytes: 8000, segmenting: segmenting)
            let sizes = [1450, 1450, 1450, 10, 1, 1450, 9000, 600, 600, 600, 600, 600, 0, 77] + Array(repeating: 1450, count: 20)
            let datagrams = sizes.enumerated().map { i, size in (0..<size).map { UInt8(truncatingIfNeeded: i &* 31 &+ $0) } }
            var outcome = DatagramSocket.Outcome()
            for datagram in datagrams {
                datagram.withUnsafeBytes { socket.queue($0, to: 0, outcome: &outcome) }
            }
            socket.flush(&outcome)
            #expect(outcome == DatagramSocket.Outcome())
            #expect(peer.datagrams(capacity: 16384) == datagrams, "segmenting \(segmenting)")
            #expect(socket.segmenting == segmenting, "this kernel segments runs on loopback")
        }
    }

    @Test("several destinations (multicast groups): each datagram goes to its own address, none segmented")
    func destinations() throws {
        let peers = [LoopbackPeer(tcp: false), LoopbackPeer(tcp: false)]
        let endpoints = try peers.map { try IPEndpoint.resolve(host: "127.0.0.1", port: $0.port, numericOnly: true).get() }
        let socket = try DatagramSocket(destinations: endpoints)
        #expect(!socket.segmenting)
        var outcome = DatagramSocket.Outcome()
        for (i, destination) in [0, 1, 1, 0, 1].enumerated() {
            [UInt8(i), UInt8(destination)].withUnsafeBytes { socket.queue($0, to: destination, outcome: &outcome) }
        }
        socket.flush(&outcome)
        #expect(outcome == DatagramSocket.Outcome())
        #expect(peers[0].datagrams() == [[0, 0], [3, 0]])
        #expect(peers[1].datagrams() == [[1, 1], [2, 1], [4, 1]])
    }
}
