import SignControl

/// Home Assistant's MQTT discovery configs for one sign (CONTRACTS.md section 6), field for
/// field as Home Assistant's MQTT integration documents them: a `text` entity for the main
/// text, a `light` (the default schema: on/off is `display`, brightness is `set-brightness`),
/// a `select` of the playlists when there are any, and a `sensor` of dropped frames. Every
/// command is a request of the control protocol on `<topic>/cmd` (the text through its
/// plain-text shorthand `text/set`), so Home Assistant uses exactly the command language
/// every other client does; states are read from the retained `state` and `text/state`.
struct HomeAssistantDiscovery {
    /// Where Home Assistant says `online` when it (re)starts.
    static let statusTopic = "homeassistant/status"
    static let prefix = "homeassistant"

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

    /// What every entity shares: availability, the device, QoS 1.
    private func entity(_ object: String, name: String, _ fields: [String: JSONValue]) -> JSONValue {
        var config = fields
        config["name"] = .string(name)
        config["unique_id"] = .string("\(nodeID)_\(object)")
        config["object_id"] = .string("\(nodeID)_\(object)")
        config["availability_topic"] = .string(topic + "/availability")
        config["payload_available"] = "online"
        config["payload_not_available"] = "offline"
        config["device"] = device
        config["qos"] = 1
        return .object(config)
    }

    /// The retained configs: `(topic, payload)`, under
    /// `homeassistant/<component>/<node_id>/<object_id>/config`.
    var configs: [(String, JSONValue)] {
        func at(_ component: String, _ object: String) -> String {
            "\(Self.prefix)/\(component)/\(nodeID)/\(object)/config"
        }
        var configs: [(String, JSONValue)] = [
            (
                at("text", "text"),
                entity(
                    "text", name: "Text",
                    [
                        "command_topic": .string(topic + "/text/set"),
                        "state_topic": .string(topic + "/text/state"),
                        "max": 255, "mode": "text", "icon": "mdi:message-text",
                    ])
            ),
            (
                at("light", "display"),
                entity(
                    "display", name: "Display",
                    [
                        "command_topic": .string(topic + "/cmd"),
                        "payload_on": "{\"cmd\":\"display\",\"state\":\"on\"}",
                        "payload_off": "{\"cmd\":\"display\",\"state\":\"off\"}",
                        "state_topic": .string(topic + "/state"),
                        "state_value_template": "{{ 'ON' if value_json.display == 'on' else 'OFF' }}",
                        "brightness_command_topic": .string(topic + "/cmd"),
                        "brightness_command_template":
                            "{\"cmd\":\"set-brightness\",\"value\":{{ (value / 255) | round(3) }},\"duration\":0.5}",
                        "brightness_state_topic": .string(topic + "/state"),
                        "brightness_value_template": "{{ (value_json.brightness * 255) | round(0) | int }}",
                        "brightness_scale": 255,
                        "on_command_type": "last",
                        "supported_color_modes": ["brightness"],
                        "icon": "mdi:led-strip-variant",
                    ])
            ),
            (
                at("sensor", "dropped"),
                entity(
                    "dropped", name: "Dropped frames",
                    [
                        "state_topic": .string(topic + "/state"),
                        "value_template": "{{ value_json.dropped }}",
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
                        "playlist", name: "Playlist",
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
}
