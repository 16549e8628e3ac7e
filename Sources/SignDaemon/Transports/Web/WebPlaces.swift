import NIOCore

/// Who holds the web server's places (its connections), so that clients without a token
/// cannot lock out one with it (docs/contracts.md, "The web API"). Everything here runs on the web
/// server's event loop; times are seconds on any steady clock, passed in.
///
/// - A request's head must arrive within `headTime` of its first byte (of the connection's
///   opening, for the first request), and the whole request within `requestTime`: a client
///   trickling a request is closed after a few seconds.
/// - A connection is *trusted* once a request on it carried a valid token or session (every
///   connection whose request passed the `Host` check, when no token is needed); live viewers
///   are trusted. One address (IPv6: its /64) may hold at most `untrustedPerAddress`
///   connections that are not: past that its idle one goes first, or the new one is answered
///   503.
/// - When all `places` are held, a new connection takes the place of an untrusted one: an idle
///   one first, then one still sending its request, the oldest first. A trusted connection,
///   and one whose request is being answered, is never closed to make room; only when every
///   place is such a connection is the new one answered 503.
///
/// A new connection is untrusted until its head arrives, so the owner's is at risk only if
/// `places` newer connections arrive within the moment its head takes, and at most
/// `untrustedPerAddress` of those may come from one address.
final class WebPlaces {
    /// The limits (defaults: signd's).
    struct Limits: Sendable {
        /// Connections at once, live viewers included.
        var places = 64
        /// Connections one address may hold without a token.
        var untrustedPerAddress = 8
        /// Seconds from a request's first byte to the end of its head.
        var headTime = 5.0
        /// Seconds from a request's first byte to its last.
        var requestTime = 10.0
    }

    /// Where a connection is in its request.
    enum Phase: Equatable {
        /// Opened, or began a request, at `since`; its head has not all arrived.
        case waitingForHead(since: Double)
        /// Its head has arrived; the body of the request begun at `since` has not.
        case readingBody(since: Double)
        /// Its request is being answered.
        case answering
        /// Answered; no byte of another request yet.
        case idle
        /// A live viewer.
        case viewer
    }

    /// One connection.
    final class Place {
        /// The address key (`WebAuth.addressKey`) it came from.
        let address: String
        let openedAt: Double
        /// Its channel, closed when the place is taken from it (nil in tests).
        let channel: Channel?
        fileprivate(set) var phase: Phase
        /// Whether its last request carried a valid token or session.
        fileprivate(set) var trusted = false
        /// The current request's access, decided once (the upgrade and the HTTP handler
        /// both ask) so a wrong token counts once.
        var access: WebAuth.Access?

        init(address: String, openedAt: Double, channel: Channel?) {
            self.address = address
            self.openedAt = openedAt
            self.channel = channel
            self.phase = .waitingForHead(since: openedAt)
        }

        /// A byte arrived: on an idle connection, a new request begins.
        func received(now: Double) {
            if phase == .idle { phase = .waitingForHead(since: now) }
        }

        /// The request's head has arrived; `trusted` says whether it carried a valid token or session.
        func headArrived(trusted: Bool, now: Double) {
            switch phase {
            case .waitingForHead(let since): phase = .readingBody(since: since)
            case .viewer: return
            default: phase = .readingBody(since: now)  // a pipelined request, read while the last was answered
            }
            self.trusted = trusted
        }

        /// The whole request has arrived.
        func requestEnded() {
            if phase != .viewer { phase = .answering }
        }

        /// The request has been answered.
        func answered() {
            access = nil
            if phase != .viewer { phase = .idle }
        }

        /// The connection became a live viewer (which only a request allowed to may).
        func upgraded() {
            phase = .viewer
            trusted = true
            access = nil
        }
    }

    /// What a new connection gets.
    enum Admission {
        /// Its place, and the connections that gave theirs up (to be closed).
        case admitted(Place, closing: [Place])
        /// Turned away, and why.
        case refused(String)
    }

    let limits: Limits
    private var places: [ObjectIdentifier: Place] = [:]

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Connections held now.
    var count: Int { places.count }

    /// A connection from `address` (an address key) opened at `now`.
    func open(address: String, channel: Channel?, now: Double) -> Admission {
        var closing: [Place] = []
        let mine = places.values.filter { $0.address == address && !$0.trusted }
        if mine.count >= limits.untrustedPerAddress {
            guard let idle = Self.toClose(mine, idleOnly: true) else {
                return .refused(
                    "too many connections without a token from one address: at most \(limits.untrustedPerAddress)")
            }
            remove(idle)
            closing.append(idle)
        }
        if places.count >= limits.places {
            guard let place = Self.toClose(places.values, idleOnly: false) else {
                return .refused("too many connections: at most \(limits.places) at once")
            }
            remove(place)
            closing.append(place)
        }
        let place = Place(address: address, openedAt: now, channel: channel)
        places[ObjectIdentifier(place)] = place
        return .admitted(place, closing: closing)
    }

    /// The untrusted connection to close first: an idle one, then (unless `idleOnly`) one
    /// waiting for its head, then one reading its body; the oldest first within each.
    static func toClose(_ candidates: some Sequence<Place>, idleOnly: Bool) -> Place? {
        func rank(_ place: Place) -> Int? {
            guard !place.trusted else { return nil }
            switch place.phase {
            case .idle: return 0
            case .waitingForHead: return idleOnly ? nil : 1
            case .readingBody: return idleOnly ? nil : 2
            case .answering, .viewer: return nil
            }
        }
        var best: (place: Place, rank: Int)?
        for place in candidates {
            guard let r = rank(place) else { continue }
            if let b = best, (b.rank, b.place.openedAt) <= (r, place.openedAt) { continue }
            best = (place, r)
        }
        return best?.place
    }

    /// The connection has closed.
    func closed(_ place: Place) {
        remove(place)
    }

    /// The connections past their head's or request's time at `now`, given up (to be closed).
    func expired(now: Double) -> [Place] {
        let late = places.values.filter { place in
            switch place.phase {
            case .waitingForHead(let since): return now - since > limits.headTime
            case .readingBody(let since): return now - since > limits.requestTime
            case .answering, .idle, .viewer: return false
            }
        }
        late.forEach(remove)
        return late
    }

    private func remove(_ place: Place) {
        places[ObjectIdentifier(place)] = nil
    }

    /// An event loop's time in seconds, the clock the server's places are kept by.
    static func seconds(_ time: NIODeadline) -> Double {
        Double(time.uptimeNanoseconds) / 1e9
    }
}
