import SignControl
import SignOutput
import SignScene

/// What `status`, systemd's STATUS line and every transport report: one reading of the
/// scene on screen now, so they never disagree. A text waiting for the end of a loop (or
/// for a request's `at`) is reported as `pending`, never as shown.
enum StatusReport {
    /// An output in `status`: name, type, state, and the counters of outputs that keep them.
    static func describe(_ output: any FrameSink) -> JSONValue {
        var entry: [String: JSONValue] = [
            "name": .string(output.name), "type": .string(output.kind), "state": .string(output.state.rawValue),
        ]
        if let c = output.counters {
            entry["frames_sent"] = .int(Int64(c.framesSent))
            entry["dropped"] = .int(Int64(c.dropped))
            entry["errors"] = .int(Int64(c.errors))
            entry["reconnects"] = .int(Int64(c.reconnects))
            entry["last_error"] = c.lastError.map { .string($0) } ?? .null
            entry["device"] = c.device.map { .string($0) } ?? .null
        }
        return .object(entry)
    }

    /// A stream layer's receiver in `status`: its layer, where it listens, its state, what came.
    static func describe(_ receiver: StreamReceiver) -> JSONValue {
        let r = receiver.current
        var rejected: [String: JSONValue] = [:]
        for (reason, count) in r.counters.rejected { rejected[reason] = .int(Int64(count)) }
        return [
            "layer": .string(receiver.input.layerID),
            "protocol": .string(receiver.input.wire.rawValue),
            "listen": .string("\(receiver.input.listen):\(receiver.input.port)"),
            "state": .string(r.state.rawValue),
            "showing": .bool(r.showing),
            "packets": .int(Int64(r.counters.packets)),
            "frames": .int(Int64(r.counters.frames)),
            "rejected": .object(rejected),
            "last_frame_s": r.lastFrameAge.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
            "last_error": r.lastError.map { .string($0) } ?? .null,
        ]
    }

    /// signd's memory in `status`, in MB: resident and heap in use.
    static func describe(_ memory: ProcessMemory) -> JSONValue {
        func mb(_ bytes: Int) -> JSONValue { .double((Double(bytes) / 1_048_576 * 100).rounded() / 100) }
        return ["rss_mb": mb(memory.residentBytes), "heap_mb": mb(memory.heapInUseBytes)]
    }

    /// The main layer's text on screen at scene time `now`, and its pending change.
    static func mainText(_ scene: PreparedScene, at now: Double) -> (
        shown: String, pending: (text: String, from: Double)?
    ) {
        guard let index = scene.scene.mainLayerID.flatMap(scene.slotIndex(of:)) else { return ("", nil) }
        return (scene.text(ofLayer: index, at: now), scene.pendingText(ofLayer: index, at: now))
    }

    static func pending(_ p: (text: String, from: Double)) -> JSONValue {
        ["text": .string(p.text), "from": .double((p.from * 1000).rounded() / 1000)]
    }
}

