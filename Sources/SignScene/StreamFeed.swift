import SignGraphics
import Synchronization

/// The newest complete frame another program streamed into a `stream` layer. The receiver
/// publishes frames from its own queue; the compositor takes the newest one when it draws,
/// so receiving never waits for the frame clock nor the clock for the network. `nil`: no
/// frame yet, or the stream went quiet for longer than the layer's timeout (transparent).
public final class StreamFeed: Sendable {
    private let frame = Mutex<ImageBitmap?>(nil)

    public init() {}

    /// Shows `bitmap` from the next frame on.
    public func publish(_ bitmap: ImageBitmap?) { frame.withLock { $0 = bitmap } }

    /// What the layer shows now.
    public var current: ImageBitmap? { frame.withLock { $0 } }
}

/// A `stream` layer's contents: its feed, stretched to the bounds like an image.
public struct StreamContent: Sendable, Equatable {
    public let feed: StreamFeed

    public init(feed: StreamFeed = StreamFeed()) { self.feed = feed }

    public static func == (a: StreamContent, b: StreamContent) -> Bool { a.feed === b.feed }
}
