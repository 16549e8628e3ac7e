import CMosquitto
import Foundation
import Synchronization

/// A connection to an MQTT broker through libmosquitto, the reference client: MQTT 3.1.1,
/// TLS, a last will, and a network thread of its own that reconnects with back-off (1 s
/// doubling to 30 s) whenever the broker is down or drops the connection. A thin wrapper:
/// what it says and hears is the caller's business.
final class MosquittoClient: Sendable {
    /// Where and how to connect.
    struct Options: Sendable {
        var host: String
        var port: Int32
        var clientID: String
        var username: String?
        var password: String?
        /// TLS: the CA file (nil: the system's CAs), and a client certificate and key.
        var tls: (ca: String?, cert: String?, key: String?)?
        /// Published by the broker if signd goes away without saying so.
        var will: (topic: String, payload: String)
        var keepAliveSeconds: Int32 = 30
    }

    /// What the connection tells its owner, on libmosquitto's thread.
    enum Event: Sendable {
        case connected
        /// Lost or refused; libmosquitto tries again by itself.
        case disconnected(reason: String)
        case message(topic: String, payload: [UInt8])
    }

    /// A call libmosquitto refused.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let handle: Handle
    private let callbacks: Unmanaged<Callbacks>
    private let started = Atomic<Bool>(false)

    /// The mosquitto handle; libmosquitto's calls on it are safe from any thread once its
    /// network thread runs.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private final class Callbacks: Sendable {
        let onEvent: @Sendable (Event) -> Void
        init(_ onEvent: @escaping @Sendable (Event) -> Void) { self.onEvent = onEvent }
    }

    private let library: MosquittoLibrary

    /// Throws when libmosquitto is not installed (loaded now, on the first client), or
    /// refuses the options.
    init(_ options: Options, onEvent: @escaping @Sendable (Event) -> Void) throws(Failure) {
        let library = try MosquittoLibrary.shared.get()
        self.library = library
        let callbacks = Unmanaged.passRetained(Callbacks(onEvent))
        // A persistent session (clean_session false): what comes for signd at QoS 1 while it is
        // away waits at the broker for it.
        guard let pointer = library.new(options.clientID, false, callbacks.toOpaque()) else {
            callbacks.release()
            throw Failure(description: "cannot create an MQTT client (\(String(cString: strerror(errno))))")
        }
        self.handle = Handle(pointer: pointer)
        self.callbacks = callbacks
        do throws(Failure) {
            try Self.check(library.reconnectDelaySet(pointer, 1, 30, true), "set the reconnect delay", library)
            // Small messages go out at once rather than wait for the last one's ACK (Nagle).
            try Self.check(library.intOption(pointer, MOSQ_OPT_TCP_NODELAY, 1), "set TCP_NODELAY", library)
            try Self.check(
                library.willSet(
                    pointer, options.will.topic, Int32(options.will.payload.utf8.count), options.will.payload, 1, true),
                "set the last will", library)
            if let username = options.username {
                try Self.check(library.usernamePwSet(pointer, username, options.password), "set the user name", library)
            }
            if let tls = options.tls {
                let capath: String? = tls.ca == nil ? "/etc/ssl/certs" : nil
                try Self.check(library.tlsSet(pointer, tls.ca, capath, tls.cert, tls.key, nil), "set up TLS", library)
            }
        } catch {
            library.destroy(pointer)
            callbacks.release()
            throw error
        }
        library.connectCallbackSet(pointer) { _, context, code in
            let callbacks = Unmanaged<Callbacks>.fromOpaque(context!).takeUnretainedValue()
            if code == 0 {
                callbacks.onEvent(.connected)
            } else {
                // A C callback captures nothing: the library is the process's one.
                let reason = (try? MosquittoLibrary.shared.get())?.connackString(code).map { String(cString: $0) }
                callbacks.onEvent(.disconnected(reason: "refused: \(reason ?? "code \(code)")"))
            }
        }
        library.disconnectCallbackSet(pointer) { _, context, code in
            let callbacks = Unmanaged<Callbacks>.fromOpaque(context!).takeUnretainedValue()
            callbacks.onEvent(.disconnected(reason: code == 0 ? "disconnected" : "connection lost"))
        }
        library.messageCallbackSet(pointer) { _, context, message in
            guard let message, let topic = message.pointee.topic else { return }
            let callbacks = Unmanaged<Callbacks>.fromOpaque(context!).takeUnretainedValue()
            let count = Int(message.pointee.payloadlen)
            let payload =
                count > 0 && message.pointee.payload != nil
                ? Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: count)) : []
            callbacks.onEvent(.message(topic: String(cString: topic), payload: payload))
        }
        self.host = options.host
        self.port = options.port
        self.keepAlive = options.keepAliveSeconds
    }

    private let host: String
    private let port: Int32
    private let keepAlive: Int32

    deinit {
        library.destroy(handle.pointer)
        callbacks.release()
    }

    /// Starts the network thread and connects; a broker that cannot be reached now is tried
    /// again with back-off, never fatal.
    func start() throws(Failure) {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let code = library.connectAsync(handle.pointer, host, port, keepAlive)
        if code != MOSQ_ERR_SUCCESS.rawValue {
            // The network thread tries again; say why the first attempt failed.
            callbacks.takeUnretainedValue().onEvent(.disconnected(reason: Self.message(code, library)))
        }
        try check(library.loopStart(handle.pointer), "start the network thread")
    }

    /// Publishes `payload` to `topic`; false (and nothing sent) while disconnected for QoS 0.
    @discardableResult
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32 = 1, retain: Bool = false) -> Bool {
        payload.withUnsafeBytes { bytes in
            library.publish(handle.pointer, nil, topic, Int32(bytes.count), bytes.baseAddress, qos, retain)
                == MOSQ_ERR_SUCCESS.rawValue
        }
    }

    func publish(_ topic: String, _ text: String, qos: Int32 = 1, retain: Bool = false) {
        publish(topic, Array(text.utf8), qos: qos, retain: retain)
    }

    func subscribe(_ pattern: String, qos: Int32 = 1) {
        library.subscribe(handle.pointer, nil, pattern, qos)
    }

    /// Says goodbye to the broker (after what was published before) and stops the thread.
    func stop() {
        guard started.exchange(false, ordering: .relaxed) else { return }
        library.disconnect(handle.pointer)
        library.loopStop(handle.pointer, false)
    }

    private func check(_ code: Int32, _ doing: String) throws(Failure) {
        try Self.check(code, doing, library)
    }

    private static func check(_ code: Int32, _ doing: String, _ library: MosquittoLibrary) throws(Failure) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw Failure(description: "\(doing): \(message(code, library))")
        }
    }

    private static func message(_ code: Int32, _ library: MosquittoLibrary) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return library.strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
