import Foundation
import SignConfig
import SignScene

/// Scene files on a running daemon: `load-scene`, and the config's own layers again after a
/// scene a playlist or the schedule showed.
extension Daemon {
    /// The directories `load-scene` may read from.
    var sceneDirectories: SceneDirectories {
        let configured = config.withLock { $0.control.sceneDirs }
        guard configured.isEmpty else { return SceneDirectories(configured) }
        let absolute =
            options.configPath.hasPrefix("/")
            ? options.configPath : FileManager.default.currentDirectoryPath + "/" + options.configPath
        return SceneDirectories([URL(fileURLWithPath: absolute).deletingLastPathComponent().standardized.path])
    }

    /// Shows the layers and background of another config file on the running board (same
    /// size); outputs, frame rate and the control socket stay. A scene loaded this way lasts
    /// until the next reload or restart. Only files in the scene directories are read, and
    /// the problems returned (to any client) never quote the file's values; the log has them.
    public func loadScene(_ path: String) -> [ConfigProblem] {
        let file: String
        switch sceneDirectories.resolve(path) {
        case .success(let resolved): file = resolved
        case .failure(let refused): return [ConfigProblem(file: path, line: 0, key: "-", message: refused.message)]
        }
        let new: DaemonConfig
        do {
            new = try ConfigLoader.load(path: file, fonts: fonts, parser: .isolated)
        } catch {
            for problem in error.problems { logger.warning("scene not loaded: \(problem)") }
            return error.problems.map(\.withoutValues)
        }
        let running = config.withLock { $0 }
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
        plane.notifications.refreshAll(now: clock.sceneTime())
        streams.update(new.streams)
        logger.info("scene loaded", metadata: ["scene": "\(path)"])
        return []
    }

    /// Shows the config's own layers again after a scene a playlist or the schedule showed.
    func unloadScene() {
        let running = config.withLock { $0 }
        guard store.runtime.loaded != nil else { return }
        do {
            try store.replace(config: running.scene, loaded: nil, beginTime: clock.sceneTime())
        } catch {
            logger.warning("the config's layers could not be prepared again: \(error)")
            return
        }
        plane.notifications.refreshAll(now: clock.sceneTime())
        streams.update(running.streams)
    }
}
