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
        let none = HomeAssistantDiscovery(nodeID: "w", topic: "t", version: "1", playlists: [])
        #expect(!none.configs.contains { $0.0.contains("/select/") }, "no select without playlists")
    }

    @Test(
        "every entity: name, unique_id, availability_topic with online/offline, a device block with identifiers, model and sw_version"
    )
    func common() {
        for (topic, config) in discovery.configs {
            #expect(config["name"]?.stringValue?.isEmpty == false, "\(topic)")
            #expect(config["unique_id"]?.stringValue?.hasPrefix("window_") == true, "\(topic)")
            #expect(config["availability_topic"] == "signd/window/availability", "\(topic)")
            #expect(config["payload_available"] == "online" && config["payload_not_available"] == "offline", "\(topic)")
            #expect(config["device"]?["identifiers"] == ["window"], "\(topic)")
            #expect(config["device"]?["model"] == "signd" && config["device"]?["sw_version"] == "0.9.0", "\(topic)")
        }
        #expect(Set(discovery.configs.compactMap { $0.1["unique_id"]?.stringValue }).count == 4, "unique ids differ")
    }

    @Test("the light: display on/off and brightness as control requests on cmd; state read from the retained state")
    func light() throws {
        let light = try #require(config("homeassistant/light/window/display/config"))
        #expect(light["command_topic"] == "signd/window/cmd")
        for (key, state) in [("payload_on", "on"), ("payload_off", "off")] {
            let request = try Request(line: Array(try #require(light[key]?.stringValue).utf8))
            #expect(request.command as? Request.Display == Request.Display(state: state == "on" ? .on : .off))
        }
        #expect(light["brightness_command_topic"] == "signd/window/cmd")
        #expect(light["brightness_scale"] == 255)
        #expect(light["state_topic"] == "signd/window/state" && light["brightness_state_topic"] == "signd/window/state")
        #expect(light["brightness_command_template"]?.stringValue?.contains("\"cmd\":\"set-brightness\"") == true)
    }

    @Test("the text entity uses the text/set shorthand and text/state; the select lists the playlists")
    func textAndSelect() throws {
        let text = try #require(config("homeassistant/text/window/text/config"))
        #expect(text["command_topic"] == "signd/window/text/set" && text["state_topic"] == "signd/window/text/state")
        #expect(text["max"] == 255)
        let select = try #require(config("homeassistant/select/window/playlist/config"))
        #expect(select["options"] == ["open", "closed"])
        #expect(select["command_template"]?.stringValue?.contains("\"action\":\"select\"") == true)
        let sensor = try #require(config("homeassistant/sensor/window/dropped/config"))
        #expect(sensor["value_template"] == "{{ value_json.dropped }}" && sensor["state_class"] == "total_increasing")
    }
}
