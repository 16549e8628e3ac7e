import SignGraphics
import SignTiming

/// The animatable properties of a layer, by Core Animation key path: the one table of key
/// paths. A key path is looked up once per read or write (one hash) rather than compared
/// with each name in turn; code that animates a property names it through this type.
public enum LayerProperty: String, Sendable, CaseIterable {
    case opacity, position, anchorPoint, backgroundColor, borderColor, borderWidth, cornerRadius
    case positionX = "position.x", positionY = "position.y", bounds, boundsSize = "bounds.size"
    case translation = "transform.translation", translationX = "transform.translation.x"
    case translationY = "transform.translation.y"
    case locations, colors, startPoint, endPoint, path, lineWidth, fillColor, strokeColor, foregroundColor

    public static let byKeyPath = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The kind of value the property takes.
    public var kind: AnimatableValue.Kind {
        switch self {
        case .opacity, .positionX, .positionY, .translationX, .translationY, .borderWidth, .cornerRadius,
            .lineWidth:
            return .number
        case .position, .anchorPoint, .translation, .startPoint, .endPoint: return .point
        case .bounds: return .rect
        case .boundsSize: return .size
        case .backgroundColor, .borderColor, .fillColor, .strokeColor, .foregroundColor: return .color
        case .locations: return .numbers
        case .colors: return .colors
        case .path: return .path
        }
    }
}

extension LayerProperty {
    /// The property named by a key path; `nil` for a name that is not one.
    public init?(keyPath: String) {
        guard let property = Self.byKeyPath[keyPath] else { return nil }
        self = property
    }

    /// The key path, as Core Animation spells it.
    public var keyPath: String { rawValue }
}

/// Reading and writing a layer's animatable properties by Core Animation key path.
extension Layer: AnimationTarget {
    /// A property by key path; `nil` for a name that is no property, or a property this
    /// layer's content does not have.
    public subscript(keyPath keyPath: String) -> AnimatableValue? {
        get { LayerProperty(keyPath: keyPath).flatMap { self[$0] } }
        set { if let property = LayerProperty(keyPath: keyPath) { self[property] = newValue } }
    }

    /// A property's model value; `nil` when this layer's content does not have it.
    public subscript(property: LayerProperty) -> AnimatableValue? {
        get {
            switch property {
            case .opacity: return .number(opacity)
            case .position: return .point(position)
            case .positionX: return .number(position.x)
            case .positionY: return .number(position.y)
            case .bounds: return .rect(Rect(origin: .zero, size: size))
            case .boundsSize: return .size(size)
            case .anchorPoint: return .point(anchorPoint)
            case .translation: return .point(translation)
            case .translationX: return .number(translation.x)
            case .translationY: return .number(translation.y)
            case .backgroundColor: return AnimatableValue(backgroundColor ?? .clear)
            case .borderColor: return AnimatableValue(borderColor ?? .clear)
            case .borderWidth: return .number(borderWidth)
            case .cornerRadius: return .number(cornerRadius)
            case .locations:
                // The stored list, not a resolved copy: the running-maximum rule applies
                // when colours are evaluated.
                guard case .gradient(let g) = content else { return nil }
                return .numbers(g.ramp.locations ?? g.ramp.resolvedLocations)
            case .colors:
                guard case .gradient(let g) = content else { return nil }
                return .colors(AnimatableColors(g.ramp.colors))
            case .startPoint:
                guard case .gradient(let g) = content else { return nil }
                return .point(g.startPoint)
            case .endPoint:
                guard case .gradient(let g) = content else { return nil }
                return .point(g.endPoint)
            case .path:
                guard case .shape(let s) = content else { return nil }
                return .path(s.path)
            case .lineWidth:
                guard case .shape(let s) = content else { return nil }
                return .number(s.lineWidth)
            case .fillColor:
                guard case .shape(let s) = content, case .color(let c)? = s.fill else { return nil }
                return AnimatableValue(c)
            case .strokeColor:
                guard case .shape(let s) = content, case .color(let c)? = s.stroke else { return nil }
                return AnimatableValue(c)
            case .foregroundColor:
                guard case .text(let t) = content else { return nil }
                return AnimatableValue(t.color)
            }
        }
        set {
            guard let value = newValue else { return }
            switch property {
            case .opacity: if let v = value.number { opacity = v }
            case .position: if let p = value.point { position = p }
            case .positionX: if let v = value.number { position.x = v }
            case .positionY: if let v = value.number { position.y = v }
            case .bounds: if let r = value.rect { size = r.size }
            case .boundsSize: if case .size(let v) = value { size = v }
            case .anchorPoint: if let p = value.point { anchorPoint = p }
            case .translation: if let p = value.point { translation = p }
            case .translationX: if let v = value.number { translation.x = v }
            case .translationY: if let v = value.number { translation.y = v }
            case .backgroundColor: if let c = value.color { backgroundColor = c }
            case .borderColor: if let c = value.color { borderColor = c }
            case .borderWidth: if let v = value.number { borderWidth = v }
            case .cornerRadius: if let v = value.number { cornerRadius = v }
            default: setContent(property, value)
            }
        }
    }

