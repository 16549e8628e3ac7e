import Foundation
import SignConfig
import SignGraphics
import Synchronization

/// Who may use the web API (docs/contracts.md, "The web API"): a bearer token, or a session cookie that
/// logging in with the token sets. Without a token file (allowed only on a loopback address)
/// nobody needs one, but the `Host` must then name this machine, so a web site that rebinds
/// its own name to 127.0.0.1 cannot drive the sign from a browser.
///
/// Tokens are compared in constant time. Wrong tokens (at login or as a bearer) slow down
/// only the address that sends them: after five within a minute, that address's next token
/// is checked no sooner than 12 s after its last, and sooner is answered 429 unchecked. No
/// other address is ever held back, and a session cookie never is, so nobody can keep the
/// owner out by guessing wrong. Sessions are random, few, and forgotten at restart.
public final class WebAuth: Sendable {
    /// The token, or nil when none is needed.
    let token: [UInt8]?
    private let state = Mutex(State())

    /// Wrong tokens one address may send within `failureWindow` seconds before it is paced.
    public static let failuresPerAddress = 5
    public static let failureWindow = 60.0
    /// Once paced, the seconds between one check of an address's token and the next: five a
    /// minute, as many as are free.
    public static let pace = failureWindow / Double(failuresPerAddress)
    /// Addresses whose wrong tokens are remembered; past this the one quiet longest is forgotten.
    public static let maxAddresses = 4096
    /// Sessions kept at once; logging in past this forgets the least recently used.
    public static let maxSessions = 32
    /// Shortest token accepted.
    public static let minTokenLength = 16
    /// The session cookie's name.
    public static let cookieName = "signd_session"

    private struct State {
        var sessions: [(id: [UInt8], lastUsed: Double)] = []
        var addresses: [String: Guesses] = [:]
    }

    /// One address's wrong tokens within the window, and when its token was last checked.
    private struct Guesses {
        var failures: [Double] = []
        var lastCheck = -Double.infinity
    }

    /// What a login attempt came to.
    public enum Login: Equatable, Sendable {
        /// The token was right: the new session's id (for the cookie).
        case accepted(session: String)
        case refused
        /// This address sent too many wrong tokens lately: its token was not checked; try
        /// again after this many seconds.
        case tooMany(retryAfter: Int)
    }

    /// Whether a request may use the API.
    public enum Access: Equatable, Sendable {
        case allowed
        /// No token or session, or a wrong one.
        case refused
        /// A bearer token from an address that sent too many wrong ones lately: not checked;
        /// try again after this many seconds.
        case tooMany(retryAfter: Int)
    }

    public init(token: [UInt8]?) {
        self.token = token
    }

    /// Reads the token from `path`: a regular file of at most 4 KiB, surrounding white space
    /// dropped, at least `minTokenLength` printable characters without spaces.
    static func readToken(path: String) throws(DaemonError) -> [UInt8] {
        let bytes = Array(try SecretFile.read(path, key: "web.token_file").utf8)
        let token = Array(
            bytes.drop(while: { $0 == 32 || (9...13).contains($0) }).reversed()
                .drop(while: { $0 == 32 || (9...13).contains($0) }).reversed())
        guard token.count >= minTokenLength, token.allSatisfy({ (33...126).contains($0) }) else {
            throw DaemonError(
                "web.token_file \(path): the token must be at least \(minTokenLength) printable characters without spaces (e.g. the output of `openssl rand -hex 16`)"
            )
        }
        return token
    }

    /// Whether a request needs a token at all.
    public var needsToken: Bool { token != nil }

