import CFreeType

/// A FreeType call that failed, naming the call, the file and FreeType's error.
public struct FreeTypeError: Error, CustomStringConvertible, Sendable {
    /// FreeType's numeric error code (`FT_Err_*`).
    public let code: Int32
    /// What signd was doing, e.g. "FT_New_Face".
    public let operation: String
    /// The font file concerned, when there is one.
    public let path: String?
    /// Why, when signd knows better than the code (the file is a FIFO, say).
    public let reason: String?

    public init(code: Int32, operation: String, path: String?, reason: String? = nil) {
        self.code = code
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let name = reason ?? FreeTypeError.names[code] ?? "error 0x" + String(code, radix: 16)
        return "\(operation) failed\(path.map { " for \($0)" } ?? ""): \(name)"
    }

    // Debian's FreeType returns NULL from FT_Error_String, so the codes met are named here.
    static let names: [Int32: String] = [
        0x01: "cannot open resource", 0x02: "unknown file format", 0x03: "broken file",
        0x06: "invalid argument", 0x10: "invalid glyph index", 0x17: "invalid pixel size",
        0x24: "invalid size handle", 0x40: "out of memory", 0x51: "cannot open stream",
        0x55: "invalid stream operation",
    ]
}

@inline(__always)
func check(_ error: FT_Error, _ operation: String, path: String? = nil) throws(FreeTypeError) {
    if error != 0 { throw FreeTypeError(code: error, operation: operation, path: path) }
}
