import Synchronization

/// A callback set (or replaced) from one thread and called from others. Held in a box: an
/// optional closure copied out of a `Mutex` leaked its context on every call (32 bytes twice,
/// found by heaptrack under a `set-var` storm), a class reference does not.
final class CallbackSlot<Argument: Sendable>: Sendable {
    private final class Box: Sendable {
        let body: @Sendable (Argument) -> Void
        init(_ body: @escaping @Sendable (Argument) -> Void) { self.body = body }
    }

    private let slot = Mutex<Box?>(nil)

    init() {}

    /// Calls `body` from now on, instead of what was set before.
    func set(_ body: @escaping @Sendable (Argument) -> Void) {
        let box = Box(body)
        slot.withLock { $0 = box }
    }

    /// Calls the callback set, if any, on this thread.
    func callAsFunction(_ argument: Argument) { slot.withLock { $0 }?.body(argument) }

    /// Whether a callback is set.
    var isSet: Bool { slot.withLock { $0 != nil } }
}

extension CallbackSlot where Argument == Void {
    func callAsFunction() { self(()) }
}
