import Synchronization

/// Writing a board canvas out as an RGB888 frame over an opaque background.
extension Canvas {
    /// The canvas over an opaque background, as an RGB888 frame (every pixel written).
    public func write(into frame: inout Frame, over background: Color) {
        let n = Swift.min(width * height, frame.width * frame.height)
        pixels.withUnsafeBufferPointer { src in
            frame.pixels.withUnsafeMutableBytes { dst in
                Canvas.convert(
                    src.baseAddress!, into: dst.baseAddress!, from: 0, to: n, over: Canvas.Backdrop(background))
            }
        }
    }

    /// Writes the canvas into `frame` as `write(into:over:)` does, then resets what this
    /// frame's calls changed to `next`'s pixels (a canvas of the same size) or to
    /// transparent, which must be what the canvas held before them.
    ///
    /// Only what changed is written when `frame` still holds this canvas's previous write
    /// over the same background: the pixels this frame or the previous one changed. Pixels
    /// neither touched are the reset pixels both times, already in the frame.
    public mutating func write(into frame: inout Frame, over background: Color, resettingTo next: Canvas?) {
        precondition(next.map { $0.width == width && $0.height == height } ?? true, "the next canvas's size differs")
        let whole =
            frame.stamp == 0 || frame.stamp != writtenStamp || background != writtenBackground
            || frame.width != width || frame.height != height
        let (w, n) = (width, Swift.min(width * height, frame.width * frame.height))
        let backdrop = Backdrop(background)
        pixels.withUnsafeMutableBufferPointer { board in
            let b = board.baseAddress!
            frame.pixels.withUnsafeMutableBytes { dst in
                let d = dst.baseAddress!
                if whole {
                    Canvas.convert(b, into: d, from: 0, to: n, over: backdrop)
                } else if !damage.isEmpty || !written.isEmpty {
                    for y in Swift.min(damage.top, written.top)..<Swift.max(damage.bottom, written.bottom) {
                        guard let span = damage.span(y, or: written) else { continue }
                        Canvas.convert(b, into: d, from: y &* w &+ span.x0, to: y &* w &+ span.x1, over: backdrop)
                    }
                }
            }
            guard !damage.isEmpty else { return }
            func reset(_ seed: UnsafePointer<Pixel>?) {
                for y in damage.top..<damage.bottom {
                    guard let span = damage.span(y) else { continue }
                    let start = y &* w &+ span.x0
                    if let seed {
                        (b + start).update(from: seed + start, count: span.x1 &- span.x0)
                    } else {
                        (b + start).update(repeating: 0, count: span.x1 &- span.x0)
                    }
                }
            }
            if let next {
                next.pixels.withUnsafeBufferPointer { reset($0.baseAddress!) }
            } else {
                reset(nil)
            }
        }
        swap(&written, &damage)
        damage.removeAll()
        let stamp = Canvas.stamps.add(1, ordering: .relaxed).newValue
        frame.stamp = stamp
        (writtenStamp, writtenBackground) = (stamp, background)
    }

    /// Frame stamps, never 0 and never given twice.
    private static let stamps = Atomic<UInt64>(0)

    /// The opaque background a frame is written over, converted once a frame (not once a
    /// row written).
    struct Backdrop {
        let pixel: Pixel
        /// Black: a premultiplied pixel over it is the pixel.
        let black: Bool

        init(_ background: Color) {
            pixel = premultiplied(Color(red: background.red, green: background.green, blue: background.blue))
            black = background.red == 0 && background.green == 0 && background.blue == 0
        }
    }

    /// Writes pixels `start..<end` of `src` over `backdrop` as RGB888 at `dst` (the pixel's
    /// index times 3). Writes no byte outside those pixels.
    static func convert(
        _ s: UnsafePointer<Pixel>, into d: UnsafeMutableRawPointer, from start: Int, to end: Int,
        over backdrop: Backdrop
    ) {
        guard start < end else { return }
        let (bg, black) = (backdrop.pixel, backdrop.black)
        @inline(__always) func opaque(_ p: Pixel) -> Pixel { black ? p : over(spread(p), bg) }
        // Four pixels make twelve bytes of R, G, B: over black, two pixels a 64-bit load,
        // their alpha bytes squeezed out, and two stores.
        var i = start
        if black {
            let low: UInt64 = 0xFF_FFFF, high: UInt64 = 0xFFFF_FF00_0000
            while i &+ 4 <= end {
                let a = UnsafeRawPointer(s + i).loadUnaligned(as: UInt64.self)
                let b = UnsafeRawPointer(s + (i &+ 2)).loadUnaligned(as: UInt64.self)
                let first = (a & low) | (a >> 8 & high), second = (b & low) | (b >> 8 & high)
                let o = i &* 3
                d.storeBytes(of: first | second << 48, toByteOffset: o, as: UInt64.self)
                d.storeBytes(of: UInt32(truncatingIfNeeded: second >> 16), toByteOffset: o &+ 8, as: UInt32.self)
                i &+= 4
            }
        }
        // Otherwise three words, none overlapping.
        while i &+ 4 <= end {
            let p0 = opaque(s[i]), p1 = opaque(s[i &+ 1]), p2 = opaque(s[i &+ 2]), p3 = opaque(s[i &+ 3])
            let o = i &* 3
            d.storeBytes(of: (p0 & 0xFF_FFFF) | p1 << 24, toByteOffset: o, as: UInt32.self)
            d.storeBytes(of: (p1 >> 8 & 0xFFFF) | p2 << 16, toByteOffset: o &+ 4, as: UInt32.self)
            d.storeBytes(of: (p2 >> 16 & 0xFF) | p3 << 8, toByteOffset: o &+ 8, as: UInt32.self)
            i &+= 4
        }
        // The rest as four bytes at 3 * i (the fourth overwritten by the next pixel), the
        // last byte by byte.
        while i < end &- 1 {
            d.storeBytes(of: opaque(s[i]), toByteOffset: i &* 3, as: UInt32.self)
            i &+= 1
        }
        let last = opaque(s[end &- 1])
        for k in 0..<3 {
            d.storeBytes(
                of: UInt8(truncatingIfNeeded: last >> (8 * k)), toByteOffset: (end &- 1) &* 3 &+ k, as: UInt8.self)
        }
    }
}
