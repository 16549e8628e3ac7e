import SignScene

/// What one frame can hold, so a config that passes `check-config` also keeps its frame rate:
/// the board's pixels a second and the layers drawn a second. Both bounds were measured on a
/// release build (docs/reliability.md, "What a frame can hold"): a 4096x4096 board asks for
/// 50 MB of pixels each frame, which no memory moves 1,000 times a second, and every layer,
/// however small, costs about a microsecond a frame to present and draw.
enum FrameBudget {
    /// Pixels a second (width x height x fps) the frame clock renders and sends.
    static let maxPixelRate = 250_000_000
    /// Layers a second (every layer of the tree, masks and sublayers included, x fps).
    static let maxLayerRate = 250_000

    /// Layers in `layer`'s tree: itself, its masks and its sublayers, all the way down.
    static func count(_ layer: Layer) -> Int {
        1 + (layer.mask.map(count) ?? 0) + layer.sublayers.reduce(0) { $0 + count($1) }
    }

    /// Layers a scene draws (a marquee or a spotlight counts as one).
    static func count(_ layers: [SceneLayer]) -> Int {
        layers.reduce(0) { sum, layer in
            if case .layer(let tree) = layer { return sum + count(tree) }
            return sum + 1
        }
    }
}

extension ConfigReader {
    /// Adds a problem for a board or a scene too large for its frame rate.
    mutating func checkFrameBudget(_ config: DaemonConfig) {
        let (w, h, fps) = (config.display.width, config.display.height, config.display.fps)
        let pixelRate = Double(w * h) * fps
        if pixelRate > Double(FrameBudget.maxPixelRate) {
            let fit = max(1, Int(Double(FrameBudget.maxPixelRate) / Double(w * h)))
            problem(
                "display.fps",
                "a \(w)x\(h) board at \(fps.formattedForConfig) fps is \(Int(pixelRate / 1e6)) million pixels a second; "
                    + "a frame clock renders and sends at most \(FrameBudget.maxPixelRate / 1_000_000) million "
                    + "(this board at \(fit) fps or fewer)")
        }
        let layers = FrameBudget.count(config.layers)
        let layerRate = Double(layers) * fps
        if layerRate > Double(FrameBudget.maxLayerRate) {
            let fit = Int(Double(FrameBudget.maxLayerRate) / fps)
            // Named at the top-level layer whose tree passes the budget.
            var total = 0
            let first = config.layers.firstIndex { layer in
                if case .layer(let tree) = layer { total += FrameBudget.count(tree) } else { total += 1 }
                return total > fit
            }
            problem(
                "layer[\(first ?? 0)]",
                "\(layers) layers (masks and sublayers included) at \(fps.formattedForConfig) fps are "
                    + "\(Int(layerRate)) layers drawn a second; a frame clock draws at most \(FrameBudget.maxLayerRate) "
                    + "(\(fit) layers at this rate), and this one is past them")
        }
    }
}

extension Double {
    /// 60, or 29.97: as a config would write it.
    fileprivate var formattedForConfig: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
