import SignControl

/// `GET /metrics`: what `status` says, in Prometheus's text exposition format (version
/// 0.0.4), for a fleet's dashboards. Read from one `status` result, so the two never
/// disagree, and from the frame clock's lateness histogram. Names are stable and follow
/// Prometheus's conventions: `signd_` first, counters end in `_total`, units in the name.
enum Metrics {
    /// The content type Prometheus asks for.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Bucket bounds of the lateness histogram, in seconds.
    static let latenessBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    /// The exposition of `status`, `lateness` and `memory` (read for bytes: `status` rounds
    /// to hundredths of a MiB).
    static func exposition(status: Status, lateness: LatenessHistogram, memory: ProcessMemory) -> String {
        var out = Exposition()
        out.family("signd_build_info", .gauge, "signd's release and the commit it was built from")
        out.sample("signd_build_info", ["version": status.version, "commit": status.commit], 1)
        out.gauge("signd_uptime_seconds", "Seconds since signd started", status.uptime)
        out.gauge("signd_fps", "Frames a second the frame clock runs at", status.fps)
        out.counter("signd_frames_total", "Frames shown", Double(status.frames))
        out.counter(
            "signd_frames_dropped_total", "Frames skipped because the clock fell behind", Double(status.dropped))
        out.counter("signd_frame_stalls_total", "Frames three or more frame periods late", Double(status.stalls))
        out.counter("signd_frame_stalls_own_total", "Stalls signd's own work caused", Double(status.stallsOwn))

        out.family("signd_frame_lateness_seconds", .histogram, "How late each frame came after its deadline")
        for bound in latenessBounds {
            let count = lateness.count(atMost: UInt64((bound * 1e9).rounded()))
            out.sample("signd_frame_lateness_seconds_bucket", ["le": Exposition.number(bound)], Double(count))
        }
        out.sample("signd_frame_lateness_seconds_bucket", ["le": "+Inf"], Double(lateness.count))
        out.sample("signd_frame_lateness_seconds_sum", [:], Double(lateness.sum) / 1e9)
        out.sample("signd_frame_lateness_seconds_count", [:], Double(lateness.count))

        out.gauge("signd_brightness", "The brightness the frame shows, 0 to 1", status.brightness)
        out.gauge("signd_display_on", "1 while the display is on", status.display == .off ? 0 : 1)
        out.gauge("signd_notifications_queued", "Notifications waiting to be shown", Double(status.queued))
        out.gauge("signd_notification_showing", "1 while a notification is shown", status.notification == nil ? 0 : 1)
        out.gauge("signd_resident_memory_bytes", "Resident memory", Double(memory.residentBytes))
        out.gauge("signd_heap_bytes", "Heap allocated and not freed", Double(memory.heapInUseBytes))

        let outputs = status.outputs
        out.family("signd_output_up", .gauge, "1 while an output delivers frames (state ok)")
        for o in outputs { out.sample("signd_output_up", labels(o), o.state == .ok ? 1 : 0) }
        out.family("signd_output_state", .gauge, "An output's state: 1 for the state it is in")
        for o in outputs {
            for state in OutputStatus.State.allCases {
                var l = labels(o)
                l["state"] = state.rawValue
                out.sample("signd_output_state", l, o.state == state ? 1 : 0)
            }
        }
        let counted = outputs.compactMap { o in o.counters.map { (o, $0) } }
        for (key, name, help) in [
            (\OutputStatus.Counters.framesSent, "signd_output_frames_total", "Frames an output delivered"),
            (\.dropped, "signd_output_dropped_total", "Frames an output replaced by a newer one before sending"),
            (\.errors, "signd_output_errors_total", "An output's failed writes, opens and creations"),
            (\.reconnects, "signd_output_reconnects_total", "Times an output came back after it left"),
        ] where !counted.isEmpty {
            out.family(name, .counter, help)
            for (o, counters) in counted { out.sample(name, labels(o), Double(counters[keyPath: key])) }
        }

        let streams = status.streams
        if !streams.isEmpty {
            func streamLabels(_ s: StreamStatus) -> [String: String] { ["layer": s.layer, "protocol": s.protocol] }
            out.family("signd_stream_up", .gauge, "1 while a stream layer shows frames that come")
            for s in streams { out.sample("signd_stream_up", streamLabels(s), s.state == .ok ? 1 : 0) }
            out.family("signd_stream_packets_total", .counter, "Packets a stream layer received")
            for s in streams { out.sample("signd_stream_packets_total", streamLabels(s), Double(s.packets)) }
            out.family("signd_stream_frames_total", .counter, "Whole frames a stream layer assembled")
            for s in streams { out.sample("signd_stream_frames_total", streamLabels(s), Double(s.frames)) }
            out.family("signd_stream_rejected_total", .counter, "Packets a stream layer refused, by reason")
            for s in streams {
                for (reason, count) in s.rejected.sorted(by: { $0.key < $1.key }) {
                    var l = streamLabels(s)
                    l["reason"] = reason
                    out.sample("signd_stream_rejected_total", l, Double(count))
                }
            }
        }
        if let mqtt = status.mqtt {
            out.gauge("signd_mqtt_connected", "1 while connected to the MQTT broker", mqtt.state == .ok ? 1 : 0)
        }
        if let web = status.web {
            out.gauge("signd_web_viewers", "Live viewers of the web page", Double(web.viewers))
        }
        return out.text
    }

    private static func labels(_ output: OutputStatus) -> [String: String] {
        ["output": output.name, "type": output.type]
    }
}

/// The text of an exposition, written family by family.
private struct Exposition {
    enum Kind: String { case counter, gauge, histogram }

    var text = ""

    mutating func family(_ name: String, _ kind: Kind, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
    }

    mutating func sample(_ name: String, _ labels: [String: String], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{"
            text += labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\(Self.escaped($0.value))\"" }
                .joined(separator: ",")
            text += "}"
        }
        text += " \(Self.number(value))\n"
    }

    mutating func gauge(_ name: String, _ help: String, _ value: Double) {
        family(name, .gauge, help)
        sample(name, [:], value)
    }

    mutating func counter(_ name: String, _ help: String, _ value: Double) {
        family(name, .counter, help)
        sample(name, [:], value)
    }

    /// A label value with `\`, `"` and line feeds escaped, as the format asks.
    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    /// A sample value: whole numbers without a fraction, others as Swift writes them.
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
