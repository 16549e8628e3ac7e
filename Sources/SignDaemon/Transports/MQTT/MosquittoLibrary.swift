import CMosquitto
import Glibc

/// libmosquitto's functions that signd calls, found at run time with `dlopen` rather than
/// linked: a config without `[mqtt]` never maps libmosquitto, nor the libssl and libcrypto
/// it brings (about 4 MB of RSS at start; docs/design-notes.md). CMosquitto still gives the
/// types and constants; these are the functions, one pointer each, typed as the header
/// declares them.
struct MosquittoLibrary: @unchecked Sendable {
    typealias Mosq = OpaquePointer
    typealias ConnectCallback = @convention(c) (Mosq?, UnsafeMutableRawPointer?, Int32) -> Void
    typealias MessageCallback =
        @convention(c) (Mosq?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?) -> Void

    let libInit: @convention(c) () -> Int32
    let new: @convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Mosq?
    let destroy: @convention(c) (Mosq?) -> Void
    let reconnectDelaySet: @convention(c) (Mosq?, UInt32, UInt32, Bool) -> Int32
    let intOption: @convention(c) (Mosq?, mosq_opt_t, Int32) -> Int32
    let willSet: @convention(c) (Mosq?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    let usernamePwSet: @convention(c) (Mosq?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let tlsSet:
        @convention(c) (
            Mosq?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafeRawPointer?
        ) -> Int32
    let connectCallbackSet: @convention(c) (Mosq?, ConnectCallback?) -> Void
    let disconnectCallbackSet: @convention(c) (Mosq?, ConnectCallback?) -> Void
    let messageCallbackSet: @convention(c) (Mosq?, MessageCallback?) -> Void
    let connectAsync: @convention(c) (Mosq?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    let loopStart: @convention(c) (Mosq?) -> Int32
    let loopStop: @convention(c) (Mosq?, Bool) -> Int32
    let publish:
        @convention(c) (Mosq?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool)
            -> Int32
    let subscribe: @convention(c) (Mosq?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32) -> Int32
    let disconnect: @convention(c) (Mosq?) -> Int32
    let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let connackString: @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// The file `dlopen` looks for (libmosquitto's soname).
    static let soname = "libmosquitto.so.1"

    /// Loaded (and `mosquitto_lib_init` called) on first use, once per process.
    static let shared: Result<MosquittoLibrary, MosquittoClient.Failure> = {
        Result { () throws(MosquittoClient.Failure) in
            let library = try MosquittoLibrary(soname)
            _ = library.libInit()
            return library
        }
    }()

    /// Opens `file` (`soname`, or another for a test) and finds every function.
    init(_ file: String) throws(MosquittoClient.Failure) {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "not found"
            throw MosquittoClient.Failure(
                description:
                    "libmosquitto is not installed (\(why)); install the Debian package libmosquitto1")
        }
        func symbol<T>(_ name: String) throws(MosquittoClient.Failure) -> T {
            guard let pointer = dlsym(handle, name) else {
                throw MosquittoClient.Failure(description: "\(file) has no \(name): libmosquitto1 2.0 or later is needed")
            }
            return unsafeBitCast(pointer, to: T.self)
        }
        libInit = try symbol("mosquitto_lib_init")
        new = try symbol("mosquitto_new")
        destroy = try symbol("mosquitto_destroy")
        reconnectDelaySet = try symbol("mosquitto_reconnect_delay_set")
        intOption = try symbol("mosquitto_int_option")
        willSet = try symbol("mosquitto_will_set")
        usernamePwSet = try symbol("mosquitto_username_pw_set")
        tlsSet = try symbol("mosquitto_tls_set")
        connectCallbackSet = try symbol("mosquitto_connect_callback_set")
        disconnectCallbackSet = try symbol("mosquitto_disconnect_callback_set")
        messageCallbackSet = try symbol("mosquitto_message_callback_set")
        connectAsync = try symbol("mosquitto_connect_async")
        loopStart = try symbol("mosquitto_loop_start")
        loopStop = try symbol("mosquitto_loop_stop")
        publish = try symbol("mosquitto_publish")
        subscribe = try symbol("mosquitto_subscribe")
        disconnect = try symbol("mosquitto_disconnect")
        strerror = try symbol("mosquitto_strerror")
        connackString = try symbol("mosquitto_connack_string")
    }
}
