/// The results of the commands other than `status` (CONTRACTS.md section 2), as the daemon
/// encodes them and clients decode them.

/// `{}`: the result of a command that only says it was done.
public struct EmptyResult: Codable, Sendable, Equatable {
    public init() {}
}

/// `{"scheduled": true}`: a request with a future `at`, taken.
public struct Scheduled: Codable, Sendable, Equatable {
    public var scheduled = true
    public init() {}
}

/// `subscribe`: the events the connection now receives, sorted.
public struct Subscribed: Codable, Sendable, Equatable {
    public var events: [EventName]

    public init(events: [EventName]) { self.events = events }
}

/// `notify`: the notification's id, for `dismiss`.
public struct Notified: Codable, Sendable, Equatable {
    public var notification: Int

    public init(notification: Int) { self.notification = notification }
}

/// `outputs`: the outputs (as in `status`) and the USB LED controllers on the bus.
public struct OutputsResult: Codable, Sendable, Equatable {
    public var outputs: [OutputStatus]
    public var devices: [USBDevice]

    public init(outputs: [OutputStatus], devices: [USBDevice]) {
        self.outputs = outputs
        self.devices = devices
    }
}

/// A USB LED controller on the bus: its type, VID and PID (4-digit hex), serial, where it
/// sits, and the output using it (`null`: none).
public struct USBDevice: Codable, Sendable, Equatable {
    public var type: String
    public var vid: String
    public var pid: String
    @Nullable public var serial: String?
    public var bus: Int
    public var address: Int
    @Nullable public var output: String?

    public init(type: String, vid: String, pid: String, serial: String?, bus: Int, address: Int, output: String?) {
        self.type = type
        self.vid = vid
        self.pid = pid
        self.serial = serial
        self.bus = bus
        self.address = address
        self.output = output
    }
}
