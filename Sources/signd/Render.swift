import ArgumentParser
import Foundation
import SignConfig
import SignDaemon
import SignGraphics
import SignScene

/// `signd render`: the configured scene, offline, as fast as it renders.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the configured scene offline: frame k at time k / fps, no timer, no devices.")

    @Option(help: "The config file.", completion: .file(extensions: ["toml"]))
    var config: String

    @Option(help: "How many frames.")
    var frames: Int

    @Option(help: "Frames per second (default: the config's display.fps).")
    var fps: Double?

    @Option(
        help:
            "Where to write: .gif (every frame, animated, looping), .png (the last frame) or .rgb (raw RGB888 frames back to back); none renders and discards."
    )
    var out: String?

    @Option(help: "Enlarge .gif and .png output by this whole factor, pixel for pixel, 1 to 16.")
    var scale: Int = 1

    @Option(
        help:
            "The wall-clock instant of frame 0, for live fields (ISO 8601, e.g. 2026-03-29T01:59:58+01:00; default: now)."
    )
    var at: String?

    func validate() throws {
        guard (1...16).contains(scale) else { throw ValidationError("--scale must be from 1 to 16") }
        guard frames > 0 else { throw ValidationError("--frames must be at least 1") }
        if let fps, !(fps > 0 && fps <= 1000) { throw ValidationError("--fps must be between 0 and 1000") }
        if let out, ![".gif", ".png", ".rgb"].contains(where: { out.hasSuffix($0) }) {
            throw ValidationError("--out must end in .gif, .png or .rgb")
        }
        if let at, LiveFields.instant(at) == nil {
            throw ValidationError("--at must be an ISO-8601 instant with its offset, e.g. 2026-03-29T01:59:58+01:00")
        }
    }

    func run() throws {
        let fonts = try FontLibrary()
        let loaded: DaemonConfig
        do {
            loaded = try ConfigLoader.load(path: config, fonts: fonts)
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(1)
        }
        let rate = fps ?? loaded.display.fps
        // Live fields follow a wall clock that starts at --at: each minute's (or second's)
        // texts are prepared before the frame the turn falls on and shown from it, as the
        // daemon's field clock does.
        let start = at.flatMap(LiveFields.instant) ?? Date()
        let store = try SceneStore(
            config: loaded.scene, fonts: fonts,
            fieldValues: LiveFields.Values(timeZone: Daemon.timeZone(loaded.display)),
            at: start)
        var turn = store.nextFieldChange(after: start)
        var frame = Frame(width: loaded.display.width, height: loaded.display.height)
        let renderer = Renderer(width: frame.width, height: frame.height)
        // The file is opened before rendering, so a path that cannot be written is told, with
        // the reason, before a long render rather than after it.
        var file: FileHandle?
        if let out {
            let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                writeStandardError("signd: cannot write \(out): \(String(cString: strerror(errno)))\n")
                throw ExitCode(1)
            }
            file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        }
        let raw = out?.hasSuffix(".rgb") == true ? file : nil
        var gif =
            out?.hasSuffix(".gif") == true
            ? GIFEncoder(width: frame.width * scale, height: frame.height * scale, fps: rate) : nil
        // Only rendering is timed: the summary line is the renderer's speed.
        var seconds = 0.0
        for k in 0..<frames {
            let t = Double(k) / rate
            while let due = turn, due.timeIntervalSince(start) <= t {
                let from = (due.timeIntervalSince(start) * rate - 1e-9).rounded(.up) / rate
                store.refreshFields(at: due, from: from, now: max(0, Double(k - 1) / rate))
                turn = store.nextFieldChange(after: due)
            }
            let scene = store.scene
            let began = Date()
            renderer.render(scene, at: t, into: &frame)
            seconds += Date().timeIntervalSince(began)
            if let raw { raw.write(Data(frame.pixels)) }
            gif?.add(frame.enlarged(by: scale))
        }
        do {
            if let gif { try file?.write(contentsOf: gif.encode()) }
            try file?.close()
            if let out, out.hasSuffix(".png") { try PNGImage.write(frame.enlarged(by: scale), to: out) }
        } catch let error as PNGImage.Error {
            writeStandardError("signd: cannot write \(error.path): \(error.message)\n")
            throw ExitCode(1)
        } catch {
            writeStandardError("signd: cannot write \(out ?? ""): \(error.localizedDescription)\n")
            throw ExitCode(1)
        }
        writeStandardError(
            "rendered \(frames) frames \(frame.width)x\(frame.height) in \(String(format: "%.3f", seconds)) s (\(String(format: "%.0f", Double(frames) / max(seconds, 1e-9))) frames/s)\n"
        )
    }
}
