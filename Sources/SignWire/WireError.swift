/// Why a datagram or message was not accepted: a reason counted per kind (a stream layer's
/// status shows the counts) and a message for a person.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in a word that can key a counter.
    public enum Reason: String, Sendable, CaseIterable {
        /// Fewer bytes than the header, or than the header says follow.
        case short
        /// More bytes than the protocol allows.
        case oversized
        /// Not this protocol: a wrong identifier, vector or opcode.
        case wrongVector = "wrong-vector"
        /// The protocol, but a version or field value it does not allow.
        case invalid
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason.rawValue): \(message)" }
}

/// Reading big-endian fields out of a datagram, bounds checked by the callers' length checks.
extension UnsafeRawBufferPointer {
    @inline(__always) func u16(_ offset: Int) -> UInt16 { UInt16(self[offset]) << 8 | UInt16(self[offset + 1]) }
    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8
            | UInt32(self[offset + 3])
    }
}

/// Writing big-endian fields into a packet being built.
extension UnsafeMutableRawBufferPointer {
    @inline(__always) func put(_ value: UInt16, at offset: Int) {
        self[offset] = UInt8(value >> 8)
        self[offset + 1] = UInt8(value & 0xff)
    }
    @inline(__always) func put(_ value: UInt32, at offset: Int) {
        self[offset] = UInt8(value >> 24)
        self[offset + 1] = UInt8(value >> 16 & 0xff)
        self[offset + 2] = UInt8(value >> 8 & 0xff)
        self[offset + 3] = UInt8(value & 0xff)
    }
}
