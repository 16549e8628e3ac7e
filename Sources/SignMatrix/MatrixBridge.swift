import Glibc
import SignOutput

/// Shows signd's shm framebuffer on HUB75 panels: loads the library, opens the panels,
/// drops to its own user, then copies each new frame (seqlock, by frame number) into the
/// offscreen canvas and swaps it in. signd stopping blanks the panels; signd gone, a
/// framebuffer replaced by a new signd, or one of another size is waited for, never fatal.
public final class MatrixBridge {
    public let config: MatrixConfig
    private let log: (String) -> Void
    public private(set) var status = MatrixStatus()
    private var statusWritten: UInt64 = 0
    /// How often the bridge looks for a new frame while none has come.
    static let poll: UInt64 = 1_000_000
    /// How often it checks that the framebuffer is still the one it mapped.
    static let recheck: UInt64 = 250_000_000

    /// `log` gets one line a state change (the journal, under systemd).
    public init(config: MatrixConfig, log: @escaping (String) -> Void) {
        self.config = config
        self.log = log
        status.framebuffer = "/dev/shm" + FramebufferLayout.objectName(forOutput: config.output)
    }

    /// Runs until `stopping()` turns true; 0 then, 1 when the panels cannot be opened with
    /// these options (a config problem that waiting does not fix).
    public func run(stopping: () -> Bool) -> Int32 {
        if geteuid() == 0, let problem = prepareUser() {
            change("error", problem)
            return 1
        }
        var library: RGBMatrixLibrary?
        while library == nil {
            do throws(RGBMatrixLibrary.Error) {
                library = try RGBMatrixLibrary(path: config.library)
            } catch {
                change("waiting", error.description)
                if pause(5_000_000_000, stopping) { return 0 }
            }
        }
        let panels: RGBMatrixLibrary.Panels
        do throws(RGBMatrixLibrary.Error) {
            let root = geteuid() == 0
            panels = try library!.open(
                config.options, user: root ? config.user : "", group: root ? Self.group(of: config.user) : "")
        } catch {
            change("error", error.description)
            return 1
        }
        status.panels = "\(panels.width)x\(panels.height)"
        defer {
            panels.blank()
            panels.close()
        }
        if let problem = dropPrivileges() {
            change("error", problem)
            return 1
        }
        log("signd-matrix: panels \(panels.width)x\(panels.height) open, running as uid \(geteuid())")
        panels.blank()
        let bytes = panels.width * panels.height * 3
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 8)
        defer { pixels.deallocate() }

