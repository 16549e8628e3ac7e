import CFriBidi

/// One line of text through FriBidi: the Unicode Bidirectional Algorithm (UAX #9) resolves
/// each character's embedding level, and the line's visual order follows from them.
/// The one file that calls FriBidi.
struct BidiParagraph {
    /// Each scalar's resolved level, trailing whitespace reset to the base level (rule L1);
    /// odd levels read right to left.
    let levels: [UInt8]
    /// `visualOrder[v]` is the logical index of the scalar shown at visual position `v`.
    let visualOrder: [Int]
    /// Whether the paragraph reads right to left.
    let isRightToLeft: Bool

    init(_ scalars: [UInt32], direction: TextDirection) {
        let count = scalars.count
        var requested: FriBidiParType
        switch direction {
        case .auto: requested = signd_fribidi_par_on()
        case .ltr: requested = signd_fribidi_par_ltr()
        case .rtl: requested = signd_fribidi_par_rtl()
        }
        guard count > 0 else {
            levels = []
            visualOrder = []
            isRightToLeft = direction == .rtl
            return
        }
        // Filled by FriBidi before they are read.
        var types = [FriBidiCharType](unsafeUninitializedCapacity: count) { _, n in n = count }
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var map = [FriBidiStrIndex](0..<FriBidiStrIndex(count))
        var base = requested
        let resolved = scalars.withUnsafeBufferPointer { text -> Bool in
            fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(count), &types)
            fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(count), types, &brackets)
            guard fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &base, &levels) > 0
            else { return false }
            // Flags 0: marks stay where they are (HarfBuzz places them); only the map is wanted.
            return fribidi_reorder_line(0, types, FriBidiStrIndex(count), 0, base, &levels, nil, &map) > 0
        }
        if resolved {
            self.levels = levels.map { UInt8(bitPattern: $0) }
            self.visualOrder = map.map(Int.init)
            self.isRightToLeft = base == signd_fribidi_par_rtl()
        } else {
            // FriBidi fails only when it cannot allocate: the line is shown in logical order.
            let level: UInt8 = direction == .rtl ? 1 : 0
            self.levels = [UInt8](repeating: level, count: count)
            self.visualOrder = direction == .rtl ? Array((0..<count).reversed()) : Array(0..<count)
            self.isRightToLeft = direction == .rtl
        }
    }
}
