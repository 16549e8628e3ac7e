import SignGraphics
import SignScene

/// Reads a layer's `transform` and `sublayer_transform` (an inline table of named parts,
/// angles in degrees), `anchor_point`, `anchor_point_z` and the resampling filters.
extension ConfigReader {
    static let transformLayerKeys: Set<String> = [
        "transform", "sublayer_transform", "anchor_point", "anchor_point_z", "magnification_filter",
        "minification_filter",
    ]
    static let transformKeys: Set<String> = [
        "scale", "scale_x", "scale_y", "scale_z", "rotation", "rotation_x", "rotation_y", "rotation_z", "translation",
        "perspective",
    ]
    /// Scales, translations and the perspective distance are at most this large.
    static let maxTransformMagnitude = 100_000.0

    /// Sets the transform keys of `t` on `layer`, whose frame is already read: an
    /// `anchor_point` keeps the frame where `x` and `y` put it and moves the pivot.
    mutating func readTransform(_ t: ConfigTable, at path: String, into layer: inout Layer) {
        if let raw = t["anchor_point"] {
            let values = raw.array?.compactMap { $0.double ?? $0.int.map(Double.init) }
            if let values, values.count == 2, values.count == raw.array?.count, values.allSatisfy(\.isFinite),
                values.allSatisfy({ abs($0) <= Self.maxTransformMagnitude })
            {
                let frame = layer.frame
                layer.anchorPoint = Point(x: values[0], y: values[1])
                layer.position = Point(
                    x: frame.minX - layer.translation.x + values[0] * frame.width,
                    y: frame.minY - layer.translation.y + values[1] * frame.height)
            } else {
                problem(
                    "\(path).anchor_point",
                    "expected [x, y] in the layer's unit square (finite; [0.5, 0.5] is the middle)")
            }
        }
        if let v = transformNumber(t, "anchor_point_z", at: path) { layer.anchorPointZ = v }
        if let f = filter(t, "magnification_filter", at: path) { layer.magnificationFilter = f }
        if let f = filter(t, "minification_filter", at: path) { layer.minificationFilter = f }
        if let table = table(t, "transform", at: path) {
            layer.transform = transform(table, at: "\(path).transform")
        }
        if let table = table(t, "sublayer_transform", at: path) {
            layer.sublayerTransform = transform(table, at: "\(path).sublayer_transform")
        }
    }

    /// `linear`, `nearest`, or `trilinear` (read as linear).
    private mutating func filter(_ t: ConfigTable, _ key: String, at path: String) -> ResamplingFilter? {
        guard let text = string(t, key, at: path) else { return nil }
        if text == "trilinear" { return .linear }
        guard let filter = ResamplingFilter(rawValue: text) else {
            problem(join(path, key), "\"\(text)\" is not one of \"linear\", \"nearest\", \"trilinear\"")
            return nil
        }
        return filter
    }

    /// One transform: `scale` (a number, or [x, y]), `scale_x`, `scale_y`, `scale_z`,
    /// `rotation` (about z), `rotation_x`, `rotation_y`, `rotation_z` in degrees,
    /// `translation` [x, y] in pixels, `perspective` (the viewer's distance in pixels).
    mutating func transform(_ t: ConfigTable, at path: String) -> LayerTransform {
        rejectUnknownKeys(t, at: path, allowed: Self.transformKeys)
        var transform = LayerTransform()
        if let raw = t["scale"] {
            if raw.array == nil {
                if let v = transformNumber(t, "scale", at: path) { transform.scale = v }
            } else if let pair = transformPair(t, "scale", at: path) {
                (transform.scaleX, transform.scaleY) = (pair.x, pair.y)
            }
        }
        if let v = transformNumber(t, "scale_x", at: path) { transform.scaleX = v }
        if let v = transformNumber(t, "scale_y", at: path) { transform.scaleY = v }
        if let v = transformNumber(t, "scale_z", at: path) { transform.scaleZ = v }
        if t["rotation"] != nil, t["rotation_z"] != nil {
            problem("\(path).rotation", "\"rotation\" is \"rotation_z\": set one of them")
        }
        for (key, part) in [
            ("rotation", \LayerTransform.rotationZ), ("rotation_z", \.rotationZ), ("rotation_x", \.rotationX),
            ("rotation_y", \.rotationY),
        ] {
            if let degrees = transformNumber(t, key, at: path) { transform[keyPath: part] = degrees * .pi / 180 }
        }
        if t["translation"] != nil, let pair = transformPair(t, "translation", at: path) {
            transform.translation = pair
        }
        if let v = transformNumber(t, "perspective", at: path) {
            if v > 0 {
                transform.perspective = v
            } else {
                problem("\(path).perspective", "the viewer's distance must be more than 0 pixels (m34 = -1 / perspective)")
            }
        }
        return transform
    }

    /// A finite number no larger than `maxTransformMagnitude`, or a problem saying so.
    private mutating func transformNumber(_ t: ConfigTable, _ key: String, at path: String) -> Double? {
        guard let value = t[key] else { return nil }
        guard let d = value.double ?? value.int.map(Double.init) else {
            problem(join(path, key), "expected a number, found \(value.type)")
            return nil
        }
        guard d.isFinite, abs(d) <= Self.maxTransformMagnitude else {
            problem(
                join(path, key),
                "\(d) is not a finite number from -\(Int(Self.maxTransformMagnitude)) to \(Int(Self.maxTransformMagnitude))"
            )
            return nil
        }
        return d
    }

    /// [x, y] of finite numbers, or a problem saying so.
    private mutating func transformPair(_ t: ConfigTable, _ key: String, at path: String) -> Point? {
        guard let raw = t[key] else { return nil }
        let values = raw.array?.compactMap { $0.double ?? $0.int.map(Double.init) }
        guard let values, values.count == 2, raw.array?.count == 2,
            values.allSatisfy({ $0.isFinite && abs($0) <= Self.maxTransformMagnitude })
        else {
            problem(
                join(path, key),
                "expected [x, y], two finite numbers from -\(Int(Self.maxTransformMagnitude)) to \(Int(Self.maxTransformMagnitude))"
            )
            return nil
        }
        return Point(x: values[0], y: values[1])
    }
}
