import Glibc

/// A non-blocking UDP socket: datagrams go out at once or not at all, so the frame clock
/// never waits on the network. Unicast destinations are connected, so a receiver that is
/// not listening is reported (ECONNREFUSED) rather than silently lost.
final class DatagramSocket: @unchecked Sendable {
    let fd: Int32
    /// One destination (connected), or several (multicast groups, sent to one by one).
    private let destinations: [IPEndpoint]

    /// Opens a socket for `destinations`, all of one address family. `ttl` is the multicast
    /// hop limit (E1.31 multicast); broadcast is allowed (Art-Net to x.y.z.255).
    init(destinations: [IPEndpoint], ttl: Int32 = 1) throws(NetworkError) {
        precondition(!destinations.isEmpty)
        let family = destinations[0].family
        fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NetworkError("cannot open a UDP socket", errno: errno) }
        self.destinations = destinations
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
    }

    deinit { close(fd) }

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
}
