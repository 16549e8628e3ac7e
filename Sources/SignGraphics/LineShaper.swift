import CHarfBuzz

/// Lays out one line of text for display: FriBidi orders it (UAX #9), the text is split
/// into runs of one level, one script and one face, each grapheme cluster drawn by the
/// first face in the chain that has every glyph of it, and HarfBuzz shapes each run.
/// Positions are HarfBuzz's, in 26.6 fixed point; a bitmap face's are whole pixels.
/// Inline objects (a rich line's icons) stand in the text as U+FFFC OBJECT REPLACEMENT
/// CHARACTER, as UAX #9 treats them (a neutral): each is a cluster and a run of its own,
/// ordered with the text, not shaped, and placed with no advance at a whole pixel, where
/// the caller widens the line to the object's width (`TextRun.placingObjects`).
struct LineShaper {
    /// Scalars kept per text; more are cut (a sign's line is far shorter).
    static let maxScalars = 16_384
    /// Combining marks kept on one base: Unicode's stream-safe limit (UAX #15). More cannot
    /// be drawn legibly and would only cost shaping time.
    static let maxMarksPerBase = 30

    /// One face of the fallback chain.
    struct Face {
        let face: FreeTypeFace
        let font: HarfBuzzFont
    }

    /// A glyph placed on the line.
    struct Placed {
        /// Index into the chain.
        let face: Int
        let glyph: HarfBuzzFont.Glyph
        /// Pen position (26.6) before the glyph's offset.
        let pen: Int
        /// The glyph's run reads right to left.
        let rightToLeft: Bool
    }

    struct Line {
        var glyphs: [Placed] = []
        /// Advance of the whole line, 26.6.
        var width = 0
        /// Faces drawing at least one cluster.
        var usedFaces: Set<Int> = []
        /// Scalars no face has (each once per cluster that lacks it).
        var missing: [Unicode.Scalar] = []
        /// Scalars cut to keep layout bounded (past `maxScalars`, or marks past `maxMarksPerBase`).
        var dropped = 0
        var isRightToLeft = false
        /// Where each shaped scalar starts in the text's UTF-8.
        var offsets: [Int] = []
        /// Inline objects in visual order.
        var objects: [Object] = []
    }

    /// An inline object placed on the line.
    struct Object {
        /// Its scalar's index in the text.
        let scalar: Int
        /// Pen position (26.6, a whole pixel) where it starts.
        let pen: Int
        /// Glyphs of the line shown before it.
        let glyphIndex: Int
        /// It sits in a right-to-left run.
        let rightToLeft: Bool
    }

    /// The text's scalars as shaped: control characters (newlines, tabs) become spaces, as a
    /// sign shows one line, and the caps applied; with the clusters' scalar ranges.
    /// `offsets` are where each kept scalar starts in the text's UTF-8. A scalar starting at
    /// one of `objects` (UTF-8 offsets) becomes U+FFFC, a cluster of its own.
    static func scalars(of text: String, objects: Set<Int> = []) -> (
        scalars: [UInt32], offsets: [Int], clusters: [Range<Int>], isObject: [Bool], dropped: Int
    ) {
        var scalars: [UInt32] = []
        var offsets: [Int] = []
        var clusters: [Range<Int>] = []
        var isObject: [Bool] = []
        var dropped = 0
        var offset = 0
        scalars.reserveCapacity(min(text.utf8.count, maxScalars))
        for character in text {
            var start = scalars.count
            var marks = 0
            for raw in character.unicodeScalars {
                marks = Self.isMark(raw) ? marks + 1 : 0
                defer { offset += raw.utf8.count }
                guard scalars.count < maxScalars, marks <= maxMarksPerBase else {
                    dropped += 1
                    continue
                }
                if !objects.isEmpty, objects.contains(offset) {
                    // An object is a cluster alone, whatever the text's grapheme breaks say.
                    if scalars.count > start { clusters.append(start..<scalars.count) }
                    scalars.append(0xFFFC)
                    offsets.append(offset)
                    clusters.append(scalars.count - 1..<scalars.count)
                    start = scalars.count
                    marks = 0
                    continue
                }
                // C0 and C1 controls, the general category Cc.
                let control = raw.value < 0x20 || (0x7F...0x9F).contains(raw.value)
                scalars.append(control ? 0x20 : raw.value)
                offsets.append(offset)
            }
            if scalars.count > start { clusters.append(start..<scalars.count) }
        }
        if !objects.isEmpty {
            isObject = [Bool](repeating: false, count: scalars.count)
            for (i, o) in offsets.enumerated() where objects.contains(o) { isObject[i] = true }
        }
        return (scalars, offsets, clusters, isObject, dropped)
    }