        var reader: SharedMemoryReader?
        var shown: UInt64 = 0
        var checked: UInt64 = 0
        var connected = false
        var blank = true
        while !stopping() {
            let now = Self.now()
            guard let current = reader else {
                switch openFramebuffer(width: panels.width, height: panels.height) {
                case .success(let opened):
                    reader = opened
                    shown = 0
                    checked = now
                    if connected { status.reconnects += 1 }
                    connected = true
                    change("waiting", "framebuffer open; waiting for a frame")
                case .failure(let message):
                    if !blank {
                        panels.blank()
                        blank = true
                    }
                    change(message.state, message.text)
                    if pause(message.state == "error" ? 2_000_000_000 : 500_000_000, stopping) { return 0 }
                }
                continue
            }
            if now &- checked >= Self.recheck {
                checked = now
                if let gone = replaced(current) {
                    reader = nil
                    change("waiting", gone)
                    continue
                }
                writeStatusIfDue(now)
            }
            if current.stopped {
                if status.state != "stopped" {
                    panels.blank()
                    blank = true
                    change("stopped", "signd stopped; the panels are black until it starts again")
                }
            } else if current.frameNumber != shown, let published = current.read(into: pixels) {
                shown = published.frameNumber
                if published.stopped { continue }
                panels.show(pixels)
                blank = false
                status.framesShown += 1
                status.lastFrame = shown
                if status.state != "showing" { change("showing", "") }
                continue
            }
            _ = pause(Self.poll, stopping)
        }
        change("stopped", "signd-matrix stopped")
        return 0
    }

    private struct Refusal: Error {
        let state: String
        let text: String
    }

    /// The framebuffer when it exists and has the panels' size.
    private func openFramebuffer(width: Int, height: Int) -> Result<SharedMemoryReader, Refusal> {
        let reader: SharedMemoryReader
        do throws(SharedMemoryReader.Error) {
            reader = try SharedMemoryReader(output: config.output)
        } catch {
            return .failure(Refusal(state: "waiting", text: "waiting for signd: \(status.framebuffer): \(error.message)"))
        }
        guard reader.width == width, reader.height == height else {
            return .failure(
                Refusal(
                    state: "error",
                    text:
                        "\(status.framebuffer) is \(reader.width)x\(reader.height) but the panels show \(width)x\(height) "
                        + "(cols x chain by rows x parallel, after pixel mappers): set display.width and "
                        + "display.height in signd's config to match; checked again every 2 s"))
        }
        return .success(reader)
    }

    /// Why `reader`'s object is no longer the one under its name; nil while it is.
    private func replaced(_ reader: SharedMemoryReader) -> String? {
        var info = stat()
        guard stat(status.framebuffer, &info) == 0 else {
            return "\(status.framebuffer) is gone (signd stopped or restarting); waiting for it"
        }
        if UInt64(info.st_ino) != reader.inode || UInt64(info.st_dev) != reader.device {
            return "\(status.framebuffer) was made anew (signd restarted); opening it again"
        }
        return nil
    }

    /// Started as root: checks that `config.user` exists (signd-matrix never stays root) and
    /// gives it the status file's directory, which it keeps writing after the drop.
    private func prepareUser() -> String? {
        guard !config.user.isEmpty, let entry = getpwnam(config.user) else {
            return "started as root and there is no user \"\(config.user)\" to become after opening the panels "
                + "(systemd-sysusers makes it from /usr/lib/sysusers.d/signd-matrix.conf)"
        }
        if !config.status.isEmpty {
            let directory = String(config.status[..<(config.status.lastIndex(of: "/") ?? config.status.startIndex)])
            if !directory.isEmpty, chown(directory, entry.pointee.pw_uid, entry.pointee.pw_gid) != 0 {
                log("signd-matrix: cannot give \(directory) to \(config.user): \(String(cString: strerror(errno)))")
            }
        }
        return nil
    }

    /// Leaves root for `config.user` when the library has not already done so.
    private func dropPrivileges() -> String? {
        guard geteuid() == 0 || getuid() == 0 else { return nil }
        guard !config.user.isEmpty, let entry = getpwnam(config.user) else {
            return "still root after opening the panels, and there is no user \"\(config.user)\" to become"
        }
        let uid = entry.pointee.pw_uid, gid = entry.pointee.pw_gid
        guard initgroups(config.user, gid) == 0, setgid(gid) == 0, setuid(uid) == 0, setuid(0) != 0 else {
            return "cannot become \(config.user): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// Moves to `state` with `message`, logging and writing the status when either changed.
    private func change(_ state: String, _ message: String) {
        guard status.state != state || status.message != message else { return }
        status.state = state
        status.message = message
        log("signd-matrix: \(state)\(message.isEmpty ? "" : ": \(message)")")
        writeStatus()
    }

    private func writeStatusIfDue(_ now: UInt64) {
        if now &- statusWritten >= 1_000_000_000 { writeStatus() }
    }

    private func writeStatus() {
        statusWritten = Self.now()
        guard !config.status.isEmpty else { return }
        if let problem = status.write(to: config.status), !status.message.hasSuffix(problem) {
            log("signd-matrix: status file: \(problem)")
        }
    }

    /// Sleeps `nanoseconds` in steps of at most 0.1 s; true when `stopping()` turned true.
    private func pause(_ nanoseconds: UInt64, _ stopping: () -> Bool) -> Bool {
        var left = nanoseconds
        while left > 0 {
            if stopping() { return true }
            let step = min(left, 100_000_000)
            var request = timespec(tv_sec: 0, tv_nsec: Int(step))
            nanosleep(&request, nil)
            left -= step
        }
        return stopping()
    }

    /// The name of `user`'s primary group ("" when unknown).
    static func group(of user: String) -> String {
        guard let entry = getpwnam(user), let group = getgrgid(entry.pointee.pw_gid) else { return "" }
        return String(cString: group.pointee.gr_name)
    }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}
