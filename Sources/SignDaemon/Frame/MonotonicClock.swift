import SignTiming

/// CLOCK_MONOTONIC in ns, defined once in SignTiming (the renderer times its layers with it
/// too) and named here for signd's own parts.
public typealias MonotonicClock = SignTiming.MonotonicClock
