import SignControl
import SignOutput
import SignScene
import SignTiming

/// What `status`, systemd's STATUS line and every transport report: one reading of the
/// scene on screen now, so they never disagree. A text waiting for the end of a loop (or
/// for a request's `at`) is reported as `pending`, never as shown.
enum StatusReport {
    /// An output in `status`: name, type, state, and the counters of outputs that keep them.
    static func describe(_ output: any FrameSink) -> OutputStatus {
        OutputStatus(
            name: output.name, type: output.kind, state: state(output.state),
            counters: output.counters.map {
                OutputStatus.Counters(
                    framesSent: Int($0.framesSent), dropped: Int($0.dropped), errors: Int($0.errors),
                    reconnects: Int($0.reconnects), lastError: $0.lastError, device: $0.device)
            })
    }

    /// An output's state in the contract's words.
    static func state(_ state: SignOutput.OutputState) -> OutputStatus.State {
        switch state {
        case .ok: .ok
        case .waiting: .waiting
        case .error: .error
        }
    }

    /// A stream layer's receiver in `status`: its layer, where it listens, its state, what came.
    static func describe(_ receiver: StreamReceiver) -> StreamStatus {
        let r = receiver.current
        var rejected: [String: Int] = [:]
        for (reason, count) in r.counters.rejected { rejected[reason] = Int(count) }
        return StreamStatus(
            layer: receiver.input.layerID, protocol: receiver.input.wire.rawValue,
            listen: "\(receiver.input.listen):\(receiver.input.port)", state: state(r.state), showing: r.showing,
            packets: Int(r.counters.packets), frames: Int(r.counters.frames), rejected: rejected,
            lastFrame: r.lastFrameAge.map { ($0 * 1000).rounded() / 1000 }, lastError: r.lastError)
    }

    /// signd's memory in `status`, in MB: resident and heap in use.
    static func describe(_ memory: ProcessMemory) -> Status.Memory {
        func mb(_ bytes: Int) -> Double { (Double(bytes) / 1_048_576 * 100).rounded() / 100 }
        return Status.Memory(rss: mb(memory.residentBytes), heap: mb(memory.heapInUseBytes))
    }

    /// The main layer's text on screen at scene time `now`, and its pending change.
    static func mainText(_ scene: PreparedScene, at now: Double) -> (
        shown: String, pending: (text: String, from: Double)?
    ) {
        guard let index = scene.scene.mainLayerID.flatMap(scene.slotIndex(of:)) else { return ("", nil) }
        return (scene.text(ofLayer: index, at: now), scene.pendingText(ofLayer: index, at: now))
    }

    static func pending(_ p: (text: String, from: Double)) -> Status.Pending {
        Status.Pending(text: p.text, from: (p.from * 1000).rounded() / 1000)
    }
}

extension ControlPlane {
    /// The `status` result: what is shown, how the clock keeps time, how the outputs fare.
    func status() -> Status {
        let scene = store.scene
        let now = clock.sceneTime()
        let stats = clock.stats
        let layers: [Status.Layer] = scene.scene.layers.indices.map { i in
            var entry = Status.Layer(id: scene.scene.layers[i].id)
            if scene.scene.layers[i].text != nil {
                let text = scene.text(ofLayer: i, at: now)
                entry.text = text
                // With live fields, what the board shows now.
                let slot = scene.slots[i]
                if let shown = slot.layer(at: slot.localTime(now)).shownText, shown != text {
                    entry.shown = shown
                }
            }
            entry.pending = scene.pendingText(ofLayer: i, at: now).map(StatusReport.pending)
            if case .spotlight(let s) = scene.scene.layers[i] {
                entry.zone = s.zones[s.selected].name ?? String(s.selected)
            }
            if scene.slots[i].pausedAt != nil { entry.stopped = true }
            return entry
        }
        func ms(_ ns: UInt64) -> Double { (Double(ns) / 1e3).rounded() / 1e3 }
        let main = StatusReport.mainText(scene, at: now)
        let links = linkStatus
        let timeline = clock.timelineStatus
        let notices = notifications.status(now: now)
        var status = Status(
            text: main.shown, fps: clock.fps, frames: Int(stats.frames), dropped: Int(stats.dropped),
            stalls: Int(stats.stalls), stallsOwn: Int(stats.ownStalls), version: SignVersion.number,
            commit: SignVersion.commit,
            uptime: (Double(MonotonicClock.now() - startedAt) / 1e6).rounded() / 1e3,
            width: scene.scene.width, height: scene.scene.height,
            lateness: Status.Lateness(
                p50: ms(stats.lateness.quantile(0.5)), p99: ms(stats.lateness.quantile(0.99)),
                max: ms(stats.lateness.max)),
            layers: layers, outputs: show.outputs.map(StatusReport.describe),
            streams: show.streams.all.map(StatusReport.describe), memory: StatusReport.describe(ProcessMemory.current()),
            brightness: (display.setting(at: now).brightness * 1000).rounded() / 1000,
            display: display.isOn ? .on : .off, queued: notices.queued, timeline: timeline.kind)
        status.scene = store.runtime.loaded?.path
        status.notification = notices.showing.map {
            Status.Notification(id: $0.id, layer: $0.layer, text: $0.text, priority: $0.priority)
        }
        status.vars = store.variables
        status.playlist = show.playlistStatus
        status.playlists = show.playlistNames
        status.web = links.web
        status.mqtt = links.mqtt
        if let window = show.window {
            // The board's own size; the sign's in `canvas`.
            status.width = window.board.0
            status.height = window.board.1
            status.canvas = [window.canvas.0, window.canvas.1]
            status.viewport = [window.board.2, window.board.3]
        }
        if timeline.kind == "realtime" {
            status.clockSteps = timeline.steps
            status.lastClockStep = timeline.lastStepMilliseconds
        }
        if let id = scene.scene.mainLayerID, let i = scene.slotIndex(of: id) {
            status.shown = layers[i].shown
        }
        let fade = display.fade
        if fade.value(at: now) != fade.to {
            status.brightnessFade = Status.BrightnessFade(to: fade.to, until: fade.start + fade.duration)
        }
        status.pending = main.pending.map(StatusReport.pending)
        return status
    }

    /// `STATUS=` for systemd: the Show's line.
    func statusLine() -> String { show.statusLine() }
}
