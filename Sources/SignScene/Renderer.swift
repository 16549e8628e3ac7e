import SignGraphics

/// Draws a prepared scene at a time into a frame. Reads only what preparation made, so a
/// frame costs no allocation and never calls FreeType.
public enum Renderer {
    /// Renders `scene` at scene time `t` into `frame` (which must match the board's size).
    public static func render(_ scene: PreparedScene, at t: Double, into frame: inout Frame) {
        frame.fill(scene.scene.background)
        for slot in scene.slots {
            draw(slot.layer(at: t), at: t, into: &frame)
        }
    }

    /// Renders into a new frame; for tools and tests.
    public static func render(_ scene: PreparedScene, at t: Double) -> Frame {
        var frame = Frame(width: scene.scene.width, height: scene.scene.height)
        render(scene, at: t, into: &frame)
        return frame
    }

    static func draw(_ layer: PreparedTextLayer, at t: Double, into frame: inout Frame) {
        let rect = layer.rect
        let rows = layer.stripHeight
        guard layer.textWidth > 0, rows > 0 else { return }
        var x0 = layer.path.stripX(at: t)
        if layer.layer.marquee.motion == .pixel { x0 = x0.rounded(.down) }
        let cycle = layer.path.cycle
        let scrolls = layer.scrolls
        let textWidth = layer.textWidth
        let color = layer.layer.color
        let (r, g, b) = (Int(color.red), Int(color.green), Int(color.blue))
        // Rows of the strip that land inside both the layer and the frame.
        let firstRow = max(0, -layer.stripTop, -(rect.y + layer.stripTop))
        let lastRow = min(rows, rect.height - layer.stripTop, frame.height - rect.y - layer.stripTop)
        guard firstRow < lastRow else { return }
        let width = frame.width
        layer.strip.withUnsafeBufferPointer { strip in
            layer.columnAlpha.withUnsafeBufferPointer { columnAlpha in
                frame.pixels.withUnsafeMutableBufferPointer { pixels in
                    for x in 0..<rect.width {
                        let fx = rect.x + x
                        let maskAlpha = Int(columnAlpha[x])
                        guard fx >= 0, fx < width, maskAlpha > 0 else { continue }
                        var u = Double(x) - x0
                        if scrolls { u -= (u / cycle).rounded(.down) * cycle }
                        let uFloor = u.rounded(.down)
                        // Box filter: the pixel overlaps strip columns j and j + 1.
                        let weight = Int(((u - uFloor) * 256).rounded())
                        var j0 = Int(uFloor)
                        var j1 = j0 + 1
                        if scrolls && Double(j1) >= cycle { j1 = 0 }
                        if j0 < 0 || j0 >= textWidth { j0 = -1 }
                        if j1 < 0 || j1 >= textWidth { j1 = -1 }
                        if j0 < 0 && j1 < 0 { continue }
                        let w0 = 256 - weight, w1 = weight
                        for row in firstRow..<lastRow {
                            let c0 = j0 >= 0 ? Int(strip[j0 * rows + row]) : 0
                            let c1 = j1 >= 0 ? Int(strip[j1 * rows + row]) : 0
                            let coverage = (c0 * w0 + c1 * w1 + 128) >> 8
                            if coverage == 0 { continue }
                            let a = (coverage * maskAlpha + 127) / 255
                            let i = ((rect.y + layer.stripTop + row) * width + fx) * 3
                            pixels[i] = UInt8((Int(pixels[i]) * (255 - a) + r * a + 127) / 255)
                            pixels[i + 1] = UInt8((Int(pixels[i + 1]) * (255 - a) + g * a + 127) / 255)
                            pixels[i + 2] = UInt8((Int(pixels[i + 2]) * (255 - a) + b * a + 127) / 255)
                        }
                    }
                }
            }
        }
    }
}
