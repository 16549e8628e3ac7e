import Foundation
import SignConfig
import SignControl
import SignOutput
import SignScene
import SignTiming

/// The commands signd carries out, one row each: the request type, where it runs and what
/// it does. A new command is a new row; the plane and every transport stay as they are.
extension ControlPlane {
    static let commandTable: [String: Entry] = {
        var table: [String: Entry] = [:]
        func row<C: ControlCommand>(
            _ type: C.Type, _ lane: Lane, preparesAhead: Bool = false,
            _ body: @escaping @Sendable (ControlPlane, C, Context) throws(ControlError) -> [String: JSONValue]
        ) {
            table[C.name] = Entry(lane: lane, preparesAhead: preparesAhead) {
                plane, command, context throws(ControlError) in
                try body(plane, command as! C, context)
            }
        }

        row(Request.Ping.self, .inline) { _, _, _ in [:] }
        row(Request.Status.self, .inline) { plane, _, _ in plane.status() }
        row(Request.Subscribe.self, .inline) { plane, command, context throws(ControlError) in
            guard let subscriber = context.subscriber else {
                throw ControlError(.invalidArgument, "events are not delivered over \(context.source.rawValue)")
            }
            let events = Set(command.events ?? EventName.allCases)
            plane.events.subscribe(subscriber, to: events)
            return ["events": .array(events.map(\.rawValue).sorted().map { .string($0) })]
        }
        row(Request.Outputs.self, .listing) { plane, _, _ throws(ControlError) in
            let outputs = plane.hooks.outputs()
            return [
                "outputs": .array(outputs.map(StatusReport.describe)),
                "devices": .array(try USBDeviceList.devices(outputs: outputs)),
            ]
        }
        row(Request.SetText.self, .changes, preparesAhead: true) { plane, command, context throws(ControlError) in
            let transition = try plane.transition(command)
            let when = PreparedScene.When(rawValue: (command.when ?? .now).rawValue)!
            let appears = try plane.store.setText(
                command.text, layer: command.layer, when: when, now: context.now, from: context.from,
                transition: transition)
            plane.hooks.changed()
            // systemd's STATUS line follows the board: told again when a pending text shows.
            if let appears { plane.announceChange(atSceneTime: appears) }
            // Under notifications, the content that comes back is the new one.
            plane.notifications.refresh(
                layer: command.layer ?? plane.store.scene.scene.mainLayerID ?? "", now: context.now)
            return [:]
        }
        row(Request.SelectZone.self, .changes) { plane, command, context throws(ControlError) in
            try plane.store.selectZone(command.zone, layer: command.layer, now: context.now)
            plane.hooks.changed()
            return [:]
        }
        row(Request.SetProperty.self, .changes) { plane, command, context throws(ControlError) in
            guard let property = LayerProperty(keyPath: command.keyPath) else {
                let names = LayerProperty.allCases.map(\.keyPath)
                throw ControlError(
                    .invalidArgument,
                    "unknown key path \"\(command.keyPath)\"\(NearestWord.hint(names, for: command.keyPath)) (one of: \(names.sorted().joined(separator: ", ")))"
                )
            }
            let value = try PropertyValue.parse(command.value, for: property)
            try plane.store.setProperty(property, to: value, raw: command.value, layer: command.layer, now: context.now)
            plane.hooks.changed()
            return [:]
        }
        row(Request.Stop.self, .changes) { plane, command, context throws(ControlError) in
            try plane.store.setRunning(false, layer: command.layer, now: context.now)
            plane.hooks.changed()
            return [:]
        }
        row(Request.Start.self, .changes) { plane, command, context throws(ControlError) in
            try plane.store.setRunning(true, layer: command.layer, now: context.now)
            plane.hooks.changed()
            return [:]
        }
        row(Request.Notify.self, .changes) { plane, command, context throws(ControlError) in
            let transition = command.transition.map { Transition(kind: Transition.Kind(rawValue: $0.rawValue)!) }
            let id = try plane.notifications.notify(command, transition: transition, now: context.now)
            plane.hooks.changed()
            return ["notification": .int(Int64(id))]
        }
        row(Request.Dismiss.self, .changes) { plane, command, context throws(ControlError) in
            try plane.notifications.dismiss(command.all ? nil : command.notification, now: context.now)
            plane.hooks.changed()
            return [:]
        }
        row(Request.SetVar.self, .changes) { plane, command, context throws(ControlError) in
            try plane.store.setVariable(command.variable, to: command.value, now: context.now)
            plane.hooks.changed()
            return [:]
        }
        row(Request.Playlist.self, .changes) { plane, command, _ throws(ControlError) in
            if let error = plane.hooks.playlist(command) { throw error }
            plane.hooks.changed()
            return [:]
        }
        row(Request.SetBrightness.self, .changes) { plane, command, context in
            plane.display.setBrightness(
                command.value, duration: command.duration ?? 0, now: context.now,
                requestedAt: Date().timeIntervalSince1970)
            plane.hooks.changed()
            return [:]
        }
        row(Request.Display.self, .changes) { plane, command, _ in
            plane.display.setOn(command.state == .on)
            plane.hooks.changed()
            return [:]
        }
        /// A file read on request: refused with every problem, or in effect and told about.
        @Sendable func applied(_ problems: [ConfigProblem], refusal: String, _ plane: ControlPlane) throws(ControlError)
            -> [String: JSONValue]
        {
            guard problems.isEmpty else {
                throw ControlError(
                    .invalidArgument, refusal + ":\n" + problems.map(\.description).joined(separator: "\n"))
            }
            plane.hooks.changed()
            return [:]
        }
        row(Request.LoadScene.self, .changes) { plane, command, _ throws(ControlError) in
            try applied(plane.hooks.loadScene(command.path), refusal: "the scene was not loaded", plane)
        }
        row(Request.Reload.self, .changes) { plane, _, _ throws(ControlError) in
            try applied(plane.hooks.reload(), refusal: "the config was not reloaded", plane)
        }
        return table
    }()

    /// The transition a `set-text` asks for; `nil` is the layer's own.
    func transition(_ command: Request.SetText) throws(ControlError) -> Transition? {
        guard let kind = command.transition else { return nil }
        var transition = Transition(kind: Transition.Kind(rawValue: kind.rawValue)!)
        if let duration = command.duration { transition.duration = duration }
        if let text = command.timingFunction {
            guard let function = TimingFunction(parsing: text) else {
                throw ControlError(.invalidArgument, "\"timing_function\": \"\(text)\" is not a timing function")
            }
            transition.timingFunction = function
        }
        return transition
    }
}
