@testable import SignWire

/// Why `parse` refused `bytes`; `nil` when it accepted them.
func refusal<T>(_ bytes: [UInt8], _ parse: (UnsafeRawBufferPointer) throws(WireError) -> T) -> WireError.Reason? {
    let result = bytes.withUnsafeBytes { raw in Result { () throws(WireError) in try parse(raw) } }
    if case .failure(let error) = result { return error.reason }
    return nil
}
