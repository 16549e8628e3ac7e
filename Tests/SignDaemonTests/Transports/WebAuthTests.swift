import Foundation
import Testing

@testable import SignDaemon

@Suite("WebAuth")
struct WebAuthTests {
    static let token = Array("0123456789abcdef0123".utf8)

    @Test("without a token file every request is let through")
    func noToken() {
        let auth = WebAuth(token: nil)
        #expect(!auth.needsToken)
        #expect(auth.access(authorization: nil, cookie: nil, from: "10.0.0.2", now: 0) == .allowed)
    }

    @Test("a bearer token is accepted only when it is the token, byte for byte")
    func bearer() {
        let auth = WebAuth(token: Self.token)
        #expect(auth.access(authorization: "Bearer 0123456789abcdef0123", cookie: nil, from: "a", now: 0) == .allowed)
        for (i, wrong) in [
            "Bearer 0123456789abcdef012", "Bearer 0123456789abcdef01234", "Bearer x", "0123456789abcdef0123",
            "Basic 0123456789abcdef0123", "", "Bearer", "Bearer0123456789abcdef0123",
        ].enumerated() {
            #expect(auth.access(authorization: wrong, cookie: nil, from: "10.0.0.\(i)", now: 0) == .refused, "\(wrong)")
        }
        #expect(auth.access(authorization: nil, cookie: nil, from: "a", now: 0) == .refused)
    }

    @Test("constant-time comparison: equal only for equal bytes, whatever the lengths")
    func constantTime() {
        #expect(WebAuth.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!WebAuth.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!WebAuth.constantTimeEqual([1, 2, 3], [1, 2, 3, 0]))
        #expect(!WebAuth.constantTimeEqual([], [0]))
        #expect(WebAuth.constantTimeEqual([], []))
    }

