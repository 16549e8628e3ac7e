import Foundation
import SignConfig
import SignControl
import SignOutput
import SignScene

/// Files on a running show: `reload`, `load-scene`, and the config's own layers again after
/// a scene a playlist or the schedule showed.
extension Show {
    /// Re-reads the config. A config with problems is refused, each problem logged, and the
    /// running one stays untouched; a good one is applied between two frames. Texts set at
    /// run time stay unless the new config changes that layer's text.
    func reload() -> [ConfigProblem] {
        let problems = readConfigAgain()
        if problems.isEmpty { changed() }
        return problems
    }

    private func readConfigAgain() -> [ConfigProblem] {
        SystemdNotifier.notify(SystemdNotifier.reloading())
        defer { SystemdNotifier.notify(["READY=1", statusLine()]) }
        guard let configPath else {
            return [ConfigProblem(file: "-", line: 0, key: "-", message: "this show has no config file to read")]
        }
        let new: DaemonConfig
        do {
            new = try ConfigLoader.load(path: configPath, fonts: store.fonts, parser: parser)
        } catch {
            for problem in error.problems { logger.error("\(problem)") }
            logger.error("config not reloaded: \(error.problems.count) problem(s); still running the previous config")
            return error.problems
        }
        let old = config.withLock { $0 }
        do {
            let outputs = stage.outputs
            let opened = try OutputSet.open(new, reusing: outputs.all) + stage.extras
            let retired = outputs.all.filter { old in !opened.contains { $0 === old } }
            store.setTimeZone(Self.timeZone(new.display), now: clock.sceneTime())
            // On the realtime timeline changed layers begin at scene time 0 like the rest, so
            // every board shows them alike whenever it reloaded.
            let begin = old.display.realtimeEpoch == nil ? clock.sceneTime() : 0
            let renderLoop = stage.renderLoop
            try store.replace(config: new.scene, loaded: nil, beginTime: begin) { swap in
                clock.sync {
                    swap()
                    outputs.replace(with: opened)
                    renderLoop?.show(window: Self.window(new.display))
                }
            }
            fieldClock.textsChanged()
            retired.forEach { $0.stop() }
            notifications.refreshAll(now: clock.sceneTime())
            streams.update(new.streams)
            clock.retime(fps: new.display.fps)
        } catch {
            let problem = ConfigProblem(file: configPath, line: 0, key: "-", message: "\(error)")
            logger.error("config not reloaded: \(error); still running the previous config")
            return [problem]
        }
        if new.display.brightness != old.display.brightness {
            // An edited brightness wins over one set at run time, as an edited text does.
            display.setBrightness(new.display.brightness, now: clock.sceneTime())
        }
        if new.brightnessSchedule != old.brightnessSchedule || new.display.timeZone != old.display.timeZone {
            brightnessScheduler.run(Self.brightnessSchedule(new), keepRequested: false)
        }
        if new.control != old.control || new.preview != old.preview || new.web != old.web || new.mqtt != old.mqtt
            || new.display.realtimeEpoch != old.display.realtimeEpoch
        {
            logger.warning("control, preview, web, mqtt and timeline settings take effect at the next start")
        }
        config.withLock { $0 = new }
        player.run(playlists: new.playlists, schedule: Self.showSchedule(new), resuming: nil)
        save()
        logger.info("config reloaded", metadata: ["config": "\(configPath)", "fps": "\(new.display.fps)"])
        return []
    }

    /// The directories `load-scene` may read from: the configured ones, or the config file's.
    var sceneDirectories: SceneDirectories {
        let configured = running.control.sceneDirs
        guard configured.isEmpty else { return SceneDirectories(configured) }
        guard let configPath else { return SceneDirectories([]) }
        let absolute =
            configPath.hasPrefix("/")
            ? configPath : FileManager.default.currentDirectoryPath + "/" + configPath
        return SceneDirectories([URL(fileURLWithPath: absolute).deletingLastPathComponent().standardized.path])
    }

    /// Shows the layers and background of another config file on the running board (same
    /// size); outputs, frame rate and the control socket stay. A scene loaded this way lasts
    /// until the next reload or restart. Only files in the scene directories are read, and
    /// the problems returned (to any client) never quote the file's values; the log has them.
    /// A client's scene, once shown, is saved; the player's (`source: .schedule`) is saved by
    /// the player at its frame.
    func loadScene(_ path: String, source: RequestSource) -> [ConfigProblem] {
        let problems = showScene(path)
        if problems.isEmpty, source != .schedule { changed() }
        return problems
    }

    private func showScene(_ path: String) -> [ConfigProblem] {
        let file: String
        switch sceneDirectories.resolve(path) {
        case .success(let resolved): file = resolved
        case .failure(let refused): return [ConfigProblem(file: path, line: 0, key: "-", message: refused.message)]
        }
        let new: DaemonConfig
        do {
            new = try ConfigLoader.load(path: file, fonts: store.fonts, parser: parser)
        } catch {
            for problem in error.problems { logger.warning("scene not loaded: \(problem)") }
            return error.problems.map(\.withoutValues)
        }
        let running = self.running
        guard new.display.width == running.display.width, new.display.height == running.display.height else {
            return [
                ConfigProblem(
                    file: path, line: 0, key: "display",
                    message:
                        "the scene's board size is not the running board's (\(running.display.width)x\(running.display.height))"
                )
            ]
        }
        do {
            try store.replace(
                config: running.scene, loaded: RuntimeState.LoadedScene(path: path, scene: new.scene),
                beginTime: clock.sceneTime())
        } catch {
            logger.warning("scene not loaded: \(error)", metadata: ["scene": "\(path)"])
            return [ConfigProblem(file: path, line: 0, key: "-", message: "a font of the scene could not be prepared")]
        }
        fieldClock.textsChanged()
        notifications.refreshAll(now: clock.sceneTime())
        streams.update(new.streams)
        logger.info("scene loaded", metadata: ["scene": "\(path)"])
        return []
    }

    /// Shows the config's own layers again after a scene a playlist or the schedule showed.
    func showConfigLayers() {
        let running = self.running
        guard store.runtime.loaded != nil else { return }
        do {
            try store.replace(config: running.scene, loaded: nil, beginTime: clock.sceneTime())
        } catch {
            logger.warning("the config's layers could not be prepared again: \(error)")
            return
        }
        fieldClock.textsChanged()
        notifications.refreshAll(now: clock.sceneTime())
        streams.update(running.streams)
    }
}
