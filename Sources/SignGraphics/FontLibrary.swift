import CFreeType
import Glibc
import Synchronization

/// signd's fonts: one FreeType library, the faces opened from it and a cache of rendered
/// glyphs, so that laying out text FreeType has already drawn never calls into it again.
/// Both are bounded: at most `maxFaces` faces stay open (the least recently used is closed)
/// and the glyphs within `glyphCacheBytes` (`GlyphCache`), so text in any number of scripts
/// and fonts over months does not grow the daemon. Safe to share between threads: every
/// call is serialised.
public final class FontLibrary: Sendable {
    /// Bytes of rendered glyphs kept by default: some 12,000 of unifont's Han glyphs, or 750
    /// colour emoji at 16 px.
    public static let defaultGlyphCacheBytes = 4 << 20
    /// Faces kept open by default; a config names a few (a primary and its fallbacks each).
    public static let defaultMaxFaces = 32

    private struct FaceKey: Hashable {
        let path: String
        let size: Int
        let antialias: Bool
    }

    /// A file as `stat` tells it apart: device, inode, size and modification time.
    fileprivate struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let modifiedNanoseconds: Int64

        /// All zero when `path` cannot be stat'ed (opening it then fails with the reason).
        init(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                (device, inode, size, modified, modifiedNanoseconds) = (0, 0, 0, 0, 0)
                return
            }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        }
    }

    private struct GlyphKey: Hashable {
        let face: FaceKey
        /// The face's file when it was opened: a font replaced at the same path (a new file
        /// renamed over it, or the old one rewritten) draws none of the old file's glyphs.
        let file: FileIdentity
        let index: UInt32
    }

    /// Font files whose identity is remembered; past this the memory starts again (a config
    /// names a few, so only a text naming fonts by the thousand forgets one's changes).
    static let maxSeenFiles = 1024

    private final class State {
        let library: FT_Library
        /// Open faces, each with the call that last used it.
        var faces: [FaceKey: (face: FreeTypeFace, file: FileIdentity, lastUse: Int)] = [:]
        let maxFaces: Int
        /// Counts calls into the library, so a face in use by the current one is never closed.
        var call = 0
        var glyphs: GlyphCache<GlyphKey>
        /// How many glyphs FreeType has rendered (cache misses), for tests and status.
        var rendered = 0
        /// Reused by every layout (under the lock).
        let buffer = HarfBuzzBuffer()
        /// Each font file's identity when last opened or checked, and how many times one was
        /// found changed.
        var seenFiles: [String: FileIdentity] = [:]
        var fileChanges = 0

        init(library: FT_Library, glyphCacheBytes: Int, maxFaces: Int) {
            self.library = library
            glyphs = GlyphCache(budget: glyphCacheBytes)
            self.maxFaces = max(maxFaces, 1)
        }
        deinit {
            faces.removeAll()
            FT_Done_FreeType(library)
        }
    }

    private let state: Mutex<State>

    /// A library keeping at most `glyphCacheBytes` of rendered glyphs and `maxFaces` faces open.
    public init(
        glyphCacheBytes: Int = FontLibrary.defaultGlyphCacheBytes, maxFaces: Int = FontLibrary.defaultMaxFaces
    ) throws(FreeTypeError) {
        var library: FT_Library?
        try check(FT_Init_FreeType(&library), "FT_Init_FreeType")
        state = Mutex(State(library: library!, glyphCacheBytes: glyphCacheBytes, maxFaces: maxFaces))
    }

    /// Glyphs rendered by FreeType so far; it stays put while text is laid out from the cache.
    public var renderedGlyphCount: Int { state.withLock { $0.rendered } }
    /// Rendered glyphs cached now.
    public var cachedGlyphCount: Int { state.withLock { $0.glyphs.count } }
    /// Bytes the cached glyphs take (pixels and a fixed allowance an entry); at most `glyphCacheBytes`.
    public var cachedGlyphBytes: Int { state.withLock { $0.glyphs.bytes } }
    /// Faces open now; at most `maxFaces`, or one call's chain of faces when that is longer.
    public var openFaceCount: Int { state.withLock { $0.faces.count } }

    /// Opens a face, so a config can be checked before it is used.
    /// Why `spec` cannot be used, for a person; `nil` when it opens.
    public func problem(with spec: FontSpec) -> String? {
        switch state.withLock({ state in
            state.call += 1
            return Result { () throws(FreeTypeError) in _ = try face(spec, in: state) }
        }) {
        case .success: return nil
        case .failure(let error): return error.description
        }
    }

    public func validate(_ spec: FontSpec) throws(FreeTypeError) {
        // The error is carried out of the lock as a value: thrown through withLock itself,
        // its strings came out released (Swift 6.3, typed throws through Mutex.withLock).
        try state.withLock { state in
            state.call += 1
            return Result { () throws(FreeTypeError) in _ = try face(spec, in: state) }
        }.get()
    }

    /// Scalars laid out per text; more are left out (and counted in `TextRun.dropped`).
    public static var maxScalars: Int { LineShaper.maxScalars }
    /// Combining marks kept on one letter (Unicode's stream-safe limit); more are left out.
    public static var maxMarksPerBase: Int { LineShaper.maxMarksPerBase }

    /// Lays out one line of UTF-8 text for display: ordered by the Unicode Bidirectional
    /// Algorithm from `direction`, each grapheme cluster drawn by the first face in
    /// `[primary] + fallbacks` that has all of it, shaped by HarfBuzz with `features`.
    /// The scalars starting at `objects` (UTF-8 offsets, a rich line's icons) are inline
    /// objects: U+FFFC to the bidirectional algorithm, a cluster and a run alone, not shaped,
    /// placed in `TextRun.objects` with no width until `TextRun.placingObjects` gives them theirs.
    public func layout(
        _ text: String, primary: FontSpec, fallbacks: [FontSpec], direction: TextDirection = .auto,
        features: [FontFeature] = [], objects: Set<Int> = []
    ) throws(FreeTypeError) -> TextRun {
        try state.withLock { state throws(FreeTypeError) in
            state.call += 1
            let chain = try ([primary] + fallbacks).map { spec throws(FreeTypeError) in try face(spec, in: state) }
            let line = LineShaper.layout(
                text, objects: objects, chain: chain.map { LineShaper.Face(face: $0.face, font: $0.face.harfBuzz) },
                direction: direction, features: features, buffer: state.buffer)
            var placed: [TextRun.PlacedGlyph] = []
            placed.reserveCapacity(line.glyphs.count)
            for p in line.glyphs {
                let g = p.glyph
                let bitmap = try glyph(g.index, of: chain[p.face], in: state)
                placed.append(
                    TextRun.PlacedGlyph(
                        x: (p.pen + g.xOffset + 32) >> 6, y: (g.yOffset + 32) >> 6, glyph: bitmap, index: g.index,
                        face: p.face, cluster: g.cluster, textOffset: line.offsets[g.cluster], xAdvance: g.xAdvance,
                        xOffset: g.xOffset,
                        yOffset: g.yOffset))
            }
            var ascender = 0, descent = 0
            for n in line.usedFaces.isEmpty ? [0] : line.usedFaces.sorted() {
                let m = chain[n].face.metrics
                ascender = max(ascender, m.ascender)
                descent = max(descent, -m.descender)
            }
            return TextRun(
                glyphs: placed, width: (line.width + 32) >> 6, ascender: ascender, descent: descent,
                missing: line.missing, isRightToLeft: line.isRightToLeft, dropped: line.dropped,
                objects: line.objects.map {
                    TextRun.PlacedObject(
                        x: $0.pen >> 6, textOffset: line.offsets[$0.scalar], glyphIndex: $0.glyphIndex,
                        isRightToLeft: $0.rightToLeft)
                })
        }
    }

    private func face(_ spec: FontSpec, in state: State) throws(FreeTypeError) -> (
        key: FaceKey, file: FileIdentity, face: FreeTypeFace
    ) {
        let key = FaceKey(path: spec.path, size: spec.size, antialias: spec.antialias)
        defer { closeFaces(beyond: state.maxFaces, in: state) }
        if let open = state.faces[key] {
            state.faces[key]!.lastUse = state.call
            return (key, open.file, open.face)
        }
        // The file is looked at when its face opens, and again by `checkFontFiles`, never
        // on every layout.
        let file = FileIdentity(path: spec.path)
        note(file, at: spec.path, in: state)
        let face = try FreeTypeFace.open(
            library: state.library, path: key.path, pixelSize: key.size, antialias: key.antialias)
        state.faces[key] = (face, file, state.call)
        return (key, file, face)
    }

    /// Remembers the identity of the file at `path`, counting a change.
    private func note(_ file: FileIdentity, at path: String, in state: State) {
        if let seen = state.seenFiles[path] {
            if seen != file { state.fileChanges += 1 }
        } else if state.seenFiles.count >= Self.maxSeenFiles {
            state.seenFiles.removeAll()
        }
        state.seenFiles[path] = file
    }

    /// How many times a font file this library opened was found changed on disk (replaced or
    /// rewritten at its path), every such file checked now (a `stat` each) and the faces of a
    /// changed one closed, so text laid out next draws from the new file: a scene prepared
    /// when the count was lower drew some text from a file's old glyphs.
    public func checkFontFiles() -> Int {
        state.withLock { state in
            for path in Array(state.seenFiles.keys) {
                let file = FileIdentity(path: path)
                guard file != state.seenFiles[path] else { continue }
                note(file, at: path, in: state)
                for key in Array(state.faces.keys) where key.path == path { state.faces[key] = nil }
            }
            return state.fileChanges
        }
    }

    /// Closes the least recently used faces until at most `limit` are open, leaving those the
    /// current call uses (its glyphs stay cached: they are keyed by file, size and antialias).
    private func closeFaces(beyond limit: Int, in state: State) {
        while state.faces.count > limit {
            var oldest: (key: FaceKey, lastUse: Int)?
            for (key, open) in state.faces where open.lastUse < state.call && open.lastUse < (oldest?.lastUse ?? .max) {
                oldest = (key, open.lastUse)
            }
            guard let oldest else { return }
            state.faces[oldest.key] = nil
        }
    }

    private func glyph(
        _ index: UInt32, of face: (key: FaceKey, file: FileIdentity, face: FreeTypeFace), in state: State
    )
        throws(FreeTypeError) -> GlyphBitmap
    {
        let key = GlyphKey(face: face.key, file: face.file, index: index)
        if let cached = state.glyphs.glyph(for: key) { return cached }
        let glyph = try face.face.render(glyph: index)
        state.glyphs.insert(glyph, for: key)
        state.rendered += 1
        return glyph
    }
}
