import SignControl
import Testing

@testable import SignDaemon

@Suite("HomeAssistantDiscovery")
struct HomeAssistantDiscoveryTests {
    let discovery = HomeAssistantDiscovery(
        nodeID: "window", topic: "signd/window", version: "0.9.0", playlists: ["open", "closed"])

    func config(_ topic: String) -> JSONValue? { discovery.configs.first { $0.0 == topic }?.1 }

    @Test("one retained config per entity under homeassistant/<component>/<node_id>/<object_id>/config")
    func topics() {
        #expect(
            discovery.configs.map(\.0) == [
                "homeassistant/text/window/text/config", "homeassistant/light/window/display/config",
                "homeassistant/sensor/window/dropped/config", "homeassistant/select/window/playlist/config",
            ])
        #expect(discovery.removed.isEmpty)
        let none = HomeAssistantDiscovery(nodeID: "w", topic: "t", version: "1", playlists: [])
        #expect(!none.configs.contains { $0.0.contains("/select/") }, "no select without playlists")
        #expect(none.removed == ["homeassistant/select/w/playlist/config"], "a select from before is removed")
    }

    @Test(
        "every entity: name, a unique_id prefixed signd_, default_entity_id (not the deprecated object_id), availability, origin and a device block"
    )
    func common() {
        for (topic, config) in discovery.configs {
            let parts = topic.split(separator: "/")
            let (component, object) = (String(parts[1]), String(parts[3]))
            #expect(config["name"]?.stringValue?.isEmpty == false, "\(topic)")
            #expect(config["unique_id"]?.stringValue == "signd_window_\(object)", "\(topic)")
            #expect(config["default_entity_id"]?.stringValue == "\(component).window_\(object)", "\(topic)")
            #expect(config["object_id"] == nil, "\(topic): object_id stops working in Home Assistant 2026.4")
            #expect(config["availability_topic"] == "signd/window/availability", "\(topic)")
            #expect(config["payload_available"] == "online" && config["payload_not_available"] == "offline", "\(topic)")
            #expect(config["origin"]?["name"] == "signd" && config["origin"]?["sw_version"] == "0.9.0", "\(topic)")
            #expect(config["device"]?["identifiers"] == ["window"], "\(topic)")
            #expect(config["device"]?["model"] == "signd" && config["device"]?["sw_version"] == "0.9.0", "\(topic)")
        }
        #expect(Set(discovery.configs.compactMap { $0.1["unique_id"]?.stringValue }).count == 4, "unique ids differ")
    }

    @Test("a node id with - gives an entity id Home Assistant accepts: [a-z0-9_], no __, no _ at either end")
    func entityIDs() {
        let odd = HomeAssistantDiscovery(nodeID: "-shop--window-", topic: "t", version: "1", playlists: [])
        #expect(
            odd.configs.compactMap { $0.1["default_entity_id"]?.stringValue } == [
                "text.shop_window_text", "light.shop_window_display", "sensor.shop_window_dropped",
            ])
        #expect(odd.configs.first?.1["unique_id"] == "signd_-shop--window-_text", "unique ids keep the node id")
    }

    @Test(
        "the light: display on/off and brightness as control requests on cmd; its state template renders payload_on or payload_off, which is what Home Assistant compares"
    )
    func light() throws {
        let light = try #require(config("homeassistant/light/window/display/config"))
        #expect(light["command_topic"] == "signd/window/cmd")
        for (key, state) in [("payload_on", "on"), ("payload_off", "off")] {
            let payload = try #require(light[key]?.stringValue)
            let request = try Request(line: Array(payload.utf8))
            #expect(request.command as? Request.Display == Request.Display(state: state == "on" ? .on : .off))
            // Home Assistant sets the light on or off only when the template renders this exact text.
            let template = try #require(light["state_value_template"]?.stringValue)
            #expect(template.contains("'\(payload)'"), "\(key)")
        }
        #expect(light["state_on"] == nil && light["supported_color_modes"] == nil, "the default schema has neither")
        #expect(light["brightness_command_topic"] == "signd/window/cmd")
        #expect(light["brightness_scale"] == 255)
        #expect(light["state_topic"] == "signd/window/state" && light["brightness_state_topic"] == "signd/window/state")
        #expect(light["brightness_command_template"]?.stringValue?.contains("\"cmd\":\"set-brightness\"") == true)
        #expect(light["brightness_value_template"]?.stringValue?.contains("| max") == true, "never 0, which is ignored")
    }

    @Test(
        "the text entity sets through text/set and reads the retained state (never empty), at most 255 characters; the select lists the playlists"
    )
    func textAndSelect() throws {
        let text = try #require(config("homeassistant/text/window/text/config"))
        #expect(text["command_topic"] == "signd/window/text/set" && text["state_topic"] == "signd/window/state")
        #expect(text["value_template"]?.stringValue?.contains("value_json") == true)
        #expect(text["max"] == 255)
        let select = try #require(config("homeassistant/select/window/playlist/config"))
        #expect(select["options"] == ["open", "closed"])
        #expect(select["command_template"]?.stringValue?.contains("\"action\":\"select\"") == true)
        let sensor = try #require(config("homeassistant/sensor/window/dropped/config"))
        #expect(sensor["value_template"] == "{{ value_json.dropped }}" && sensor["state_class"] == "total_increasing")
        // The names make the entity id where default_entity_id is not known (before 2025.10).
        #expect(sensor["name"] == "Dropped" && sensor["unit_of_measurement"] == "frames")
    }
}
