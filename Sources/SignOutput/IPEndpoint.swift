import Glibc

/// A host and port resolved to a socket address the kernel takes, IPv4 or IPv6.
public struct IPEndpoint: Sendable, CustomStringConvertible {
    /// `AF_INET` or `AF_INET6`.
    public let family: Int32
    private let storage: sockaddr_storage
    private let length: socklen_t
    /// The address as written ("192.168.1.50:4048", "[fe80::1]:4048").
    public let description: String

    /// Resolves `host` (a name or a literal address). With `numericOnly` it never asks DNS,
    /// so it cannot block; a name then fails. Names are resolved with getaddrinfo, which
    /// may block: call it off the frame clock.
    public static func resolve(host: String, port: UInt16, numericOnly: Bool = false) -> Result<
        IPEndpoint, NetworkError
    > {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : AI_ADDRCONFIG)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            return .failure(NetworkError("cannot resolve \"\(host)\": \(String(cString: gai_strerror(rc)))"))
        }
        defer { freeaddrinfo(list) }
        // Prefer IPv4: LED controllers rarely listen on IPv6.
        var chosen = first
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            if entry.pointee.ai_family == AF_INET {
                chosen = entry
                break
            }
            next = entry.pointee.ai_next
        }
        guard let address = chosen.pointee.ai_addr else { return .failure(NetworkError("no address for \"\(host)\"")) }
        return .success(IPEndpoint(address, length: chosen.pointee.ai_addrlen, port: port))
    }

    init(_ address: UnsafePointer<sockaddr>, length: socklen_t, port: UInt16) {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
        }
        self.storage = storage
        self.length = length
        let family = Int32(address.pointee.sa_family)
        self.family = family
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let host: String = withUnsafeBytes(of: storage) { raw in
            let offset = family == AF_INET6 ? 8 : 4  // sin6_addr / sin_addr
            _ = inet_ntop(family, raw.baseAddress! + offset, &text, socklen_t(text.count))
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        self.description = family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The IPv4 address `a.b.c.d` (E1.31's multicast groups are made this way).
    public static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, port: UInt16) -> IPEndpoint {
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        sin.sin_addr.s_addr = (UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)).bigEndian
        return withUnsafePointer(to: &sin) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                IPEndpoint($0, length: socklen_t(MemoryLayout<sockaddr_in>.size), port: port)
            }
        }
    }

    /// Calls `body` with the address as the socket calls want it.
    public func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafeBytes(of: storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
    }
}

/// A network output's failure, in words for `status` and the log.
public struct NetworkError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// The errno behind it, if any.
    public let code: Int32?

    public init(_ description: String) {
        self.description = description
        code = nil
    }

    /// A refusal that waiting does not lift: the system or systemd's confinement forbids it.
    public var isPermanent: Bool { code.map(Self.isPermanent) ?? false }

    /// Whether `code` is such a refusal: systemd's IPAddressDeny= answers EPERM,
    /// RestrictAddressFamilies= EAFNOSUPPORT.
    static func isPermanent(_ code: Int32) -> Bool { code == EPERM || code == EACCES || code == EAFNOSUPPORT }

    /// The system's words for `code`, with what signd was doing.
    public init(_ doing: String, errno code: Int32) {
        var message = String(cString: strerror(code))
        if Self.isPermanent(code) {  // say how to lift systemd's confinement
            message += " (under systemd, enable the network drop-in: see docs/service.md, \"Network access\")"
        }
        self.description = "\(doing): \(message)"
        self.code = code
    }
}
