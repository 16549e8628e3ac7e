import SignControl

/// Home Assistant's MQTT discovery configs for one sign (docs/contracts.md, "MQTT"), field for
/// field as Home Assistant's MQTT integration reads them: a `text` entity for the main text,
/// a `light` (the default schema: on/off is `display`, brightness is `set-brightness`), a
/// `select` of the playlists when there are any, and a `sensor` of dropped frames. Every
/// command is a request of the control protocol on `<topic>/cmd` (the text through its
/// plain-text shorthand `text/set`), so Home Assistant uses exactly the command language
/// every other client does. Every state is read from the retained `state`, which is never
/// empty; each template renders exactly what Home Assistant compares (tools/check-ha-templates
/// renders them with Jinja2 against the states a running signd publishes).
struct HomeAssistantDiscovery {
    /// Where Home Assistant says `online` when it (re)starts.
    static let statusTopic = "homeassistant/status"
    static let prefix = "homeassistant"
    /// The longest state Home Assistant keeps (its MAX_LENGTH_STATE_STATE); a longer one is
    /// refused and the entity keeps its old state.
    static let maxStateLength = 255

    /// Every config of `nodeID`'s entities.
    static func configPattern(nodeID: String) -> String { "\(prefix)/+/\(nodeID)/+/config" }

    /// Whether `uniqueID` is of this signd's making (`signd_<node_id>_<object_id>`); an older
    /// signd's were `<node_id>_<object_id>`.
    static func isCurrent(uniqueID: String) -> Bool { uniqueID.hasPrefix("signd_") }

    let nodeID: String
    let topic: String
    let version: String
    let playlists: [String]

    /// The device every entity belongs to.
    var device: JSONValue {
        [
            "identifiers": [.string(nodeID)], "name": .string(nodeID), "model": "signd", "manufacturer": "signd",
            "sw_version": .string(version),
        ]
    }

    /// The entity id Home Assistant would make of the device's and the entity's names:
    /// `[a-z0-9_]`, runs of `_` made one, none at either end.
    static func entityObjectID(_ parts: String...) -> String {
        let joined = parts.joined(separator: "_").lowercased().unicodeScalars.map { s -> Character in
            ("a"..."z").contains(s) || ("0"..."9").contains(s) ? Character(s) : "_"
        }
        return String(joined).split(separator: "_").joined(separator: "_")
    }

    /// What every entity shares: ids, availability, the device, where the config comes from, QoS 1.
    private func entity(_ component: String, _ object: String, name: String, _ fields: [String: JSONValue])
        -> JSONValue
    {
        var config = fields
        config["name"] = .string(name)
        // Prefixed: unique among every integration's ids, not only among signs.
        config["unique_id"] = .string("signd_\(nodeID)_\(object)")
        // `object_id` is deprecated since Home Assistant 2025.10 and ignored from 2026.4; an
        // older one ignores this and makes the same id from the device's and entity's names.
        config["default_entity_id"] = .string("\(component).\(Self.entityObjectID(nodeID, object))")
        config["availability_topic"] = .string(topic + "/availability")
        config["payload_available"] = "online"
        config["payload_not_available"] = "offline"
        config["device"] = device
        config["origin"] = ["name": "signd", "sw_version": .string(version)]
        config["qos"] = 1
        return .object(config)
    }

    private func at(_ component: String, _ object: String) -> String {
        "\(Self.prefix)/\(component)/\(nodeID)/\(object)/config"
    }

    static let displayOn = #"{"cmd":"display","state":"on"}"#
    static let displayOff = #"{"cmd":"display","state":"off"}"#

    /// The light's state: Home Assistant sets it on or off only when this renders exactly
    /// `payload_on` or `payload_off` (the default schema has no `state_on`), and unknown for `None`.
    static let lightStateTemplate =
        "{% if value_json.display == 'on' %}{{ '\(displayOn)' }}"
        + "{% elif value_json.display == 'off' %}{{ '\(displayOff)' }}{% else %}None{% endif %}"

    /// The brightness, 0..1 in `state`, on Home Assistant's 1..255: never 0, which Home Assistant
    /// ignores (it would keep showing the level before), so a display that is on at 0 shows as
    /// on at its lowest level.
    static let brightnessTemplate = "{{ [1, (value_json.brightness * 255) | round(0) | int] | max }}"

    /// The main text as shown, cut to the 255 characters a Home Assistant state holds (the
    /// last one then `…`): a longer state would be refused and the old one kept.
    static let textTemplate =
        "{% set t = value_json.shown if value_json.shown is defined else value_json.text %}"
        + "{{ t if t | length <= \(maxStateLength) else t[:\(maxStateLength - 1)] ~ '…' }}"

    /// The retained configs: `(topic, payload)`, under
    /// `homeassistant/<component>/<node_id>/<object_id>/config`.
    var configs: [(String, JSONValue)] {
        var configs: [(String, JSONValue)] = [
            (
                at("text", "text"),
                entity(
                    "text", "text", name: "Text",
                    [
                        "command_topic": .string(topic + "/text/set"),
                        "state_topic": .string(topic + "/state"),
                        "value_template": .string(Self.textTemplate),
                        "max": .int(Int64(Self.maxStateLength)), "mode": "text", "icon": "mdi:message-text",
                    ])
            ),
            (
                at("light", "display"),
                entity(
                    "light", "display", name: "Display",
                    [
                        "command_topic": .string(topic + "/cmd"),
                        "payload_on": .string(Self.displayOn),
                        "payload_off": .string(Self.displayOff),
                        "state_topic": .string(topic + "/state"),
                        "state_value_template": .string(Self.lightStateTemplate),
                        "brightness_command_topic": .string(topic + "/cmd"),
                        "brightness_command_template":
                            "{\"cmd\":\"set-brightness\",\"value\":{{ (value / 255) | round(3) }},\"duration\":0.5}",
                        "brightness_state_topic": .string(topic + "/state"),
                        "brightness_value_template": .string(Self.brightnessTemplate),
                        "brightness_scale": 255,
                        "on_command_type": "last",
                        "icon": "mdi:led-strip-variant",
                    ])
            ),
            (
                at("sensor", "dropped"),
                entity(
                    // Named "Dropped" (in frames): a Home Assistant before 2025.10 makes the
                    // entity id of the names, and gets the same one as default_entity_id.
                    "sensor", "dropped", name: "Dropped",
                    [
                        "state_topic": .string(topic + "/state"),
                        "value_template": "{{ value_json.dropped }}",
                        "unit_of_measurement": "frames",
                        "state_class": "total_increasing",
                        "entity_category": "diagnostic",
                        "icon": "mdi:filmstrip-off",
                    ])
            ),
        ]
        if !playlists.isEmpty {
            configs.append(
                (
                    at("select", "playlist"),
                    entity(
                        "select", "playlist", name: "Playlist",
                        [
                            "command_topic": .string(topic + "/cmd"),
                            "command_template":
                                "{\"cmd\":\"playlist\",\"action\":\"select\",\"name\":{{ value | tojson }}}",
                            "options": .array(playlists.map { .string($0) }),
                            "state_topic": .string(topic + "/state"),
                            "value_template": "{{ value_json.playlist.name if value_json.playlist else None }}",
                            "icon": "mdi:playlist-play",
                        ])
                ))
        }
        return configs
    }

    /// Configs of entities this sign no longer has (the select, without playlists): each is
    /// published empty and retained, which removes the entity from Home Assistant.
    var removed: [String] { playlists.isEmpty ? [at("select", "playlist")] : [] }
}
