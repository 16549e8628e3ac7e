/// A decoded image file's frames (one for a PNG or a still GIF or WebP), each composed onto
/// the whole canvas as the format says and premultiplied, with how long each shows and how
/// often the file asks them to play. Core Animation has no animated contents: this is what a
/// `CAKeyframeAnimation` on `contents` with `calculationMode = discrete` would hold (the
/// frames its values, `ends` its keyTimes, `filePlays` its repeatCount), and
/// `frameIndex(at:plays:)` is that animation evaluated.
public struct AnimatedImage: Sendable, Equatable {
    /// Composed frames, all the canvas's size.
    public let frames: [ImageBitmap]
    /// Each frame's delay as the file gives it, in seconds (0 for a still image).
    public let fileDelays: [Double]
    /// Where each frame ends within one play, in seconds: the running sum of the delays as
    /// shown (`shownDelay(_:)`).
    public let ends: [Double]
    /// How many times the file asks the frames to play; `nil`: forever.
    public let filePlays: Int?

    /// Most frames of an image signd decodes.
    public static let maxFrames = 1024
    /// Most pixels of all an image's frames together (the canvas's pixels times the frames;
    /// 16 MiB as RGBA), and of the frame rectangles a GIF decodes.
    public static let maxDecodedPixels = PNGImage.maxPixels
    /// Delays of this many seconds or less show for `shortDelayShown`, as browsers show them.
    public static let shortDelay = 0.01
    /// What a delay of 0 or 1 centisecond shows for: 100 ms, as browsers (Firefox, Chromium)
    /// do, since such files mean "as fast as possible", which on a sign is a flicker.
    public static let shortDelayShown = 0.1

    /// The delay a frame shows for, given the file's.
    public static func shownDelay(_ delay: Double) -> Double {
        delay <= shortDelay + 1e-9 ? shortDelayShown : delay
    }

    /// A still image: one frame, no timing.
    public init(still: ImageBitmap) {
        frames = [still]
        fileDelays = [0]
        ends = [0]
        filePlays = 1
    }

    /// Frames with their delays (seconds, as the file gives them) and plays (`nil`: forever).
    public init(frames: [ImageBitmap], delays: [Double], plays: Int?) {
        precondition(!frames.isEmpty && frames.count == delays.count, "one delay per frame, at least one frame")
        self.frames = frames
        fileDelays = delays
        filePlays = plays
        if frames.count == 1 {
            ends = [0]
        } else {
            var sum = 0.0
            ends = delays.map { d in
                sum += Self.shownDelay(d)
                return sum
            }
        }
    }

    /// The first frame: what a still image is, and what an animated one shows before it starts.
    public var first: ImageBitmap { frames[0] }
    public var width: Int { frames[0].width }
    public var height: Int { frames[0].height }
    /// More than one frame.
    public var isAnimated: Bool { frames.count > 1 }
    /// One play of all frames, in seconds.
    public var duration: Double { ends[ends.count - 1] }

    /// The frame shown `t` seconds after the frames began (the animation's local time),
    /// playing them `plays` times (`nil`: forever): before 0 the first frame, after the last
    /// play the last frame (held, as browsers hold it), in between the frame whose interval
    /// holds `t` within its play, found by binary search over `ends`. Allocates nothing.
    @inlinable
    public func frameIndex(at t: Double, plays: Int?) -> Int {
        let count = ends.count
        guard count > 1, t > 0 else { return 0 }
        let total = ends[count - 1]
        if let plays, t >= total * Double(plays) { return count - 1 }
        let local = t.isFinite ? t.truncatingRemainder(dividingBy: total) : 0
        // The first frame whose end lies after `local`.
        var low = 0, high = count - 1
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] > local { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

/// How many times an image layer (or an inline icon) plays its frames: as the file says, or
/// forever, or a given number of times (`loop = "file" | "forever" | N`).
public enum ImageLoop: Sendable, Hashable {
    case file
    case forever
    case times(Int)

    /// The plays for `image` (`nil`: forever).
    public func plays(of image: AnimatedImage) -> Int? {
        switch self {
        case .file: return image.filePlays
        case .forever: return nil
        case .times(let n): return n
        }
    }
}
