/// What an animation shows outside its active window, as `CAMediaTimingFillMode`.
public enum FillMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Outside the active window the layer shows its own (model) value.
    case removed
    /// After the active window the last value is held.
    case forwards
    /// Before the active window the first value is held.
    case backwards
    /// Both of the above.
    case both

    @usableFromInline var holdsBefore: Bool { self == .backwards || self == .both }
    @usableFromInline var holdsAfter: Bool { self == .forwards || self == .both }
}
