import Foundation

/// Waits until `condition` holds, for at most `timeout` seconds; returns whether it did. For
/// what runs on threads of its own on real time (the frame clock's Dispatch timer, the
/// socket server, a handler dispatched to a global queue), which a test cannot advance: it
/// waits for the outcome itself, however fast or slow the machine, never a fixed time.
func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        // Real time: the work polled for runs on other threads; 1 ms between looks.
        usleep(1000)
    }
    return true
}