    static func layout(
        _ text: String, objects: Set<Int> = [], chain: [Face], direction: TextDirection, features: [FontFeature],
        buffer: HarfBuzzBuffer
    ) -> Line {
        let (scalars, offsets, clusters, isObject, dropped) = Self.scalars(of: text, objects: objects)
        @inline(__always) func object(_ cluster: Range<Int>) -> Bool {
            !isObject.isEmpty && isObject[cluster.lowerBound]
        }
        var line = Line()
        line.offsets = offsets
        line.dropped = dropped
        let bidi = BidiParagraph(scalars, direction: direction)
        line.isRightToLeft = bidi.isRightToLeft
        guard !scalars.isEmpty else { return line }

        // Each cluster's face, script and level.
        var clusterFace = [Int](repeating: 0, count: clusters.count)
        var clusterScript = [hb_script_t?](repeating: nil, count: clusters.count)
        for (c, range) in clusters.enumerated() where !object(range) {
            let (face, missing) = Self.face(for: scalars[range], in: chain)
            clusterFace[c] = face
            line.missing += missing
            clusterScript[c] = scalars[range].lazy.compactMap(HarfBuzzFont.script(of:)).first
        }
        // Common and inherited characters (spaces, digits, punctuation) take the script
        // before them, or at the start the first one after.
        var script = clusterScript.lazy.compactMap { $0 }.first ?? HB_SCRIPT_LATIN
        for c in clusterScript.indices {
            if let own = clusterScript[c] { script = own } else { clusterScript[c] = script }
        }

        // Runs: clusters of one level, script and face, in logical order; an object is a run alone.
        var runs: [(range: Range<Int>, face: Int, script: hb_script_t, level: UInt8, object: Bool)] = []
        for (c, range) in clusters.enumerated() {
            let key = (face: clusterFace[c], script: clusterScript[c]!, level: bidi.levels[range.lowerBound])
            let isObject = object(range)
            if let last = runs.last, !last.object, !isObject, last.face == key.face, last.script == key.script,
                last.level == key.level
            {
                runs[runs.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                runs.append((range, key.face, key.script, key.level, isObject))
            }
        }
        // A run's scalars stay together when reordered: runs are ordered where their first
        // scalar is shown.
        var visualPosition = [Int](repeating: 0, count: scalars.count)
        for (v, logical) in bidi.visualOrder.enumerated() { visualPosition[logical] = v }
        let visualRuns = runs.sorted { visualPosition[$0.range.lowerBound] < visualPosition[$1.range.lowerBound] }

        var pen = 0
        var shaped: [HarfBuzzFont.Glyph] = []
        let features = features.map(\.value)
        scalars.withUnsafeBufferPointer { text in
            for run in visualRuns {
                if run.object {
                    // At a whole pixel, so the text after it keeps its own rounding.
                    pen = ((pen + 32) >> 6) << 6
                    line.objects.append(
                        Object(
                            scalar: run.range.lowerBound, pen: pen, glyphIndex: line.glyphs.count,
                            rightToLeft: run.level & 1 == 1))
                    continue
                }
                let face = chain[run.face]
                shaped.removeAll(keepingCapacity: true)
                face.font.shape(
                    text, range: run.range, rightToLeft: run.level & 1 == 1, script: run.script, features: features,
                    buffer: buffer, into: &shaped)
                line.usedFaces.insert(run.face)
                for glyph in shaped {
                    let g = face.face.placement(glyph)
                    line.glyphs.append(Placed(face: run.face, glyph: g, pen: pen, rightToLeft: run.level & 1 == 1))
                    pen += g.xAdvance
                }
            }
        }
        line.width = pen
        return line
    }

    /// The face drawing a cluster: the first in the chain with a glyph for each of its
    /// scalars (format characters such as ZWJ and variation selectors are not drawn and need
    /// none). An emoji cluster tries colour faces first. When no face has them all, the first
    /// with the cluster's base draws it as its own shaping does, and the scalars no face has
    /// are missing.
    static func face(for cluster: ArraySlice<UInt32>, in chain: [Face]) -> (face: Int, missing: [Unicode.Scalar]) {
        // Scalars that must have a glyph: all but format characters, unless that is all there is.
        let drawnOnly = cluster.contains { !isIgnorable($0) }
        @inline(__always) func needed(_ s: UInt32) -> Bool { !drawnOnly || !isIgnorable(s) }
        func hasAll(_ n: Int) -> Bool {
            cluster.allSatisfy { !needed($0) || chain[n].face.glyphIndex(for: Unicode.Scalar($0)!) != 0 }
        }
        let first = cluster.first.flatMap(Unicode.Scalar.init)
        // Unicode's property lookups are slow next to the rest of layout: below U+231A
        // (the first emoji-presentation character) none is needed.
        let emoji =
            (first.map { $0.value >= 0x231A && $0.properties.isEmojiPresentation } ?? false)
            || (cluster.contains { $0 == 0xFE0F || $0 == 0x20E3 } && !cluster.contains(0xFE0E))
        // An emoji cluster tries colour faces first, then the rest, each group in chain order.
        for pass in emoji ? [true, false] : [false] {
            for n in chain.indices where !emoji || chain[n].face.hasColor == pass {
                if hasAll(n) { return (n, []) }
            }
        }
        let missing = cluster.compactMap { s -> Unicode.Scalar? in
            guard needed(s), let scalar = Unicode.Scalar(s) else { return nil }
            return chain.contains { $0.face.glyphIndex(for: scalar) != 0 } ? nil : scalar
        }
        let base = cluster.first(where: needed).flatMap(Unicode.Scalar.init)
        var face = 0
        if let base {
            for pass in emoji ? [true, false] : [false] {
                if let n = chain.indices.first(where: {
                    (!emoji || chain[$0].face.hasColor == pass) && chain[$0].face.glyphIndex(for: base) != 0
                }) {
                    face = n
                    break
                }
            }
        }
        return (face, missing)
    }

    /// Format characters HarfBuzz does not draw (ZWJ, variation selectors, bidi controls).
    @inline(__always) static func isIgnorable(_ s: UInt32) -> Bool {
        // None below U+034F but the soft hyphen.
        if s < 0x34F { return s == 0xAD }
        return Unicode.Scalar(s)?.properties.isDefaultIgnorableCodePoint ?? true
    }

    /// Combining marks, which stack on the letter before them.
    @inline(__always) static func isMark(_ s: Unicode.Scalar) -> Bool {
        // None below U+0300.
        if s.value < 0x300 { return false }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return s.properties.canonicalCombiningClass != .notReordered
        }
    }
}
