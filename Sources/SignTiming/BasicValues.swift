/// `fromValue`, `toValue` and `byValue` of a basic (or spring) animation, resolved into the
/// two ends of the motion with Core Animation's rules for every combination.
public struct BasicValues<Value: Interpolatable>: Sendable, Equatable {
    public var from: Value?
    public var to: Value?
    public var by: Value?

    public init(from: Value? = nil, to: Value? = nil, by: Value? = nil) {
        self.from = from
        self.to = to
        self.by = by
    }

    /// The start and end for a property whose own (model) value is `model`:
    /// from+to: from to to; from+by: from to from + by; by+to: to - by to to;
    /// from: from to model; to: model to to; by: model to model + by; none: model to model.
    @inlinable public func ends(model: Value) -> (start: Value, end: Value) {
        switch (from, to, by) {
        case let (from?, to?, _): return (from, to)
        case let (from?, nil, by?): return (from, from.adding(by))
        case let (nil, to?, by?): return (to.subtracting(by), to)
        case let (from?, nil, nil): return (from, model)
        case let (nil, to?, nil): return (model, to)
        case let (nil, nil, by?): return (model, model.adding(by))
        case (nil, nil, nil): return (model, model)
        }
    }

    /// The same values converted to another type; `nil` when one that is set does not convert.
    @inlinable public func mapValues<T>(_ convert: (Value) -> T?) -> BasicValues<T>? {
        func map(_ v: Value?) -> T?? {
            guard let v else { return .some(nil) }
            return convert(v).map { .some($0) }
        }
        guard let from = map(from), let to = map(to), let by = map(by) else { return nil }
        return BasicValues<T>(from: from, to: to, by: by)
    }
}