    private mutating func setContent(_ property: LayerProperty, _ value: AnimatableValue) {
        switch property {
        case .locations:
            guard case .gradient(var g) = content, case .numbers(let v) = value else { return }
            g.ramp.locations = v
            content = .gradient(g)
        case .colors:
            guard case .gradient(var g) = content, let colors = value.colors else { return }
            g.ramp.colors = colors
            content = .gradient(g)
        case .startPoint:
            guard case .gradient(var g) = content, let p = value.point else { return }
            g.startPoint = p
            content = .gradient(g)
        case .endPoint:
            guard case .gradient(var g) = content, let p = value.point else { return }
            g.endPoint = p
            content = .gradient(g)
        case .path:
            guard case .shape(var s) = content, let p = value.path else { return }
            s.path = p
            content = .shape(s)
        case .lineWidth:
            guard case .shape(var s) = content, let v = value.number else { return }
            s.lineWidth = v
            content = .shape(s)
        case .fillColor:
            guard case .shape(var s) = content, let c = value.color else { return }
            s.fill = .color(c)
            content = .shape(s)
        case .strokeColor:
            guard case .shape(var s) = content, let c = value.color else { return }
            s.stroke = .color(c)
            content = .shape(s)
        case .foregroundColor:
            guard case .text(var t) = content, let c = value.color else { return }
            t.color = c
            content = .text(t)
        default:
            break
        }
    }

    /// This tree with the model value of `property` of the layer `id` (this one when `nil`)
    /// set to `value`; `nil` when no such layer has that property.
    public func setting(_ property: LayerProperty, to value: AnimatableValue, inLayer id: String?) -> Layer? {
        if id == nil || id == self.id {
            var copy = self
            guard copy[property] != nil else { return nil }
            copy[property] = value
            return copy[property] == self[property] && value != self[property] ? nil : copy
        }
        var copy = self
        if let mask, let changed = mask.setting(property, to: value, inLayer: id) {
            copy.mask = changed
            return copy
        }
        for (i, sublayer) in sublayers.enumerated() {
            if let changed = sublayer.setting(property, to: value, inLayer: id) {
                copy.sublayers[i] = changed
                return copy
            }
        }
        return nil
    }

    /// This layer with its animations applied at parent time `t` (its presentation layer).
    public func presentation(at t: Double) -> Layer {
        guard !animations.isEmpty else { return self }
        var layer = self
        for animation in animations { animation.apply(atParentTime: t, to: &layer) }
        return layer
    }
}

/// An animation of a layer's properties.
public typealias LayerAnimation = Animation<AnimatableValue, LayerProperty>
/// An animation of one layer property.
public typealias LayerPropertyAnimation = PropertyAnimation<AnimatableValue, LayerProperty>
