/// Presentation layers kept between frames, one for each animated layer the compositor
/// draws: a frame presents a layer where the frame before left its presentation
/// (`PreparedLayer.present(at:into:)`), so presenting copies no layer and, once a layer has
/// been seen, allocates nothing. A layer no frame has drawn since the frame before last is
/// released and its storage given to the next layer that needs one; storage is freed only
/// with the store.
final class PresentationStore {
    private struct Kept {
        /// The layer presented here, held so its identity (the key) is not reused while
        /// kept; `nil` when the storage is free (and holds no layer).
        var layer: PreparedLayer?
        let storage: UnsafeMutablePointer<Layer>
        var lastUsed: UInt64
    }

    private var kept: [Kept] = []
    private var frame: UInt64 = 0
    /// Where the next layer presented most likely is: layers are presented in the same order
    /// every frame, so the one after the last found is looked at first, and a frame of many
    /// layers finds each at once instead of looking along the whole list (quadratic).
    private var next = 0

    deinit {
        for entry in kept {
            if entry.layer != nil { entry.storage.deinitialize(count: 1) }
            entry.storage.deallocate()
        }
    }

    /// How many layers are kept presented.
    var count: Int { kept.reduce(0) { $0 + ($1.layer == nil ? 0 : 1) } }

    /// A frame begins: layers not drawn since the frame before last are released.
    func beginFrame() {
        frame &+= 1
        let frame = self.frame
        kept.withUnsafeMutableBufferPointer { kept in
            for i in kept.indices where kept[i].layer != nil && kept[i].lastUsed &+ 1 < frame {
                kept[i].storage.deinitialize(count: 1)
                kept[i].layer = nil
            }
        }
    }

    /// `layer` presented at its local time `t`: valid until it is presented again or the
    /// frame after next begins.
    func present(_ layer: PreparedLayer, at t: Double) -> UnsafePointer<Layer> {
        let frame = self.frame
        var next = self.next
        let found = kept.withUnsafeMutableBufferPointer { kept -> UnsafeMutablePointer<Layer>? in
            if next < kept.count, kept[next].layer === layer {
                kept[next].lastUsed = frame
                next += 1
                return kept[next - 1].storage
            }
            for i in kept.indices where kept[i].layer === layer {
                kept[i].lastUsed = frame
                next = i + 1
                return kept[i].storage
            }
            return nil
        }
        self.next = next
        if let storage = found {
            layer.present(at: t, into: storage)
            return UnsafePointer(storage)
        }
        let storage: UnsafeMutablePointer<Layer>
        if let free = kept.firstIndex(where: { $0.layer == nil }) {
            storage = kept[free].storage
            kept[free].layer = layer
            kept[free].lastUsed = frame
            self.next = free + 1
        } else {
            storage = .allocate(capacity: 1)
            kept.append(Kept(layer: layer, storage: storage, lastUsed: frame))
            self.next = kept.count
        }
        storage.initialize(to: layer.stored.pointee)
        layer.present(at: t, into: storage)
        return UnsafePointer(storage)
    }
}
