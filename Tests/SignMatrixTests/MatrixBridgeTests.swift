import Foundation
import Glibc
import SignGraphics
import SignOutput
import SignMatrix
import Testing

/// signd-matrix, the real executable, against a stand-in for rpi-rgb-led-matrix that the
/// test compiles from standin/rgbmatrix-standin.c: it records the options it was opened
/// with and every canvas swapped in. The frames come from a real shm framebuffer written
/// here as signd writes it. The stand-in is not a Pi: the GPIO timing is not tested.
final class MatrixRig {
    let dir: URL
    let record: URL
    let status: URL
    let library: String
    let output = "mtest-\(UInt32.random(in: 0...UInt32.max))"
    var process: Process?
    var stderr = Pipe()

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized
    /// The build directory holding signd-matrix: next to the test bundle.
    static let bin: URL = {
        if let dir = ProcessInfo.processInfo.environment["SIGND_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).standardized
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("signd-matrix").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("signd-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        record = dir.appendingPathComponent("record.txt")
        status = dir.appendingPathComponent("status.json")
        library = dir.appendingPathComponent("librgbmatrix-standin.so").path
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = [
            "cc", "-shared", "-fPIC", "-O1", "-o", library,
            Self.root.appendingPathComponent("Tests/SignMatrixTests/standin/rgbmatrix-standin.c").path,
        ]
        try cc.run()
        cc.waitUntilExit()
        #expect(cc.terminationStatus == 0, "cc could not build the stand-in library")
    }

    deinit {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        shm_unlink("/signd.\(output)")
        try? FileManager.default.removeItem(at: dir)
    }

    /// Whether the tests run as root: then signd-matrix drops to `nobody` after opening the
    /// panels, as it drops to its own user on a Pi, and reads a framebuffer of nobody's group.
    static let asRoot = getuid() == 0

    /// A framebuffer as signd makes it for the bridge: mode 0640, the bridge's group.
    func framebuffer(width: Int = 64, height: Int = 16) throws -> SharedMemoryFramebuffer {
        try SharedMemoryFramebuffer(
            name: output, width: width, height: height, fps: 60, gid: Self.asRoot ? getpwnam("nobody")?.pointee.pw_gid : nil)
    }

    /// Starts signd-matrix with `toml` as its config file and `flags` after it.
    func start(toml: String, flags: [String] = [], environment: [String: String] = [:], library: String? = nil) throws {
        let config = dir.appendingPathComponent("matrix.toml")
        try (toml.contains("user =") ? toml : toml + "user = \"nobody\"\n").write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = Self.bin.appendingPathComponent("signd-matrix")
        process.arguments =
            [
                "--config", config.path, "--output", output, "--library", library ?? self.library, "--status",
                status.path,
            ] + flags
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["STANDIN_RECORD": record.path].merging(environment) { $1 }) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        self.process = process
    }

    /// Stops signd-matrix with SIGTERM, as systemd does; its exit status.
    func stop() -> Int32 {
        guard let process else { return -1 }
        kill(process.processIdentifier, SIGTERM)
        if !wait({ !process.isRunning }) { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    var lines: [Substring] {
        let text = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
        return text.split(separator: "\n")
    }

    /// The canvases swapped in, in order, as their bytes.
    var frames: [[UInt8]] {
        lines.filter { $0.hasPrefix("frame ") }.map { line in
            let hex = line.split(separator: " ").last ?? ""
            var bytes: [UInt8] = []
            var iterator = hex.utf8.makeIterator()
            func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : c - 87 }
            while let hi = iterator.next(), let lo = iterator.next() { bytes.append(nibble(hi) << 4 | nibble(lo)) }
            return bytes
        }
    }

    /// The options line the stand-in recorded, as key=value pairs.
    var options: [String: String] {
        guard let line = lines.first(where: { $0.hasPrefix("options ") }) else { return [:] }
        var out: [String: String] = [:]
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { out[String(parts[0])] = String(parts[1]) }
        }
        return out
    }

    var statusJSON: [String: Any] {
        guard let data = FileManager.default.contents(atPath: status.path) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    /// Waits up to 20 s for `condition`, checking every 10 ms; whether it held. The bound
    /// only stops a hang: it is on the monotonic clock, never the behaviour's own timing.
    func wait(_ condition: () -> Bool) -> Bool {
        let end = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < end {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// A frame whose every pixel says which frame it is.
    static func picture(_ k: Int, width: Int = 64, height: Int = 16) -> Frame {
        Frame(
            width: width, height: height,
            pixels: (0..<width * height * 3).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ k &* 7 &+ 1) })
    }
}

@Suite("signd-matrix against the stand-in library", .serialized)
struct MatrixBridgeTests {
    static let panels = "rows = 16\ncols = 32\nchain = 2\n"

    @Test("every option from the config file and the flags reaches the library under hzeller's field, a flag winning")
    func optionMapping() throws {
        let rig = try MatrixRig()
        try rig.start(
            toml: """
                rows = 64
                cols = 64
                chain = 3
                parallel = 2
                gpio_mapping = "adafruit-hat-pwm"
                slowdown_gpio = 4
                pwm_bits = 9
                pwm_lsb_nanoseconds = 200
                pwm_dither_bits = 1
                brightness = 70
                scan_mode = 1
                row_addr_type = 2
                multiplexing = 3
                rgb_sequence = "RBG"
                pixel_mapper = "U-mapper;Rotate:90"
                panel_type = "FM6126A"
                limit_refresh = 120
                no_hardware_pulse = true
                inverse = true
                user = "nobody"
                """,
            flags: ["--led-brightness=55", "--led-chain", "2", "--led-show-refresh"])
        #expect(rig.wait { !rig.options.isEmpty && rig.frames.count >= 1 })
        let o = rig.options
        let expected = [
            "hardware_mapping": "adafruit-hat-pwm", "rows": "64", "cols": "64", "chain_length": "2", "parallel": "2",
            "pwm_bits": "9", "pwm_lsb_nanoseconds": "200", "pwm_dither_bits": "1", "brightness": "55", "scan_mode": "1",
            "row_address_type": "2", "multiplexing": "3", "disable_hardware_pulsing": "1", "show_refresh_rate": "1",
            "inverse_colors": "1", "led_rgb_sequence": "RBG", "pixel_mapper_config": "U-mapper;Rotate:90",
            "panel_type": "FM6126A", "limit_refresh_rate_hz": "120", "gpio_slowdown": "4", "daemon": "0",
            "do_gpio_init": "1",
        ]
        for (key, value) in expected { #expect(o[key] == value, "\(key): \(o[key] ?? "absent"), expected \(value)") }
        // As root, the library is asked to drop to the user, and signd-matrix runs on as it;
        // otherwise there is nothing to drop.
        if MatrixRig.asRoot {
            #expect(o["drop_privileges"] == "1" && o["drop_priv_user"] == "nobody" && o["drop_priv_group"] == String(cString: getgrgid(getpwnam("nobody")!.pointee.pw_gid)!.pointee.gr_name))
            let owner = try? FileManager.default.attributesOfItem(atPath: "/proc/\(rig.process!.processIdentifier)")[.ownerAccountID] as? Int
            #expect(owner == Int(getpwnam("nobody")!.pointee.pw_uid), "signd-matrix runs as nobody after opening")
        } else {
            #expect(o["drop_privileges"] == "0")
        }
        #expect(rig.wait { rig.statusJSON["panels"] as? String == "128x128" })
        #expect(rig.stop() == 0)
        #expect(rig.lines.last == "delete", "the library's matrix is deleted on SIGTERM")
    }

    @Test("every frame signd publishes is shown, in order, each exactly once; stopping signd blanks the panels")
    func everyFrameInOrder() throws {
        let rig = try MatrixRig()
        let fb = try rig.framebuffer()
        try rig.start(toml: MatrixBridgeTests.panels)
        // The panels open black.
        #expect(rig.wait { rig.frames.count >= 1 })
        for k in 1...40 {
            fb.send(MatrixRig.picture(k), number: UInt64(k), deadline: 0, display: .full)
            #expect(rig.wait { rig.frames.count >= k + 1 }, "frame \(k) was not shown")
        }
        let frames = rig.frames
        #expect(frames.count == 41, "no frame shown twice: \(frames.count)")
        #expect(frames.first?.allSatisfy { $0 == 0 } == true)
        #expect(Array(frames.dropFirst()) == (1...40).map { MatrixRig.picture($0).pixels })
        #expect(rig.wait { rig.statusJSON["state"] as? String == "showing" && rig.statusJSON["last_frame"] as? Int == 40 })
        // What `signctl status` prints of it.
        #expect(MatrixStatus.line(at: rig.status.path) == "showing, panels 64x16, 40 frames shown (last 40)")

        fb.stop()
        #expect(rig.wait { rig.frames.count == 42 }, "stopping signd blanks the panels")
        #expect(rig.frames.last?.allSatisfy { $0 == 0 } == true)
        #expect(rig.wait { rig.statusJSON["state"] as? String == "stopped" })
        #expect(rig.stop() == 0)
    }

    @Test("a framebuffer that vanishes is waited for; one made anew (signd restarted) is opened and shown")
    func reconnect() throws {
        let rig = try MatrixRig()
        var fb = try rig.framebuffer()
        try rig.start(toml: MatrixBridgeTests.panels)
        fb.send(MatrixRig.picture(1), number: 1, deadline: 0, display: .full)
        #expect(rig.wait { rig.frames.count == 2 && rig.statusJSON["state"] as? String == "showing" })

        // Gone without the stopped flag (signd killed, the object removed): waited for, black.
        shm_unlink("/signd.\(rig.output)")
        #expect(rig.wait { rig.statusJSON["state"] as? String == "waiting" })
        #expect(rig.wait { rig.frames.count == 3 } && rig.frames.last?.allSatisfy { $0 == 0 } == true)
        #expect(rig.process?.isRunning == true)

        // signd back: a new object, numbered from 1 again.
        fb = try rig.framebuffer()
        for k in 1...5 {
            fb.send(MatrixRig.picture(100 + k), number: UInt64(k), deadline: 0, display: .full)
            #expect(rig.wait { rig.frames.count >= 3 + k }, "frame \(k) after the restart was not shown")
        }
        #expect(Array(rig.frames.suffix(5)) == (101...105).map { MatrixRig.picture($0).pixels })

        // Replaced while open (a restart faster than a look): the new object is read.
        fb = try rig.framebuffer()
        fb.send(MatrixRig.picture(200), number: 1, deadline: 0, display: .full)
        #expect(rig.wait { rig.frames.last == MatrixRig.picture(200).pixels })
        #expect(rig.wait { rig.statusJSON["reconnects"] as? Int == 2 })
        #expect(rig.stop() == 0)
    }

    @Test("a framebuffer of another size is named with both sizes and waited for; the right size is then shown")
    func otherSize() throws {
        let rig = try MatrixRig()
        var fb = try rig.framebuffer(width: 32)
        fb.send(MatrixRig.picture(1, width: 32), number: 1, deadline: 0, display: .full)
        try rig.start(toml: MatrixBridgeTests.panels)
        #expect(
            rig.wait {
                rig.statusJSON["state"] as? String == "error"
                    && (rig.statusJSON["message"] as? String)?.contains("is 32x16 but the panels show 64x16") == true
            })
        #expect(rig.frames.count == 1, "only the opening black")
        fb = try rig.framebuffer()
        fb.send(MatrixRig.picture(2), number: 1, deadline: 0, display: .full)
        #expect(rig.wait { rig.frames.last == MatrixRig.picture(2).pixels })
        #expect(rig.stop() == 0)
    }

    @Test("a missing library is named with what to install and waited for; refused options end with status 1")
    func missingLibrary() throws {
        let rig = try MatrixRig()
        try rig.start(toml: MatrixBridgeTests.panels, library: rig.dir.appendingPathComponent("librgbmatrix.so.1").path)
        #expect(
            rig.wait {
                (rig.statusJSON["message"] as? String)?.contains("cannot load") == true
                    && (rig.statusJSON["message"] as? String)?.contains("rpi-rgb-led-matrix") == true
            })
        #expect(rig.statusJSON["state"] as? String == "waiting" && rig.process?.isRunning == true)
        #expect(rig.stop() == 0)

        let refused = try MatrixRig()
        try refused.start(toml: MatrixBridgeTests.panels, environment: ["STANDIN_REFUSE": "1"])
        #expect(refused.wait { refused.process?.isRunning == false })
        #expect(refused.process?.terminationStatus == 1)
        #expect((refused.statusJSON["message"] as? String)?.contains("refused the panel options") == true)
    }

    @Test("a config problem is FILE:LINE: key: message, and signd-matrix does not start")
    func configProblem() throws {
        let rig = try MatrixRig()
        try rig.start(toml: "rows = 16\npwm_bits = 12\nrowz = 3\n")
        #expect(rig.wait { rig.process?.isRunning == false })
        #expect(rig.process?.terminationStatus == 1)
        let text = String(decoding: rig.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("matrix.toml:2: pwm_bits:"), "\(text)")
        #expect(text.contains("matrix.toml:3: rowz: unknown key (did you mean \"rows\"?)"), "\(text)")
    }
}
