import SignGraphics
import SignScene
import SignTiming

/// Reads a layer's shadow, CALayer's properties in TOML's spelling: `shadow_color`,
/// `shadow_opacity`, `shadow_radius` (capped), `shadow_offset` (`[width, height]`);
/// `shadow_path` (SVG path data, as a shape layer's `path`).
extension ConfigReader {
    static let shadowKeys: Set<String> = [
        "shadow_color", "shadow_opacity", "shadow_radius", "shadow_offset", "shadow_path",
    ]

    /// The largest `shadow_radius`, in pixels (σ of the blur): `GaussianKernel.maxSigma`.
    static var maxShadowRadius: Double { GaussianKernel.maxSigma }

    /// Sets `layer`'s shadow from `t`, and checks its animations of `shadowRadius` stay
    /// within the cap (call after the animations are read).
    mutating func readShadow(_ t: ConfigTable, at path: String, into layer: inout Layer) {
        if let v = color(t, "shadow_color", at: path) { layer.shadowColor = v }
        if let v = shadowNumber(t, "shadow_opacity", at: path, in: 0...1) { layer.shadowOpacity = v }
        if let v = shadowNumber(t, "shadow_radius", at: path, in: 0...Self.maxShadowRadius) { layer.shadowRadius = v }
        if let raw = t["shadow_offset"] {
            let limit = 10000.0
            let numbers = raw.array?.compactMap { $0.double ?? $0.int.map(Double.init) }
            if let numbers, numbers.count == 2, raw.array?.count == 2,
                numbers.allSatisfy({ $0.isFinite && abs($0) <= limit })
            {
                layer.shadowOffset = Size(width: numbers[0], height: numbers[1])
            } else {
                problem(
                    join(path, "shadow_offset"),
                    "expected [width, height]: finite numbers from -\(Int(limit)) to \(Int(limit)) pixels (y down)")
            }
        }
        if let raw = t["shadow_path"] {
            if let text = raw.string {
                do {
                    layer.shadowPath = try PathData.parse(text)
                } catch {
                    problem(join(path, "shadow_path"), "path data \(error.description)")
                }
            } else {
                problem(join(path, "shadow_path"), "expected SVG path data (a string), found \(raw.type)")
            }
        }
        for (i, animation) in layer.animations.enumerated() {
            guard case .property(let a) = animation, a.keyPath == .shadowRadius else { continue }
            let values: [AnimatableValue?]
            switch a.motion {
            case .basic(let v), .spring(let v, _): values = [v.from, v.to, v.by]
            case .keyframes(let k): values = k.values.map(Optional.some)
            }
            let cap = Self.maxShadowRadius
            if values.contains(where: { v in v?.number.map { !(0...cap).contains($0) } ?? false }) {
                problem(
                    "\(path.isEmpty ? "" : path + ".")animation[\(i)]",
                    "shadowRadius values must be from 0 to \(Int(cap)) pixels (the blur's σ is capped at \(Int(cap)))")
            }
        }
    }

    /// A number in `range`, with a message that names NaN and the cap.
    private mutating func shadowNumber(_ t: ConfigTable, _ key: String, at path: String, in range: ClosedRange<Double>)
        -> Double?
    {
        guard let value = t[key] else { return nil }
        guard let d = value.double ?? value.int.map(Double.init) else {
            problem(join(path, key), "expected a number, found \(value.type)")
            return nil
        }
        guard !d.isNaN else {
            problem(join(path, key), "nan is not a number; expected \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        guard range.contains(d) else {
            let what = key == "shadow_radius" ? " (pixels, the blur's σ, capped at \(Int(range.upperBound)))" : ""
            problem(join(path, key), "\(d) is out of range \(range.lowerBound)...\(range.upperBound)\(what)")
            return nil
        }
        return d
    }
}
