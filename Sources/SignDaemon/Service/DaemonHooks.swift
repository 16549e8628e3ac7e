import SignControl
import SignOutput

extension Daemon {
    /// What the control plane may use of the daemon: reload, scenes, saving state, the
    /// outputs and streams, playlists, and the web and MQTT links for `status`.
    func hooks() -> ControlPlane.Hooks {
        var hooks = ControlPlane.Hooks()
        hooks.reload = { [self] in reload() }
        hooks.changed = { [self] in
            saveState()
            SystemdNotifier.notify([statusLine()])
        }
        // The live frame kept for the web page is not an output of the sign's.
        hooks.outputs = { [outputs] in outputs.all.filter { !($0 is LiveFrame) } }
        hooks.playlists = { [self] in config.withLock { $0.playlists.map(\.name) } }
        hooks.mqtt = { [mqtt] in mqtt?.status }
        hooks.window = { [self] in
            let display = config.withLock { $0.display }
            guard let window = Self.window(display), let canvas = display.canvas else { return nil }
            return ((window.width, window.height, window.x, window.y), (canvas.a, canvas.b))
        }
        hooks.web = { [web] in
            web.map { WebStatus(listen: $0.config.listen, viewers: $0.viewerCount) }
        }
        hooks.streams = { [streams] in streams.all }
        hooks.loadScene = { [self] path in loadScene(path) }
        hooks.playlist = { [self] command in
            guard let player = player.withLock({ $0 }) else {
                return ControlError(.notFound, "no playlist is configured")
            }
            do throws(ControlError) {
                try player.handle(command)
                return nil
            } catch {
                return error
            }
        }
        hooks.playlistStatus = { [self] in
            guard let (position, label) = player.withLock({ $0 })?.status else { return nil }
            return PlaylistStatus(name: position.playlist, item: label, index: position.index, paused: position.paused)
        }
        return hooks
    }
}
