import CSendmmsg
import Glibc

/// A non-blocking UDP socket: datagrams go out at once or not at all, so the frame clock
/// never waits on the network. Unicast destinations are connected, so a receiver that is
/// not listening is reported (ECONNREFUSED) rather than silently lost.
///
/// A frame's datagrams are queued (`queue`) and go out together (`flush`): many messages to
/// a system call (sendmmsg), and a run of equal datagrams to one destination as one message
/// the kernel cuts into them (UDP_SEGMENT, "UDP GSO"), which crosses the IP stack once for
/// the run instead of once a datagram. The datagrams on the wire are the same, in the same
/// order; a kernel or route that cannot segment is found on the first try, and from then
/// on the datagrams go one message each.
final class DatagramSocket: @unchecked Sendable {
    /// The system call a batch goes out through, shaped like sendmmsg(2): the socket, the
    /// messages, their count and the flags; how many went, or -1 with errno set when the
    /// first did not. Tests stand in a kernel that takes part of a batch or fails.
    typealias Transmit = (Int32, UnsafeMutablePointer<signd_mmsghdr>, UInt32, Int32) -> Int32

    /// The most datagrams, and payload bytes, one segmented message carries (the kernel's
    /// UDP_MAX_SEGMENTS was 64 before Linux 6.9; an IPv4 datagram's payload is at most 65,507).
    static let maxSegments = 64
    static let maxSegmentedBytes = 65_000

    let fd: Int32
    /// One destination (connected), or several (multicast groups, sent to one by one).
    private let destinations: [IPEndpoint]
    private let transmit: Transmit
    /// The destinations' addresses where the kernel reads them (several destinations only).
    private let addresses: UnsafeMutablePointer<sockaddr_storage>
    private let addressLengths: [socklen_t]
    /// The queued datagrams' bytes, back to back (`used` of `arenaBytes`), and the messages
    /// that carry them (`queued` of `slots`): each message one datagram, or a run of them
    /// `segmentSize` bytes each (the last may be shorter) to one destination.
    private let arena: UnsafeMutableRawPointer
    private let arenaBytes: Int
    private let slots: Int
    private let messages: UnsafeMutablePointer<signd_mmsghdr>
    private let vectors: UnsafeMutablePointer<iovec>
    private let controls: UnsafeMutableRawPointer
    private let controlSpace: Int
    private let segmentSize: UnsafeMutablePointer<Int>
    private let segmentCount: UnsafeMutablePointer<Int>
    private let destinationOf: UnsafeMutablePointer<Int>
    private var queued = 0
    private var used = 0
    /// Whether the last message takes no more datagrams (one shorter than its first came).
    private var lastClosed = true
    /// Whether runs go as segmented messages; off for good once the kernel refuses one.
    private(set) var segmenting: Bool

