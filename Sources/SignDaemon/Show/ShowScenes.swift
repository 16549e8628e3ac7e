import Foundation
import SignControl
import SignScene

/// Scene files on a running daemon: `load-scene`, and the config's own layers again after a
/// scene a playlist or the schedule showed.
extension Show {
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
