import CFreeType
import Synchronization

/// signd's fonts: one FreeType library, the faces opened from it and a cache of rendered
/// glyphs, so that laying out text FreeType has already drawn never calls into it again.
/// Safe to share between threads: every call is serialised.
public final class FontLibrary: Sendable {
    private struct FaceKey: Hashable {
        let path: String
        let size: Int
        let antialias: Bool
    }

    private struct GlyphKey: Hashable {
        let face: FaceKey
        let index: UInt32
    }

    private final class State {
        let library: FT_Library
        var faces: [FaceKey: FreeTypeFace] = [:]
        var glyphs: [GlyphKey: GlyphBitmap] = [:]
        /// How many glyphs FreeType has rendered (cache misses), for tests and status.
        var rendered = 0

        init(library: FT_Library) { self.library = library }
        deinit {
            faces.removeAll()
            FT_Done_FreeType(library)
        }
    }

    private let state: Mutex<State>

    public init() throws(FreeTypeError) {
        var library: FT_Library?
        try check(FT_Init_FreeType(&library), "FT_Init_FreeType")
        state = Mutex(State(library: library!))
    }

    /// Glyphs rendered by FreeType so far; it stays put while text is laid out from the cache.
    public var renderedGlyphCount: Int { state.withLock { $0.rendered } }

    /// Opens a face, so a config can be checked before it is used.
    /// Why `spec` cannot be used, for a person; `nil` when it opens.
    public func problem(with spec: FontSpec) -> String? {
        switch state.withLock({ state in Result { () throws(FreeTypeError) in _ = try face(spec, in: state) } }) {
        case .success: return nil
        case .failure(let error): return error.description
        }
    }

    public func validate(_ spec: FontSpec) throws(FreeTypeError) {
        // The error is carried out of the lock as a value: thrown through withLock itself,
        // its strings came out released (Swift 6.3, typed throws through Mutex.withLock).
        try state.withLock { state in Result { () throws(FreeTypeError) in _ = try face(spec, in: state) } }.get()
    }

    /// Lays out one line of UTF-8 text: each character comes from the first face in
    /// `[primary] + fallbacks` that has it; advances and kerning come from the faces.
    public func layout(_ text: String, primary: FontSpec, fallbacks: [FontSpec]) throws(FreeTypeError) -> TextRun {
        try state.withLock { state throws(FreeTypeError) in
            let chain = try ([primary] + fallbacks).map { spec throws(FreeTypeError) in try face(spec, in: state) }
            var placed: [TextRun.PlacedGlyph] = []
            var missing: [Unicode.Scalar] = []
            var pen = 0  // 26.6
            var ascender = 0, descent = 0
            var used = Set<Int>()
            var previous: (face: Int, index: UInt32)?
            for raw in text.unicodeScalars {
                // A sign shows one line: control characters (newlines, tabs) become spaces.
                let scalar = raw.properties.generalCategory == .control ? " " : raw
                var faceNumber = 0
                var index: UInt32 = 0
                // Characters Unicode presents as emoji come from a colour face when there is one,
                // even if a text face has a monochrome glyph for them.
                let order =
                    scalar.properties.isEmojiPresentation
                    ? chain.indices.filter { chain[$0].face.hasColor }
                        + chain.indices.filter { !chain[$0].face.hasColor }
                    : Array(chain.indices)
                for n in order {
                    let i = chain[n].face.glyphIndex(for: scalar)
                    if i != 0 {
                        faceNumber = n
                        index = i
                        break
                    }
                }
                if index == 0 { missing.append(scalar) }
                let face = chain[faceNumber]
                if let previous, previous.face == faceNumber {
                    pen += face.face.kerning(previous.index, index)
                }
                let glyph = try glyph(index, of: face, in: state)
                placed.append(.init(x: (pen + 32) >> 6, glyph: glyph))
                pen += glyph.advance
                if used.insert(faceNumber).inserted {
                    let m = face.face.metrics
                    ascender = max(ascender, m.ascender)
                    descent = max(descent, -m.descender)
                }
                previous = (faceNumber, index)
            }
            if used.isEmpty {
                let m = chain[0].face.metrics
                ascender = m.ascender
                descent = -m.descender
            }
            return TextRun(
                glyphs: placed, width: (pen + 32) >> 6, ascender: ascender, descent: descent, missing: missing)
        }
    }

    private func face(_ spec: FontSpec, in state: State) throws(FreeTypeError) -> (key: FaceKey, face: FreeTypeFace) {
        let key = FaceKey(path: spec.path, size: spec.size, antialias: spec.antialias)
        if let face = state.faces[key] { return (key, face) }
        let face = try FreeTypeFace.open(
            library: state.library, path: key.path, pixelSize: key.size, antialias: key.antialias)
        state.faces[key] = face
        return (key, face)
    }

    private func glyph(_ index: UInt32, of face: (key: FaceKey, face: FreeTypeFace), in state: State)
        throws(FreeTypeError) -> GlyphBitmap
    {
        let key = GlyphKey(face: face.key, index: index)
        if let cached = state.glyphs[key] { return cached }
        let glyph = try face.face.render(glyph: index)
        state.glyphs[key] = glyph
        state.rendered += 1
        return glyph
    }
}
