/// What an output (USB, network or shm) has done since signd started, for `status` and
/// the metrics.
public struct OutputCounters: Sendable, Equatable {
    /// Frames the device or receiver accepted.
    public var framesSent: UInt64 = 0
    /// Frames replaced by a newer one before the device could take them.
    public var dropped: UInt64 = 0
    /// Failed transfers, sends, opens and claims.
    public var errors: UInt64 = 0
    /// Times the device or connection came back after it was lost.
    public var reconnects: UInt64 = 0
    /// The most recent error's message.
    public var lastError: String?
    /// The device or address in use, when connected.
    public var device: String?

    public init() {}
}