extension ControlPlane {
    /// The `status` result: what is shown, how the clock keeps time, how the outputs fare.
    func status() -> [String: JSONValue] {
        let scene = store.scene
        let now = clock.sceneTime()
        let stats = clock.stats
        let layers: [JSONValue] = scene.scene.layers.indices.map { i in
            var entry: [String: JSONValue] = ["id": .string(scene.scene.layers[i].id)]
            if scene.scene.layers[i].text != nil {
                let text = scene.text(ofLayer: i, at: now)
                entry["text"] = .string(text)
                // With live fields, what the board shows now.
                let slot = scene.slots[i]
                if let shown = slot.layer(at: slot.localTime(now)).shownText, shown != text {
                    entry["shown"] = .string(shown)
                }
            }
            if let pending = scene.pendingText(ofLayer: i, at: now) { entry["pending"] = StatusReport.pending(pending) }
            if case .spotlight(let s) = scene.scene.layers[i] {
                entry["zone"] = .string(s.zones[s.selected].name ?? String(s.selected))
            }
            if scene.slots[i].pausedAt != nil { entry["stopped"] = true }
            return .object(entry)
        }
        func ms(_ ns: UInt64) -> JSONValue { .double((Double(ns) / 1e3).rounded() / 1e3) }
        let main = StatusReport.mainText(scene, at: now)
        var result: [String: JSONValue] = [
            "text": .string(main.shown),
            "fps": .double(clock.fps),
            "frames": .int(Int64(stats.frames)),
            "dropped": .int(Int64(stats.dropped)),
            "stalls": .int(Int64(stats.stalls)),
            "stalls_own": .int(Int64(stats.ownStalls)),
            "version": .string(SignVersion.number), "commit": .string(SignVersion.commit),
            "uptime_s": .double((Double(MonotonicClock.now() - startedAt) / 1e6).rounded() / 1e3),
            "width": .int(Int64(scene.scene.width)),
            "height": .int(Int64(scene.scene.height)),
            "lateness_ms": [
                "p50": ms(stats.lateness.quantile(0.5)), "p99": ms(stats.lateness.quantile(0.99)),
                "max": ms(stats.lateness.max),
            ],
            "layers": .array(layers),
            "outputs": .array(hooks.outputs().map(StatusReport.describe)),
            "streams": .array(hooks.streams().map(StatusReport.describe)),
            "memory": StatusReport.describe(ProcessMemory.current()),
            "scene": store.runtime.loaded.map { .string($0.path) } ?? .null,
            "brightness": .double((display.setting(at: now).brightness * 1000).rounded() / 1000),
            "display": .string(display.isOn ? "on" : "off"),
        ]
        let notices = notifications.status(now: now)
        result["notification"] =
            notices.showing.map {
                [
                    "id": .int(Int64($0.id)), "layer": .string($0.layer), "text": .string($0.text),
                    "priority": .int(Int64($0.priority)),
                ]
            } ?? .null
        result["queued"] = .int(Int64(notices.queued))
        result["vars"] = .object(store.variables.mapValues { .string($0) })
        result["playlist"] = hooks.playlistStatus()
        result["playlists"] = .array(hooks.playlists().map { .string($0) })
        result["web"] = hooks.web()
        result["mqtt"] = hooks.mqtt()
        if let window = hooks.window() {
            // The board's own size; the sign's in `canvas`.
            result["width"] = .int(Int64(window.board.0))
            result["height"] = .int(Int64(window.board.1))
            result["canvas"] = [.int(Int64(window.canvas.0)), .int(Int64(window.canvas.1))]
            result["viewport"] = [.int(Int64(window.board.2)), .int(Int64(window.board.3))]
        }
        let timeline = clock.timelineStatus
        result["timeline"] = .string(timeline.kind)
        if timeline.kind == "realtime" {
            result["clock_steps"] = .int(Int64(timeline.steps))
            result["last_clock_step_ms"] = .double(timeline.lastStepMilliseconds)
        }
        if let id = scene.scene.mainLayerID, let i = scene.slotIndex(of: id), case .object(let layer) = layers[i],
            let shown = layer["shown"]
        {
            result["shown"] = shown
        }
        let fade = display.fade
        if fade.value(at: now) != fade.to {
            result["brightness_fade"] = ["to": .double(fade.to), "until": .double(fade.start + fade.duration)]
        }
        if let pending = main.pending { result["pending"] = StatusReport.pending(pending) }
        return result
    }

    /// `STATUS=` for systemd: frame rate, the main text on screen (and a pending one), the
    /// outputs and their states; one line, whatever the texts contain.
    func statusLine() -> String {
        let main = StatusReport.mainText(store.scene, at: clock.sceneTime())
        func short(_ text: String) -> String {
            let shown = text.escapingControlCharacters
            return shown.count > 60 ? String(shown.prefix(57)) + "..." : shown
        }
        let next = main.pending.map { " (next: \"\(short($0.text))\")" } ?? ""
        let outputs = hooks.outputs().map { "\($0.name.escapingControlCharacters) \($0.state.rawValue)" }
            .joined(separator: ", ")
        let shown = display.isOn ? "\"\(short(main.shown))\"\(next)" : "display off"
        return "STATUS=\(clock.fps.formatted) fps · \(shown) · outputs: \(outputs.isEmpty ? "none" : outputs)"
    }
}
