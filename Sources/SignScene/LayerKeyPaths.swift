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
    case scale = "transform.scale", scaleX = "transform.scale.x", scaleY = "transform.scale.y"
    case scaleZ = "transform.scale.z", rotation = "transform.rotation", rotationX = "transform.rotation.x"
    case rotationY = "transform.rotation.y", rotationZ = "transform.rotation.z"
    case locations, colors, startPoint, endPoint, path, lineWidth, fillColor, strokeColor, foregroundColor
    case strokeStart, strokeEnd, lineDashPhase, miterLimit
    case shadowColor, shadowOpacity, shadowRadius, shadowOffset
    case shadowOffsetWidth = "shadowOffset.width", shadowOffsetHeight = "shadowOffset.height"

    public static let byKeyPath = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The kind of value the property takes.
    public var kind: AnimatableValue.Kind {
        switch self {
        case .opacity, .positionX, .positionY, .translationX, .translationY, .borderWidth, .cornerRadius,
            .lineWidth, .strokeStart, .strokeEnd, .lineDashPhase, .miterLimit,
            .scale, .scaleX, .scaleY, .scaleZ, .rotation, .rotationX, .rotationY, .rotationZ,
            .shadowOpacity, .shadowRadius, .shadowOffsetWidth, .shadowOffsetHeight:
            return .number
        case .position, .anchorPoint, .translation, .startPoint, .endPoint: return .point
        case .bounds: return .rect
        case .boundsSize, .shadowOffset: return .size
        case .backgroundColor, .borderColor, .fillColor, .strokeColor, .foregroundColor, .shadowColor: return .color
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
            switch property.kind {
            case .number: return self[number: property].map(AnimatableValue.number)
            case .point: return self[point: property].map(AnimatableValue.point)
            case .color: return self[color: property].map { c -> AnimatableValue in .color(c) }
            case .numbers: return self[numbers: property].map(AnimatableValue.numbers)
            case .rect: return .rect(Rect(origin: .zero, size: size))
            case .size: return .size(property == .shadowOffset ? shadowOffset : size)
            case .colors: return gradient.map { .colors(AnimatableColors($0.ramp.colors)) }
            case .path: return shape.map { s in s.pathData.map { .pathData($0) } ?? .path(s.path) }
            }
        }
        set {
            switch newValue {
            case nil: return
            case .number(let v)?: self[number: property] = v
            case .point(let p)?: self[point: property] = p
            case .color(let c)?: self[color: property] = c
            case .numbers(let v)?: self[numbers: property] = v
            case .rect(let r)?: if property == .bounds { size = r.size }
            case .size(let v)?:
                if property == .boundsSize { size = v }
                if property == .shadowOffset { shadowOffset = v }
            case .colors(let v)?: if property == .colors { updateGradient { $0.ramp.colors = v.list } }
            case .path(let p)?: if property == .path { updateShape { $0.path = p } }
            case .pathData(let p)?: if property == .path { updateShape { $0.pathData = p } }
            }
        }
    }

    /// A number property's model value (`opacity`, `position.x`, `lineWidth`, ...); `nil`
    /// for a property of another kind or one this layer's content does not have. Setting
    /// `nil` changes nothing.
    public subscript(number property: LayerProperty) -> Double? {
        get {
            switch property {
            case .opacity: return opacity
            case .positionX: return position.x
            case .positionY: return position.y
            case .translationX: return translation.x
            case .translationY: return translation.y
            case .borderWidth: return borderWidth
            case .cornerRadius: return cornerRadius
            case .lineWidth: return shape?.lineWidth
            case .strokeStart: return shape?.strokeStyle.strokeStart
            case .strokeEnd: return shape?.strokeStyle.strokeEnd
            case .lineDashPhase: return shape?.strokeStyle.lineDashPhase
            case .miterLimit: return shape?.strokeStyle.miterLimit
            case .scale: return transform.scale
            case .scaleX: return transform.scaleX
            case .scaleY: return transform.scaleY
            case .scaleZ: return transform.scaleZ
            case .rotation, .rotationZ: return transform.rotationZ
            case .rotationX: return transform.rotationX
            case .rotationY: return transform.rotationY
            case .shadowOpacity: return shadowOpacity
            case .shadowRadius: return shadowRadius
            case .shadowOffsetWidth: return shadowOffset.width
            case .shadowOffsetHeight: return shadowOffset.height
            default: return nil
            }
        }
        set {
            guard let v = newValue else { return }
            switch property {
            case .opacity: opacity = v
            case .positionX: position.x = v
            case .positionY: position.y = v
            case .translationX: translation.x = v
            case .translationY: translation.y = v
            case .borderWidth: borderWidth = v
            case .cornerRadius: cornerRadius = v
            case .lineWidth: updateShape { $0.lineWidth = v }
            case .strokeStart: updateShape { $0.strokeStyle.strokeStart = v }
            case .strokeEnd: updateShape { $0.strokeStyle.strokeEnd = v }
            case .lineDashPhase: updateShape { $0.strokeStyle.lineDashPhase = v }
            case .miterLimit: updateShape { $0.strokeStyle.miterLimit = v }
            case .scale: transform.scale = v
            case .scaleX: transform.scaleX = v
            case .scaleY: transform.scaleY = v
            case .scaleZ: transform.scaleZ = v
            case .rotation, .rotationZ: transform.rotationZ = v
            case .rotationX: transform.rotationX = v
            case .rotationY: transform.rotationY = v
            case .shadowOpacity: shadowOpacity = v
            case .shadowRadius: shadowRadius = v
            case .shadowOffsetWidth: shadowOffset.width = v
            case .shadowOffsetHeight: shadowOffset.height = v
            default: break
            }
        }
    }

    /// A point property's model value (`position`, `anchorPoint`, `transform.translation`,
    /// a gradient's `startPoint` and `endPoint`), as `subscript(number:)` has numbers.
    public subscript(point property: LayerProperty) -> Point? {
        get {
            switch property {
            case .position: return position
            case .anchorPoint: return anchorPoint
            case .translation: return translation
            case .startPoint: return gradient?.startPoint
            case .endPoint: return gradient?.endPoint
            default: return nil
            }
        }
        set {
            guard let p = newValue else { return }
            switch property {
            case .position: position = p
            case .anchorPoint: anchorPoint = p
            case .translation: translation = p
            case .startPoint: updateGradient { $0.startPoint = p }
            case .endPoint: updateGradient { $0.endPoint = p }
            default: break
            }
        }
    }

    /// A colour property's model value as straight RGBA in 0...1 (how colours animate):
    /// `backgroundColor` and `borderColor` (clear when unset), a shape's `fillColor` and
    /// `strokeColor` (when they are colours), a text's `foregroundColor`. Set, it is clamped
    /// and rounded to 8 bits.
    public subscript(color property: LayerProperty) -> SIMD4<Double>? {
        get {
            switch property {
            case .backgroundColor: return AnimatableValue.rgba(backgroundColor ?? .clear)
            case .borderColor: return AnimatableValue.rgba(borderColor ?? .clear)
            case .fillColor:
                guard case .color(let c)? = shape?.fill else { return nil }
                return AnimatableValue.rgba(c)
            case .strokeColor:
                guard case .color(let c)? = shape?.stroke else { return nil }
                return AnimatableValue.rgba(c)
            case .foregroundColor: return text.map { AnimatableValue.rgba($0.color) }
            case .shadowColor: return AnimatableValue.rgba(shadowColor)
            default: return nil
            }
        }
        set {
            guard let v = newValue else { return }
            let c: Color = AnimatableValue.color(v)
            switch property {
            case .backgroundColor: backgroundColor = c
            case .borderColor: borderColor = c
            case .fillColor: updateShape { $0.fill = .color(c) }
            case .strokeColor: updateShape { $0.stroke = .color(c) }
            case .foregroundColor: updateText { $0.color = c }
            case .shadowColor: shadowColor = c
            default: break
            }
        }
    }

    /// A gradient's `locations`: the stored list, not a resolved copy (the running-maximum
    /// rule applies when colours are evaluated); the ramp's even spread when none are set.
    public subscript(numbers property: LayerProperty) -> NumberList? {
        get {
            guard property == .locations, let ramp = gradient?.ramp else { return nil }
            return ramp.locations ?? ramp.resolvedLocations
        }
        set {
            guard let v = newValue, property == .locations else { return }
            updateGradient { $0.ramp.locations = v }
        }
    }

    // The content's parts the key paths reach, read and changed in one place each.

    private var gradient: Gradient? { if case .gradient(let g) = content { g } else { nil } }
    private var shape: ShapeContent? { if case .shape(let s) = content { s } else { nil } }
    private var text: TextContent? { if case .text(let t) = content { t } else { nil } }

    /// Changes the gradient this layer draws; nothing for other content.
    private mutating func updateGradient(_ change: (inout Gradient) -> Void) {
        guard case .gradient(var g) = content else { return }
        change(&g)
        content = .gradient(g)
    }

    /// Changes the shape this layer draws; nothing for other content.
    private mutating func updateShape(_ change: (inout ShapeContent) -> Void) {
        guard case .shape(var s) = content else { return }
        change(&s)
        content = .shape(s)
    }

    /// Changes the shape's path data where it is held (made empty first when the shape has
    /// none); nothing for other content. The layer lets go of its copy of the shape while
    /// `change` runs, so a path whose storage only this layer held changes in place.
    mutating func updatePathData(_ change: (inout Path) -> Void) {
        guard case .shape(var s) = content else { return }
        content = .none
        if s.pathData == nil { s.pathData = Path() }
        change(&s.pathData!)
        content = .shape(s)
    }

    /// Changes the text this layer draws; nothing for other content.
    private mutating func updateText(_ change: (inout TextContent) -> Void) {
        guard case .text(var t) = content else { return }
        change(&t)
        content = .text(t)
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
