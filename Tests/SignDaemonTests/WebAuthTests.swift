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
        #expect(auth.authorizes(authorization: nil, cookie: nil, now: 0))
    }

    @Test("a bearer token is accepted only when it is the token, byte for byte")
    func bearer() {
        let auth = WebAuth(token: Self.token)
        #expect(auth.authorizes(authorization: "Bearer 0123456789abcdef0123", cookie: nil, now: 0))
        for wrong in [
            "Bearer 0123456789abcdef012", "Bearer 0123456789abcdef01234", "Bearer x", "0123456789abcdef0123",
            "Basic 0123456789abcdef0123", "",
        ] {
            #expect(!auth.authorizes(authorization: wrong, cookie: nil, now: 0), "\(wrong)")
        }
        #expect(!auth.authorizes(authorization: nil, cookie: nil, now: 0))
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
        #expect(auth.authorizes(authorization: nil, cookie: cookie, now: 1))
        // The session with its last digit changed (to one it is not).
        let forged = "\(session.dropLast())\(session.last == "0" ? "1" : "0")"
        #expect(!auth.authorizes(authorization: nil, cookie: "\(WebAuth.cookieName)=\(forged)", now: 1))
        auth.logout(cookie: cookie)
        #expect(!auth.authorizes(authorization: nil, cookie: cookie, now: 2))
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
        #expect(auth.authorizes(authorization: nil, cookie: "\(WebAuth.cookieName)=\(sessions[0])", now: 100))
        _ = auth.login(token: "0123456789abcdef0123", from: "a", now: 101)
        #expect(auth.authorizes(authorization: nil, cookie: "\(WebAuth.cookieName)=\(sessions[0])", now: 102))
        #expect(!auth.authorizes(authorization: nil, cookie: "\(WebAuth.cookieName)=\(sessions[1])", now: 102))
    }

    @Test("five wrong tokens from one address within a minute, then even the right one waits; other addresses do not")
    func perAddressLimit() {
        let auth = WebAuth(token: Self.token)
        for i in 0..<WebAuth.failuresPerAddress {
            #expect(auth.login(token: "wrong", from: "10.0.0.9", now: Double(i)) == .refused)
        }
        #expect(auth.login(token: "0123456789abcdef0123", from: "10.0.0.9", now: 10) == .tooMany(retryAfter: 50))
        if case .accepted = auth.login(token: "0123456789abcdef0123", from: "10.0.0.8", now: 10) {
        } else {
            Issue.record("another address was held back")
        }
        // A minute after the first failure, one attempt is free again.
        if case .accepted = auth.login(token: "0123456789abcdef0123", from: "10.0.0.9", now: 60.5) {
        } else {
            Issue.record("the address was still held back after its window")
        }
    }

    @Test("twenty wrong tokens from many addresses within a minute hold back every address")
    func overallLimit() {
        let auth = WebAuth(token: Self.token)
        for i in 0..<WebAuth.failuresInAll {
            #expect(auth.login(token: "wrong", from: "10.0.1.\(i)", now: Double(i) / 10) == .refused)
        }
        guard case .tooMany = auth.login(token: "0123456789abcdef0123", from: "10.0.2.1", now: 5) else {
            Issue.record("a new address was let through during a spread guessing run")
            return
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
