import SignControl

/// Changes made at run time to one set of layers (the config's, or a loaded scene's): what
/// `set-text`, `select-zone`, `set-property` and `stop` changed. The config's set is saved,
/// so a restart (or a power cut) shows it again. Each text and property is kept with the
/// value it replaced: when the file has since been edited there, the file wins.
public struct PersistedState: Codable, Sendable, Equatable {
    /// A run-time value and the file's value it replaced.
    public struct Replaced<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        public var value: Value
        /// The file's value when this one was set.
        public var configValue: Value

        public init(_ value: Value, replacing configValue: Value) {
            self.value = value
            self.configValue = configValue
        }
    }

    /// A layer's text (saved as `{"text", "config_text"}`, as version 1 always was).
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
    /// Property values by layer id (a top-level layer, or a sublayer or mask inside one),
    /// then key path; values as a request writes them.
    public var properties: [String: [String: Replaced<JSONValue>]] = [:]
    /// Layers whose motion is stopped (they show their start after a restart).
    public var stopped: Set<String> = []
    /// The brightness `set-brightness` chose (its target, when it was fading), with the
    /// config's `display.brightness` it replaced.
    public var brightness: Replaced<Double>?
    /// When the request set that brightness (Unix time): it holds until the `[[brightness]]`
    /// schedule's next change.
    public var brightnessSetAt: Double?
    /// Whether `display off` turned the display off.
    public var displayOff = false
    /// The values `set-var` gave `{var:NAME}` fields.
    public var variables: [String: String] = [:]
    /// Where the playlist playing stood.
    var playlist: PlaylistPlayer.Position?

    public init(
        layers: [String: LayerText] = [:], zones: [String: String] = [:],
        properties: [String: [String: Replaced<JSONValue>]] = [:], stopped: Set<String> = []
    ) {
        self.layers = layers
        self.zones = zones
        self.properties = properties
        self.stopped = stopped
    }

    enum CodingKeys: String, CodingKey {
        case version, layers, zones, properties, stopped, brightness
        case variables = "vars"
        case playlist
        case displayOff = "display_off"
        case brightnessSetAt = "brightness_set_at"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        layers = try c.decodeIfPresent([String: LayerText].self, forKey: .layers) ?? [:]
        zones = try c.decodeIfPresent([String: String].self, forKey: .zones) ?? [:]
        properties = try c.decodeIfPresent([String: [String: Replaced<JSONValue>]].self, forKey: .properties) ?? [:]
        stopped = Set(try c.decodeIfPresent([String].self, forKey: .stopped) ?? [])
        brightness = try c.decodeIfPresent(Replaced<Double>.self, forKey: .brightness)
        displayOff = try c.decodeIfPresent(Bool.self, forKey: .displayOff) ?? false
        brightnessSetAt = try c.decodeIfPresent(Double.self, forKey: .brightnessSetAt)
        variables = try c.decodeIfPresent([String: String].self, forKey: .variables) ?? [:]
        playlist = try? c.decodeIfPresent(PlaylistPlayer.Position.self, forKey: .playlist)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(layers, forKey: .layers)
        try c.encode(zones, forKey: .zones)
        if !properties.isEmpty { try c.encode(properties, forKey: .properties) }
        if !stopped.isEmpty { try c.encode(stopped.sorted(), forKey: .stopped) }
        if let brightness { try c.encode(brightness, forKey: .brightness) }
        if displayOff { try c.encode(true, forKey: .displayOff) }
        if let brightnessSetAt { try c.encode(brightnessSetAt, forKey: .brightnessSetAt) }
        if !variables.isEmpty { try c.encode(variables, forKey: .variables) }
        if let playlist { try c.encode(playlist, forKey: .playlist) }
    }

    /// Whether nothing was changed.
    public var isEmpty: Bool {
        layers.isEmpty && zones.isEmpty && properties.isEmpty && stopped.isEmpty && brightness == nil && !displayOff
            && variables.isEmpty && playlist == nil
    }
}

extension PersistedState.Replaced {
    enum CodingKeys: String, CodingKey {
        case value
        case configValue = "config_value"
    }
}
