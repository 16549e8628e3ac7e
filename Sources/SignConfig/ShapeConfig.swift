import SignGraphics
import SignScene

/// Reads CAShapeLayer's own properties on a `shape` layer: `path` as SVG path data, the
/// fill (`fill_color`, `fill_rule`) and the stroke (`stroke_color`, `line_width`,
/// `line_cap`, `line_join`, `miter_limit`, `line_dash_pattern`, `line_dash_phase`,
/// `stroke_start`, `stroke_end`).
extension ConfigReader {
    static let pathShapeKeys: Set<String> = [
        "fill_color", "fill_rule", "stroke_color", "line_cap", "line_join", "miter_limit", "line_dash_pattern",
        "line_dash_phase", "stroke_start", "stroke_end",
    ]
    /// Most numbers a dash pattern holds.
    static let maxDashCount = 16

    /// `path = "M 2 2 L 30 2 ..."`: the path, or a problem naming where in the string it
    /// went wrong and the limits.
    mutating func pathData(_ text: String, at path: String) -> AnimatableValue? {
        do {
            return .pathData(try PathData.parse(text))
        } catch {
            problem(path, "path data \(error.description)")
            return nil
        }
    }

    /// The CAShapeLayer properties, into `shape`. A shape with path data has Core
    /// Animation's default fill, opaque black, unless `fill_color` says otherwise ("none":
    /// no fill); a rounded-rectangle shape keeps no fill by default, as before.
    mutating func pathShape(_ t: ConfigTable, at path: String, into shape: inout ShapeContent) {
        for (old, new) in [("fill", "fill_color"), ("stroke", "stroke_color")] where t[old] != nil && t[new] != nil {
            problem("\(path).\(new)", "set either \"\(old)\" or \"\(new)\", not both")
        }
        if shape.pathData != nil && t["fill"] == nil { shape.fill = .color(.black) }
        if let v = paintOrNone(t, "fill_color", at: path) { shape.fill = v }
        if let v = paintOrNone(t, "stroke_color", at: path) { shape.stroke = v }
        if let v: FillRule = choice(t, "fill_rule", at: path) { shape.fillRule = v }
        if let v: StrokeStyle.LineCap = choice(t, "line_cap", at: path) { shape.strokeStyle.lineCap = v }
        if let v: StrokeStyle.LineJoin = choice(t, "line_join", at: path) { shape.strokeStyle.lineJoin = v }
        if let v = number(t, "miter_limit", at: path, in: 0...1000) { shape.strokeStyle.miterLimit = v }
        if let v = number(t, "line_dash_phase", at: path, in: -1_000_000...1_000_000) {
            shape.strokeStyle.lineDashPhase = v
        }
        if let v = number(t, "stroke_start", at: path, in: 0...1) { shape.strokeStyle.strokeStart = v }
        if let v = number(t, "stroke_end", at: path, in: 0...1) { shape.strokeStyle.strokeEnd = v }
        if let raw = t["line_dash_pattern"] { shape.strokeStyle.lineDashPattern = dashPattern(raw, at: path) }
        if shape.pathData == nil {
            for key in Self.pathShapeKeys.subtracting(["fill_color", "stroke_color"]) where t[key] != nil {
                problem("\(path).\(key)", "applies to a path given as SVG path data (path = \"M ...\")")
            }
        }
    }

    /// A colour, or `nil` paint for "none".
    private mutating func paintOrNone(_ t: ConfigTable, _ key: String, at path: String) -> Canvas.Paint?? {
        guard let text = t[key]?.string, text.lowercased() == "none" else {
            return color(t, key, at: path).map { .some(.color($0)) }
        }
        return .some(nil)
    }

    /// `line_dash_pattern = [4, 2]`: painted and unpainted lengths, none negative, not all
    /// zero, at most `maxDashCount` of them.
    private mutating func dashPattern(_ raw: ConfigValue, at path: String) -> [Double] {
        let key = "\(path).line_dash_pattern"
        guard let items = raw.array else {
            problem(key, "expected an array of lengths such as [4, 2]")
            return []
        }
        let values = items.compactMap { $0.double ?? $0.int.map(Double.init) }
        guard values.count == items.count else {
            problem(key, "expected numbers (painted and unpainted lengths in pixels)")
            return []
        }
        guard values.count <= Self.maxDashCount else {
            problem(key, "\(values.count) lengths, more than the limit of \(Self.maxDashCount)")
            return []
        }
        guard values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 10000 }) else {
            problem(key, "lengths must be finite numbers from 0 to 10000 (no negatives, no NaN)")
            return []
        }
        guard values.isEmpty || values.contains(where: { $0 > 0 }) else {
            problem(key, "every length is 0: the pattern would never advance (use [] for a solid line)")
            return []
        }
        return values
    }

    /// A `path` animation on a path-data shape must move between paths with the same
    /// elements (the same commands, count and kinds), as Core Animation interpolates them
    /// point by point; it leaves other pairs undefined, so they are refused here.
    mutating func checkPathAnimations(_ layer: Layer, at path: String) {
        guard case .shape(let shape) = layer.content else { return }
        func values(_ a: LayerAnimation) -> [AnimatableValue] {
            switch a {
            case .property(let p) where p.keyPath == .path:
                switch p.motion {
                case .basic(let v): return [v.from, v.to, v.by].compactMap { $0 }
                case .keyframes(let k): return k.values
                case .spring(let v, _): return [v.from, v.to, v.by].compactMap { $0 }
                }
            case .property: return []
            case .group(let g): return g.animations.flatMap(values)
            }
        }
        for (i, animation) in layer.animations.enumerated() {
            for value in values(animation) {
                let key = "\(path).animation[\(i)]"
                switch (shape.pathData, value) {
                case (let model?, .pathData(let p)):
                    if !p.hasSameStructure(as: model) {
                        problem(
                            key,
                            "a path animated must have the layer's path's elements (\(model.elements.count), "
                                + "the same commands in the same order; arcs count 4 curves each), this one has \(p.elements.count) "
                                + "or other commands: Core Animation leaves such a pair undefined")
                        return
                    }
                case (nil, .pathData):
                    problem(key, "path data animates a shape whose path is path data too (path = \"M ...\")")
                    return
                case (_?, .path):
                    problem(key, "a path given as path data animates to path data, not [x, y, width, height, radius]")
                    return
                default: break
                }
            }
        }
    }
}
