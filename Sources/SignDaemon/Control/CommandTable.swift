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
        func row<C: ControlCommand, R: Encodable>(
            _ type: C.Type, _ lane: Lane, preparesAhead: Bool = false,
            _ body: @escaping @Sendable (ControlPlane, C, Context) throws(ControlError) -> R
        ) {
            table[C.name] = Entry(lane: lane, preparesAhead: preparesAhead) {
                plane, command, context throws(ControlError) in
                let value = try body(plane, command as! C, context)
                // `{}` as it is: encoding even an empty result through Codable's generic
                // containers is code a `ping` would otherwise bring into memory.
                if R.self == EmptyResult.self { return [:] }
                return try result(value)
            }
        }

        row(Request.Ping.self, .inline) { _, _, _ in EmptyResult() }
        row(Request.Status.self, .inline) { plane, _, _ in plane.status() }
        row(Request.Subscribe.self, .inline) { plane, command, context throws(ControlError) in
            guard let subscriber = context.subscriber else {
                throw ControlError(.invalidArgument, "events are not delivered over \(context.source.rawValue)")
            }
            let events = Set(command.events ?? EventName.allCases)
            plane.events.subscribe(subscriber, to: events)
            return Subscribed(events: events.sorted { $0.rawValue < $1.rawValue })
        }
        row(Request.Outputs.self, .listing) { plane, _, _ throws(ControlError) in
            let outputs = plane.show.outputs
            return OutputsResult(
                outputs: outputs.map(StatusReport.describe), devices: try USBDeviceList.devices(outputs: outputs))
        }
        row(Request.SetText.self, .changes, preparesAhead: true) { plane, command, context throws(ControlError) in
            try plane.show.setText(
                command.text, layer: command.layer, when: PreparedScene.When(command.when ?? .now),
                transition: try plane.transition(command), now: context.now, from: context.from, source: context.source)
            return EmptyResult()
        }
        row(Request.SelectZone.self, .changes) { plane, command, context throws(ControlError) in
            try plane.show.selectZone(command.zone, layer: command.layer, now: context.now)
            return EmptyResult()
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
            try plane.show.setProperty(property, to: value, raw: command.value, layer: command.layer, now: context.now)
            return EmptyResult()
        }
        row(Request.Stop.self, .changes) { plane, command, context throws(ControlError) in
            try plane.show.setRunning(false, layer: command.layer, now: context.now)
            return EmptyResult()
        }
        row(Request.Start.self, .changes) { plane, command, context throws(ControlError) in
            try plane.show.setRunning(true, layer: command.layer, now: context.now)
            return EmptyResult()
        }
        row(Request.Notify.self, .changes) { plane, command, context throws(ControlError) in
            let transition = command.transition.map { Transition(kind: Transition.Kind($0)) }
            return Notified(notification: try plane.show.notify(command, transition: transition, now: context.now))
        }
        row(Request.Dismiss.self, .changes) { plane, command, context throws(ControlError) in
            try plane.show.dismiss(command.all ? nil : command.notification, now: context.now)
            return EmptyResult()
        }
        row(Request.SetVar.self, .changes) { plane, command, context throws(ControlError) in
            try plane.show.setVariable(command.variable, to: command.value, now: context.now)
            return EmptyResult()
        }
        row(Request.Playlist.self, .changes) { plane, command, _ throws(ControlError) in
            try plane.show.playlist(command)
            return EmptyResult()
        }
        row(Request.SetBrightness.self, .changes) { plane, command, context in
            plane.show.setBrightness(
                command.value, duration: command.duration ?? 0, now: context.now, source: context.source)
            return EmptyResult()
        }
        row(Request.Display.self, .changes) { plane, command, _ in
            plane.show.setDisplay(on: command.state == .on)
            return EmptyResult()
        }
        /// A file read on request: refused with every problem, or in effect.
        @Sendable func applied(_ problems: [ConfigProblem], refusal: String) throws(ControlError) -> EmptyResult {
            guard problems.isEmpty else {
                throw ControlError(
                    .invalidArgument, refusal + ":\n" + problems.map(\.description).joined(separator: "\n"))
            }
            return EmptyResult()
        }
        row(Request.LoadScene.self, .changes) { plane, command, context throws(ControlError) in
            try applied(plane.show.loadScene(command.path, source: context.source), refusal: "the scene was not loaded")
        }
        row(Request.Reload.self, .changes) { plane, _, _ throws(ControlError) in
            try applied(plane.show.reload(), refusal: "the config was not reloaded")
        }
        return table
    }()

    /// The transition a `set-text` asks for; `nil` is the layer's own.
    func transition(_ command: Request.SetText) throws(ControlError) -> Transition? {
        guard let kind = command.transition else { return nil }
        var transition = Transition(kind: Transition.Kind(kind))
        if let duration = command.duration { transition.duration = duration }
        if let text = command.timingFunction {
            guard let function = TimingFunction(parsing: text) else {
                throw ControlError(.invalidArgument, "\"timing_function\": \"\(text)\" is not a timing function")
            }
            transition.timingFunction = function
        }
        return transition
    }

    /// A typed result as the object a response carries.
    static func result(_ value: some Encodable) throws(ControlError) -> [String: JSONValue] {
        let json: JSONValue
        do {
            json = try JSONValue(encoding: value)
        } catch {
            throw ControlError(.internal, "a result could not be written: \(error)")
        }
        guard case .object(let object) = json else { throw ControlError(.internal, "a result is not an object") }
        return object
    }
}

// The renderer's words for a request's, case by case: a case added to either side fails to
// compile here instead of failing at run time.

extension PreparedScene.When {
    init(_ when: When) {
        switch when {
        case .now: self = .now
        case .loopEnd: self = .loopEnd
        }
    }
}

extension Transition.Kind {
    init(_ kind: TransitionKind) {
        switch kind {
        case .cut: self = .cut
        case .crossfade: self = .crossfade
        case .slide: self = .slide
        case .push: self = .push
        }
    }
}
