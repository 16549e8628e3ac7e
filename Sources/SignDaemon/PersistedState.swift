/// What was changed at run time, saved so that a restart (or a power cut) shows it again.
/// Each text is kept with the config's text it replaced: when the config has since been
/// edited for that layer, the config wins.
public struct PersistedState: Codable, Sendable, Equatable {
    public struct LayerText: Codable, Sendable, Equatable {
        public var text: String
        /// The config's text for the layer when this text was set.
        public var configText: String

        public init(text: String, configText: String) {
            self.text = text
            self.configText = configText
        }

        enum CodingKeys: String, CodingKey {
            case text
            case configText = "config_text"
        }
    }

    public var version = 1
    /// Texts by layer id.
    public var layers: [String: LayerText] = [:]
    /// The zone in the light, by spotlight layer id (a zone's name, or its index).
    public var zones: [String: String] = [:]

    public init(layers: [String: LayerText] = [:], zones: [String: String] = [:]) {
        self.layers = layers
        self.zones = zones
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        layers = try c.decodeIfPresent([String: LayerText].self, forKey: .layers) ?? [:]
        zones = try c.decodeIfPresent([String: String].self, forKey: .zones) ?? [:]
    }

    /// The text a layer should show: the saved one unless the config changed under it.
    public func text(forLayer id: String, configText: String) -> String {
        guard let saved = layers[id], saved.configText == configText else { return configText }
        return saved.text
    }
}
