import Foundation
import SignGraphics
import Synchronization

/// Who may use the web API (CONTRACTS.md section 7): a bearer token, or a session cookie that
/// logging in with the token sets. Without a token file (allowed only on a loopback address)
/// nobody needs one, but the `Host` must then name this machine, so a web site that rebinds
/// its own name to 127.0.0.1 cannot drive the sign from a browser.
///
/// Tokens are compared in constant time; failed logins are limited per client address and in
/// all; sessions are random, few, and forgotten at restart.
public final class WebAuth: Sendable {
    /// The token, or nil when none is needed.
    let token: [UInt8]?
    private let state = Mutex(State())

    /// Failed logins one address may make within `failureWindow` seconds.
    public static let failuresPerAddress = 5
    /// Failed logins from all addresses within `failureWindow` seconds.
    public static let failuresInAll = 20
    public static let failureWindow = 60.0
    /// Sessions kept at once; logging in past this forgets the least recently used.
    public static let maxSessions = 32
    /// Shortest token accepted.
    public static let minTokenLength = 16
    /// The session cookie's name.
    public static let cookieName = "signd_session"

    private struct State {
        var sessions: [(id: [UInt8], lastUsed: Double)] = []
        var failures: [String: [Double]] = [:]
        var allFailures: [Double] = []
    }

    /// What a login attempt came to.
    public enum Login: Equatable, Sendable {
        /// The token was right: the new session's id (for the cookie).
        case accepted(session: String)
        case refused
        /// Too many failures lately: try again after this many seconds.
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

    /// Whether a request with these `Authorization` and `Cookie` header values may use the API.
    public func authorizes(authorization: String?, cookie: String?, now: Double) -> Bool {
        guard let token else { return true }
        if let authorization, authorization.hasPrefix("Bearer ") {
            let presented = Array(authorization.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces).utf8)
            if Self.constantTimeEqual(presented, token) { return true }
        }
        guard let id = cookie.flatMap(Self.sessionID(inCookie:)) else { return false }
        return state.withLock { s in
            for i in s.sessions.indices where Self.constantTimeEqual(s.sessions[i].id, id) {
                s.sessions[i].lastUsed = now
                return true
            }
            return false
        }
    }

    /// Checks a login's token from `address` at `now` (seconds, any steady clock).
    public func login(token presented: String, from address: String, now: Double) -> Login {
        guard let token else { return .accepted(session: "") }
        let retry = state.withLock { s -> Int? in
            s.allFailures.removeAll { $0 <= now - Self.failureWindow }
            s.failures[address]?.removeAll { $0 <= now - Self.failureWindow }
            if s.failures[address]?.isEmpty == true { s.failures[address] = nil }
            let mine = s.failures[address] ?? []
            if mine.count >= Self.failuresPerAddress {
                return Int((mine[0] + Self.failureWindow - now).rounded(.up))
            }
            if s.allFailures.count >= Self.failuresInAll {
                return Int((s.allFailures[0] + Self.failureWindow - now).rounded(.up))
            }
            return nil
        }
        if let retry { return .tooMany(retryAfter: max(retry, 1)) }
        guard Self.constantTimeEqual(Array(presented.utf8), token) else {
            state.withLock { s in
                // Addresses are forgotten once their window passes; at most a few hundred are kept.
                if s.failures[address] == nil, s.failures.count >= 256 {
                    s.failures = s.failures.filter { $0.value.contains { $0 > now - Self.failureWindow } }
                }
                if s.failures[address] != nil || s.failures.count < 256 { s.failures[address, default: []].append(now) }
                s.allFailures.append(now)
            }
            return .refused
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