    /// Whether two byte strings are equal, taking the same time wherever they differ.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0
    }

    /// Whether a request with these `Authorization` and `Cookie` header values, from
    /// `address` (an `addressKey`), may use the API at `now` (seconds, any steady clock). A
    /// valid session is never held back; a bearer token is checked as a login's is.
    public func access(authorization: String?, cookie: String?, from address: String, now: Double) -> Access {
        guard let token else { return .allowed }
        if let id = cookie.flatMap(Self.sessionID(inCookie:)) {
            let known = state.withLock { s in
                for i in s.sessions.indices where Self.constantTimeEqual(s.sessions[i].id, id) {
                    s.sessions[i].lastUsed = now
                    return true
                }
                return false
            }
            if known { return .allowed }
        }
        guard let presented = authorization.flatMap(Self.bearerToken) else { return .refused }
        return check(Array(presented.utf8), against: token, from: address, now: now)
    }

    /// The token of an `Authorization` header value with the scheme `Bearer`, in any case
    /// (RFC 7235 2.1), white space around it dropped; nil for any other scheme.
    static func bearerToken(_ header: String) -> Substring? {
        let trimmed = header.drop(while: { $0 == " " || $0 == "\t" })
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }),
            trimmed[..<space].lowercased() == "bearer"
        else { return nil }
        var value = trimmed[space...].drop(while: { $0 == " " || $0 == "\t" })
        while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
        return value
    }

    /// Checks a token `address` presented, pacing the address once it has sent
    /// `failuresPerAddress` wrong ones within the window; a right one forgets its wrong ones.
    private func check(_ presented: [UInt8], against token: [UInt8], from address: String, now: Double) -> Access {
        state.withLock { s in
            var guesses = s.addresses[address] ?? Guesses()
            guesses.failures.removeAll { $0 <= now - Self.failureWindow }
            if guesses.failures.count >= Self.failuresPerAddress, now < guesses.lastCheck + Self.pace {
                return .tooMany(retryAfter: max(Int((guesses.lastCheck + Self.pace - now).rounded(.up)), 1))
            }
            guesses.lastCheck = now
            if Self.constantTimeEqual(presented, token) {
                s.addresses[address] = nil
                return .allowed
            }
            guesses.failures.append(now)
            if s.addresses[address] == nil, s.addresses.count >= Self.maxAddresses {
                // The address whose last wrong token is oldest makes room.
                if let quietest = s.addresses.min(by: { ($0.value.failures.last ?? 0) < ($1.value.failures.last ?? 0) })
                {
                    s.addresses[quietest.key] = nil
                }
            }
            s.addresses[address] = guesses
            return .refused
        }
    }

    /// Checks a login's token from `address` (an `addressKey`) at `now` (seconds, any steady clock).
    public func login(token presented: String, from address: String, now: Double) -> Login {
        guard let token else { return .accepted(session: "") }
        switch check(Array(presented.utf8), against: token, from: address, now: now) {
        case .refused: return .refused
        case .tooMany(let retryAfter): return .tooMany(retryAfter: retryAfter)
        case .allowed: break
        }
        var random = SystemRandomNumberGenerator()
        let id = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let hex = Array(id.map { String(format: "%02x", $0) }.joined().utf8)
        state.withLock { s in
            if s.sessions.count >= Self.maxSessions,
                let oldest = s.sessions.indices.min(by: { s.sessions[$0].lastUsed < s.sessions[$1].lastUsed })
            {
                s.sessions.remove(at: oldest)
            }
            s.sessions.append((hex, now))
        }
        return .accepted(session: String(decoding: hex, as: UTF8.self))
    }

    /// The address a client's wrong tokens and unfinished connections are counted under: an
    /// IPv4 address as it is (also when mapped into IPv6), an IPv6 address by its /64 prefix,
    /// since one host may hold every address in its /64.
    public static func addressKey(_ ip: String) -> String {
        var v6 = in6_addr()
        guard ip.contains(":"), inet_pton(AF_INET6, ip, &v6) == 1 else { return ip }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }

    /// Forgets the session named by a `Cookie` header value, if any.
    public func logout(cookie: String?) {
        guard let id = cookie.flatMap(Self.sessionID(inCookie:)) else { return }
        state.withLock { s in s.sessions.removeAll { Self.constantTimeEqual($0.id, id) } }
    }

    /// The value of the session cookie in a `Cookie` header value.
    static func sessionID(inCookie header: String) -> [UInt8]? {
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                return Array(parts[1].trimmingCharacters(in: .whitespaces).utf8)
            }
        }
        return nil
    }

    /// Whether a `Host` header value names this machine: `localhost`, a 127.x.y.z address or
    /// `[::1]`, with or without a port.
    public static func hostIsLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = String(name[name.index(after: name.startIndex)..<close])
        } else if let colon = name.lastIndex(of: ":") {
            name = String(name[..<colon])
        }
        return name == "localhost" || DaemonConfig.Web.isLoopback(name)
    }

    /// Whether an `Origin` header value is the page's own (`http://` + the request's `Host`).
    /// Browsers send it with every cross-site POST and WebSocket; without one (curl, signctl's
    /// kin) the request is not a browser's on another site's behalf.
    public static func originIsOwn(_ origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        guard let host else { return false }
        return origin.lowercased() == "http://" + host.lowercased()
            || origin.lowercased() == "https://" + host.lowercased()
    }
}
