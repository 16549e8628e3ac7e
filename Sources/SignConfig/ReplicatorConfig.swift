import SignScene

/// Reads a `type = "replicator"` layer's `CAReplicatorLayer` keys.
extension ConfigReader {
    static let replicatorKeys: Set<String> = [
        "instance_count", "instance_transform", "instance_delay", "instance_color", "instance_red_offset",
        "instance_green_offset", "instance_blue_offset", "instance_alpha_offset",
    ]
    /// The most instances a replicator draws: each draws all its sublayers again.
    static let maxInstanceCount = 256

    mutating func replicator(_ t: ConfigTable, at path: String) -> Replicator {
        var r = Replicator()
        if let raw = t["instance_count"] {
            if let n = raw.int, (1...Self.maxInstanceCount).contains(n) {
                r.instanceCount = n
            } else {
                problem(
                    "\(path).instance_count",
                    "must be a whole number from 1 to \(Self.maxInstanceCount) (each instance draws the sublayers again)")
            }
        }
        if let table = table(t, "instance_transform", at: path) {
            r.instanceTransform = transform(table, at: "\(path).instance_transform")
        }
        if let v = number(t, "instance_delay", at: path, in: -3600...3600) { r.instanceDelay = v }
        if let c = color(t, "instance_color", at: path) { r.instanceColor = AnimatableValue.rgba(c) }
        for (i, key) in ["instance_red_offset", "instance_green_offset", "instance_blue_offset", "instance_alpha_offset"]
            .enumerated()
        {
            if let v = number(t, key, at: path, in: -1...1) { r.colorOffset[i] = v }
        }
        return r
    }
}