    /// Opens a socket for `destinations`, all of one address family. `ttl` is the multicast
    /// hop limit (E1.31 multicast); broadcast is allowed (Art-Net to x.y.z.255). At most
    /// `slots` messages and `arenaBytes` bytes wait in the queue; a longer datagram goes alone.
    init(
        destinations: [IPEndpoint], ttl: Int32 = 1, slots: Int = 64, arenaBytes: Int = 128 * 1024,
        segmenting: Bool = true, transmit: @escaping Transmit = { signd_sendmmsg($0, $1, $2, $3) }
    ) throws(NetworkError) {
        precondition(!destinations.isEmpty && slots > 0 && arenaBytes > 0)
        let family = destinations[0].family
        let fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NetworkError("cannot open a UDP socket", errno: errno) }
        self.fd = fd
        self.destinations = destinations
        self.transmit = transmit
        self.slots = slots
        self.arenaBytes = arenaBytes
        // One destination only: multicast groups get one datagram each (a universe), so no
        // runs form there.
        self.segmenting = segmenting && destinations.count == 1
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET {
            var hops = ttl
            _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &hops, socklen_t(MemoryLayout<Int32>.size))
        }
        if destinations.count == 1 {
            let rc = destinations[0].withSocketAddress { Glibc.connect(fd, $0, $1) }
            if rc != 0 {
                let code = errno
                close(fd)
                throw NetworkError("cannot send to \(destinations[0])", errno: code)
            }
        }
        // Allocated once the socket is sure: a failed init has no deinit to free them.
        let addresses = UnsafeMutablePointer<sockaddr_storage>.allocate(capacity: destinations.count)
        addressLengths = destinations.enumerated().map { i, destination in
            addresses[i] = sockaddr_storage()
            return destination.withSocketAddress { address, length in
                UnsafeMutableRawPointer(addresses + i).copyMemory(from: address, byteCount: Int(length))
                return length
            }
        }
        self.addresses = addresses
        arena = .allocate(byteCount: arenaBytes, alignment: 16)
        messages = .allocate(capacity: slots)
        vectors = .allocate(capacity: slots)
        controlSpace = signd_udp_segment_space()
        controls = .allocate(byteCount: slots * controlSpace, alignment: 16)
        segmentSize = .allocate(capacity: slots)
        segmentCount = .allocate(capacity: slots)
        destinationOf = .allocate(capacity: slots)
    }

    deinit {
        close(fd)
        addresses.deallocate()
        arena.deallocate()
        messages.deallocate()
        vectors.deallocate()
        controls.deallocate()
        segmentSize.deallocate()
        segmentCount.deallocate()
        destinationOf.deallocate()
    }

    /// Sends one datagram to destination `index` (ignored when there is one): 0, or the
    /// errno of a send that failed or would have blocked.
    func send(_ datagram: UnsafeRawBufferPointer, to index: Int) -> Int32 {
        let sent: Int
        if destinations.count == 1 {
            sent = Glibc.send(fd, datagram.baseAddress, datagram.count, Int32(MSG_DONTWAIT))
        } else {
            let destination = destinations[min(max(index, 0), destinations.count - 1)]
            sent = destination.withSocketAddress {
                sendto(fd, datagram.baseAddress, datagram.count, Int32(MSG_DONTWAIT), $0, $1)
            }
        }
        return sent < 0 ? errno : 0
    }

    /// What became of a frame's datagrams: the errno of the last that failed, and whether
    /// any would have blocked (EAGAIN, ENOBUFS: dropped, the socket's buffer full).
    struct Outcome: Equatable {
        var failure: Int32 = 0
        var blocked = false

        /// Notes one datagram's errno (0: it went).
        mutating func note(_ code: Int32) {
            if code == EAGAIN || code == EWOULDBLOCK || code == ENOBUFS {
                blocked = true
            } else if code != 0 {
                failure = code
            }
        }
    }

    /// Queues a copy of one datagram for destination `index` (ignored when there is one),
    /// flushing first when the queue is full; what becomes of it is noted in `outcome`.
    func queue(_ datagram: UnsafeRawBufferPointer, to index: Int, outcome: inout Outcome) {
        let count = datagram.count
        guard count <= arenaBytes else {
            flush(&outcome)
            outcome.note(send(datagram, to: index))
            return
        }
        if used + count > arenaBytes { flush(&outcome) }
        let destination = destinations.count > 1 ? min(max(index, 0), destinations.count - 1) : 0
        if queued > 0, joinsLast(count, destination: destination) {
            let last = queued - 1
            if count > 0 { (arena + used).copyMemory(from: datagram.baseAddress!, byteCount: count) }
            used += count
            vectors[last].iov_len += count
            segmentCount[last] += 1
            lastClosed = count < segmentSize[last]
            return
        }
        if queued == slots { flush(&outcome) }
        let bytes = arena + used
        if count > 0 { bytes.copyMemory(from: datagram.baseAddress!, byteCount: count) }
        used += count
        start(at: bytes, count: count, destination: destination)
    }

    /// Whether a datagram of `count` bytes can ride in the last message: a run to the same
    /// destination, no longer than its first, within the kernel's limits.
    private func joinsLast(_ count: Int, destination: Int) -> Bool {
        let last = queued - 1
        return segmenting && !lastClosed && count > 0 && destinationOf[last] == destination
            && count <= segmentSize[last] && segmentCount[last] < Self.maxSegments
            && vectors[last].iov_len + count <= Self.maxSegmentedBytes
    }

    /// A new message for the datagram of `count` bytes at `bytes`.
    private func start(at bytes: UnsafeMutableRawPointer, count: Int, destination: Int) {
        let i = queued
        vectors[i] = iovec(iov_base: bytes, iov_len: count)
        segmentSize[i] = count
        segmentCount[i] = 1
        destinationOf[i] = destination
        var header = msghdr()
        if destinations.count > 1 {
            header.msg_name = UnsafeMutableRawPointer(addresses + destination)
            header.msg_namelen = addressLengths[destination]
        }
        header.msg_iov = vectors + i
        header.msg_iovlen = 1
        messages[i] = signd_mmsghdr(msg_hdr: header, msg_len: 0)
        queued += 1
        lastClosed = count == 0
    }

    /// Sends every queued datagram, many to a system call, in order and without waiting.
    ///
    /// sendmmsg stops at the first message the kernel does not take and, when some went
    /// before it, drops its errno: that message heads the next call, which fails at once
    /// with the errno if the cause persists (EAGAIN, ENOBUFS). A message that fails at the
    /// head of a call has its errno noted in `outcome` for its first datagram, which is
    /// dropped, as `send` would have dropped it; the rest of its run are tried one by one,
    /// as they were before runs went together. A run the kernel will not segment (an old
    /// kernel, a route through a tunnel or a smaller MTU) goes one datagram at a time, and
    /// so does every run after it. Bounded: each call or send moves past a message or a
    /// datagram.
    func flush(_ outcome: inout Outcome) {
        for i in 0..<queued where segmentCount[i] > 1 {
            signd_write_udp_segment(controls + i * controlSpace, UInt16(segmentSize[i]))
            messages[i].msg_hdr.msg_control = controls + i * controlSpace
            messages[i].msg_hdr.msg_controllen = controlSpace
        }
        var next = 0
        while next < queued {
            let sent = Int(transmit(fd, messages + next, UInt32(queued - next), Int32(MSG_DONTWAIT)))
            if sent > 0 {
                next += min(sent, queued - next)
                continue
            }
            let code = sent < 0 ? errno : EAGAIN
            if segmentCount[next] > 1, Self.refusesSegments(code) {
                segmenting = false
                sendApart(next, from: 0, outcome: &outcome)
            } else {
                outcome.note(code)
                if segmentCount[next] > 1 { sendApart(next, from: 1, outcome: &outcome) }
            }
            next += 1
        }
        queued = 0
        used = 0
        lastClosed = true
    }

    /// Sends message `i`'s datagrams from the `first`th on one system call each.
    private func sendApart(_ i: Int, from first: Int, outcome: inout Outcome) {
        let base = vectors[i].iov_base!
        let total = vectors[i].iov_len
        var offset = first * segmentSize[i]
        while offset < total {
            let count = min(segmentSize[i], total - offset)
            outcome.note(send(UnsafeRawBufferPointer(start: base + offset, count: count), to: destinationOf[i]))
            offset += count
        }
    }

    /// Whether an errno says the kernel or the route cannot segment a message, rather than
    /// anything about the datagrams: not supported, checksums off, an MTU under the size.
    static func refusesSegments(_ code: Int32) -> Bool {
        code == EINVAL || code == EIO || code == ENOPROTOOPT || code == EOPNOTSUPP || code == EMSGSIZE
    }
}
