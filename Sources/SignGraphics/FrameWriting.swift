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
        /// Writes out and resets, `seed` the next canvas's pixels (`nil`: transparent).
        func writeAndReset(_ b: UnsafeMutablePointer<Pixel>, _ d: UnsafeMutableRawPointer, seed: UnsafePointer<Pixel>?)
        {
            if whole {
                Canvas.convert(b, into: d, from: 0, to: n, over: backdrop)
                guard !damage.isEmpty else { return }
                for y in damage.top..<damage.bottom {
                    guard let span = damage.span(y) else { continue }
                    Canvas.reset(b, from: y &* w &+ span.x0, to: y &* w &+ span.x1, to: seed)
                }
                return
            }
            guard !damage.isEmpty || !written.isEmpty else { return }
            // Row by row: what changed in this frame or the last is written out, and what
            // changed in this one reset. Where the two are the same span over black (a
            // steady frame's every row), one pass does both.
            for y in Swift.min(damage.top, written.top)..<Swift.max(damage.bottom, written.bottom) {
                guard let span = damage.span(y, or: written) else { continue }
                let (start, end) = (y &* w &+ span.x0, y &* w &+ span.x1)
                let own = damage.span(y)
                if backdrop.black, let own, own == span {
                    Canvas.convertOverBlack(b, into: d, from: start, to: end, resettingTo: seed)
                    continue
                }
                Canvas.convert(b, into: d, from: start, to: end, over: backdrop)
                if let own { Canvas.reset(b, from: y &* w &+ own.x0, to: y &* w &+ own.x1, to: seed) }
            }
        }
        pixels.withUnsafeMutableBufferPointer { board in
            frame.pixels.withUnsafeMutableBytes { dst in
                if let next {
                    next.pixels.withUnsafeBufferPointer {
                        writeAndReset(board.baseAddress!, dst.baseAddress!, seed: $0.baseAddress!)
                    }
                } else {
                    writeAndReset(board.baseAddress!, dst.baseAddress!, seed: nil)
                }
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

    /// `convert` over black, each four pixels then set to `seed`'s (`nil`: transparent) in
    /// the same pass: a steady frame's write-out and reset of a row.
    static func convertOverBlack(
        _ s: UnsafeMutablePointer<Pixel>, into d: UnsafeMutableRawPointer, from start: Int, to end: Int,
        resettingTo seed: UnsafePointer<Pixel>?
    ) {
        let raw = UnsafeMutableRawPointer(s)
        var i = start
        while i &+ 4 <= end {
            fourOverBlack(s, at: i, into: d)
            if let seed {
                let from = UnsafeRawPointer(seed)
                raw.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: i &* 4, as: UInt64.self), toByteOffset: i &* 4,
                    as: UInt64.self)
                raw.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: i &* 4 &+ 8, as: UInt64.self), toByteOffset: i &* 4 &+ 8,
                    as: UInt64.self)
            } else {
                raw.storeBytes(of: 0, toByteOffset: i &* 4, as: UInt64.self)
                raw.storeBytes(of: 0, toByteOffset: i &* 4 &+ 8, as: UInt64.self)
            }
            i &+= 4
        }
        guard i < end else { return }
        convert(s, into: d, from: i, to: end, over: Backdrop(.black))
        reset(s, from: i, to: end, to: seed)
    }

    /// Pixels `start..<end` of `s` set to `seed`'s, or transparent.
    static func reset(
        _ s: UnsafeMutablePointer<Pixel>, from start: Int, to end: Int, to seed: UnsafePointer<Pixel>?
    ) {
        if let seed {
            (s + start).update(from: seed + start, count: end &- start)
        } else {
            (s + start).update(repeating: 0, count: end &- start)
        }
    }

    /// Pixels `i..<i + 4` of `s` over black as twelve bytes of R, G, B at `d + 3 * i`: two
    /// pixels a 64-bit load, their alpha bytes squeezed out, and two stores.
    @inline(__always)
    static func fourOverBlack(_ s: UnsafePointer<Pixel>, at i: Int, into d: UnsafeMutableRawPointer) {
        let low: UInt64 = 0xFF_FFFF, high: UInt64 = 0xFFFF_FF00_0000
        let a = UnsafeRawPointer(s + i).loadUnaligned(as: UInt64.self)
        let b = UnsafeRawPointer(s + (i &+ 2)).loadUnaligned(as: UInt64.self)
        let first = (a & low) | (a >> 8 & high), second = (b & low) | (b >> 8 & high)
        let o = i &* 3
        d.storeBytes(of: first | second << 48, toByteOffset: o, as: UInt64.self)
        d.storeBytes(of: UInt32(truncatingIfNeeded: second >> 16), toByteOffset: o &+ 8, as: UInt32.self)
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
        // Four pixels make twelve bytes of R, G, B.
        var i = start
        if black {
            while i &+ 4 <= end {
                fourOverBlack(s, at: i, into: d)
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