    @Test("logging in with the token gives a session the cookie then carries; logging out ends it")
    func sessions() throws {
        let auth = WebAuth(token: Self.token)
        guard case .accepted(let session) = auth.login(token: "0123456789abcdef0123", from: "10.0.0.2", now: 0) else {
            Issue.record("the right token was refused")
            return
        }
        #expect(session.count == 64 && session.allSatisfy(\.isHexDigit))
        let cookie = "theme=dark; \(WebAuth.cookieName)=\(session)"
        #expect(auth.access(authorization: nil, cookie: cookie, from: "10.0.0.2", now: 1) == .allowed)
        // The session with its last digit changed (to one it is not).
        let forged = "\(session.dropLast())\(session.last == "0" ? "1" : "0")"
        #expect(
            auth.access(authorization: nil, cookie: "\(WebAuth.cookieName)=\(forged)", from: "10.0.0.2", now: 1)
                == .refused)
        auth.logout(cookie: cookie)
        #expect(auth.access(authorization: nil, cookie: cookie, from: "10.0.0.2", now: 2) == .refused)
        guard case .accepted(let other) = auth.login(token: "0123456789abcdef0123", from: "10.0.0.2", now: 3) else {
            Issue.record("the right token was refused")
            return
        }
        #expect(other != session)
    }

    @Test("past the session limit the least recently used session is forgotten")
    func sessionLimit() {
        let auth = WebAuth(token: Self.token)
        var sessions: [String] = []
        for i in 0..<WebAuth.maxSessions {
            if case .accepted(let s) = auth.login(token: "0123456789abcdef0123", from: "a", now: Double(i)) {
                sessions.append(s)
            }
        }
        // The first is used again, so the second is now the least recently used.
        func access(_ session: String, _ now: Double) -> WebAuth.Access {
            auth.access(authorization: nil, cookie: "\(WebAuth.cookieName)=\(session)", from: "a", now: now)
        }
        #expect(access(sessions[0], 100) == .allowed)
        _ = auth.login(token: "0123456789abcdef0123", from: "a", now: 101)
        #expect(access(sessions[0], 102) == .allowed)
        #expect(access(sessions[1], 102) == .refused)
    }

    @Test(
        "five wrong tokens from one address within a minute, then its tokens are checked once per 12 s (429 unchecked between); other addresses never wait"
    )
    func perAddressPace() {
        let auth = WebAuth(token: Self.token)
        for i in 0..<WebAuth.failuresPerAddress {
            #expect(auth.login(token: "wrong", from: "10.0.0.9", now: Double(i)) == .refused)
        }
        // Checked last at 4 s: not again before 16 s, right token or wrong.
        #expect(auth.login(token: "0123456789abcdef0123", from: "10.0.0.9", now: 10) == .tooMany(retryAfter: 6))
        #expect(auth.login(token: "wrong", from: "10.0.0.9", now: 15.5) == .tooMany(retryAfter: 1))
        if case .accepted = auth.login(token: "0123456789abcdef0123", from: "10.0.0.8", now: 10) {
        } else {
            Issue.record("another address was held back")
        }
        // A wrong one at its turn is checked and counted: the next turn is 12 s later again.
        #expect(auth.login(token: "wrong", from: "10.0.0.9", now: 16) == .refused)
        #expect(auth.login(token: "0123456789abcdef0123", from: "10.0.0.9", now: 27) == .tooMany(retryAfter: 1))
        guard case .accepted = auth.login(token: "0123456789abcdef0123", from: "10.0.0.9", now: 28) else {
            Issue.record("the right token was refused at its address's turn")
            return
        }
        // The right token forgets the address's wrong ones.
        #expect(auth.login(token: "wrong", from: "10.0.0.9", now: 28.5) == .refused)
        #expect(auth.login(token: "wrong", from: "10.0.0.9", now: 29) == .refused)
    }

    @Test("wrong bearer tokens count as wrong logins; a session cookie from the same address is never held back")
    func bearerGuessesPaced() {
        let auth = WebAuth(token: Self.token)
        guard case .accepted(let session) = auth.login(token: "0123456789abcdef0123", from: "10.0.0.9", now: 0) else {
            Issue.record("the right token was refused")
            return
        }
        for i in 0..<WebAuth.failuresPerAddress {
            #expect(auth.access(authorization: "Bearer guess\(i)", cookie: nil, from: "10.0.0.9", now: 1) == .refused)
        }
        #expect(
            auth.access(authorization: "Bearer 0123456789abcdef0123", cookie: nil, from: "10.0.0.9", now: 2)
                == .tooMany(retryAfter: 11))
        #expect(auth.login(token: "wrong", from: "10.0.0.9", now: 2) == .tooMany(retryAfter: 11))
        #expect(
            auth.access(
                authorization: "Bearer guess", cookie: "\(WebAuth.cookieName)=\(session)", from: "10.0.0.9", now: 2)
                == .allowed)
        #expect(
            auth.access(authorization: "Bearer 0123456789abcdef0123", cookie: nil, from: "10.0.0.8", now: 2) == .allowed
        )
    }

    @Test("addresses are counted as they are (IPv4, also mapped into IPv6) or by their IPv6 /64")
    func addressKeys() {
        #expect(WebAuth.addressKey("192.168.1.5") == "192.168.1.5")
        #expect(WebAuth.addressKey("::ffff:10.0.0.1") == "10.0.0.1")
        #expect(WebAuth.addressKey("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(WebAuth.addressKey("2001:db8:1:2:ffff::1") == WebAuth.addressKey("2001:db8:1:2::9"))
        #expect(WebAuth.addressKey("2001:db8:1:3::1") != WebAuth.addressKey("2001:db8:1:2::1"))
        #expect(WebAuth.addressKey("::1") == "0:0:0:0::/64")
    }

    @Test("wrong logins from other addresses, however many, never hold back the right token")
    func othersNeverLockOut() {
        let auth = WebAuth(token: Self.token)
        for i in 0..<50 {
            _ = auth.login(token: "wrong", from: "10.0.1.\(i)", now: Double(i) / 10)
        }
        guard case .accepted = auth.login(token: "0123456789abcdef0123", from: "10.0.2.1", now: 5) else {
            Issue.record("another address's guesses held back the right token")
            return
        }
    }

    @Test("the address that guessed wrong five times gets the right token checked again within 12 s, not a minute")
    func guesserWaitsSeconds() {
        let auth = WebAuth(token: Self.token)
        for i in 0..<5 { _ = auth.login(token: "wrong", from: "10.0.0.9", now: Double(i)) }
        guard case .accepted = auth.login(token: "0123456789abcdef0123", from: "10.0.0.9", now: 16.5) else {
            Issue.record("the right token was still held back 12 s after the last wrong one")
            return
        }
    }

    @Test("the scheme Bearer is case-insensitive, and more than one space may follow it (RFC 7235)")
    func bearerScheme() {
        let auth = WebAuth(token: Self.token)
        for header in [
            "bearer 0123456789abcdef0123", "BEARER 0123456789abcdef0123", "Bearer   0123456789abcdef0123",
            "beaRer\t0123456789abcdef0123 ",
        ] {
            #expect(auth.access(authorization: header, cookie: nil, from: "a", now: 0) == .allowed, "\(header)")
        }
    }

    @Test("Host names this machine only as localhost, 127.x.y.z or [::1], with or without a port")
    func loopbackHosts() {
        for host in [
            "localhost", "localhost:8080", "127.0.0.1", "127.0.0.1:8080", "127.1.2.3:80", "[::1]", "[::1]:8080",
            "LOCALHOST:1",
        ] {
            #expect(WebAuth.hostIsLoopback(host), "\(host)")
        }
        for host in [
            "", "evil.example", "evil.example:8080", "localhost.evil.example", "192.168.1.5:8080", "[::2]:80",
            "128.0.0.1", "[::1",
        ] {
            #expect(!WebAuth.hostIsLoopback(host), "\(host)")
        }
    }

    @Test(
        "Origin is the page's own only for the same host; a request without one is not a browser's on another site's behalf"
    )
    func origins() {
        #expect(WebAuth.originIsOwn(nil, host: "sign.local:8080"))
        #expect(WebAuth.originIsOwn("http://sign.local:8080", host: "sign.local:8080"))
        #expect(!WebAuth.originIsOwn("http://evil.example", host: "sign.local:8080"))
        #expect(!WebAuth.originIsOwn("http://sign.local:8081", host: "sign.local:8080"))
        #expect(!WebAuth.originIsOwn("null", host: "sign.local:8080"))
        #expect(!WebAuth.originIsOwn("http://sign.local:8080", host: nil))
    }

    @Test("the token file: white space around it dropped; too short, spaced, missing or a FIFO refused with its path")
    func tokenFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("signd-token-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good").path
        try "  0123456789abcdef0123\n".write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try WebAuth.readToken(path: good) == Self.token)
        for (name, content) in [("short", "abc\n"), ("spaced", "0123456789 abcdef0123\n"), ("empty", "")] {
            let path = dir.appendingPathComponent(name).path
            try content.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: DaemonError.self) { try WebAuth.readToken(path: path) }
        }
        let fifo = dir.appendingPathComponent("fifo").path
        mkfifo(fifo, 0o600)
        for path in [fifo, dir.appendingPathComponent("missing").path] {
            #expect {
                try WebAuth.readToken(path: path)
            } throws: { error in
                "\(error)".contains(path)
            }
        }
    }
}
