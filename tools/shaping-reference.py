#!/usr/bin/env python3
"""The reference signd's text layout is checked against: HarfBuzz (uharfbuzz, its own
OpenType code) shapes, python-bidi (an independent UAX #9 implementation) orders.

Reads a JSON list of cases on stdin, each {"text", "font", "ppem", "direction"
("auto"|"ltr"|"rtl")}, and writes one JSON object per case: the line's glyphs in visual
order as [glyph id, cluster (scalar index), x_advance, x_offset, y_offset] at `ppem` pixels
per em in 26.6, and the visual string python-bidi shows.

The line is split as UAX #9 and HarfBuzz's documentation ask: runs of one embedding level
(python-bidi's levels, trailing whitespace at the base level, rule L1) and one script
(HarfBuzz's Unicode script; Common and Inherited take the script before them, or after at
the start), each run shaped with the whole text as context, runs placed in the order rule
L2 gives. The order is checked against python-bidi's own display string.
"""
import ctypes
import json
import re
import sys

import regex
import uharfbuzz as hb
from bidi import get_display

_hb = ctypes.CDLL("libharfbuzz.so.0")
_hb.hb_unicode_funcs_get_default.restype = ctypes.c_void_p
_hb.hb_unicode_script.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
_hb.hb_unicode_script.restype = ctypes.c_uint32
_funcs = _hb.hb_unicode_funcs_get_default()
_neutral = {"Zyyy", "Zinh", "Zzzz"}
_mirrored = set("()[]{}<>«»")


def script_of(ch):
    tag = _hb.hb_unicode_script(_funcs, ord(ch))
    return bytes([(tag >> 24) & 255, (tag >> 16) & 255, (tag >> 8) & 255, tag & 255]).decode()


def levels_of(text, base_dir):
    """python-bidi's resolved levels, one per character (it reports one per UTF-8 byte)."""
    debug = get_display(text, base_dir=base_dir, debug=True)
    body = debug[debug.index("levels: [") :]
    body = body[: body.index("]")]
    per_byte = [int(n) for n in re.findall(r"Level\(\s*(\d+),?\s*\)", body)]
    base = int(re.search(r"paragraphs: \[\s*ParagraphInfo \{[^}]*?level: Level\(\s*(\d+)", debug, re.S).group(1))
    levels, offset = [], 0
    for ch in text:
        levels.append(per_byte[offset])
        offset += len(ch.encode())
    # Rule L1: whitespace (and isolates/format characters) at the end of the line take the base level.
    i = len(text) - 1
    while i >= 0 and (text[i].isspace() or text[i] in "\u2066\u2067\u2068\u2069\u200e\u200f"):
        levels[i] = base
        i -= 1
    return levels


def visual_order(levels):
    """Rule L2: from the highest level down to the lowest odd one, reverse every run at or above it."""
    order = list(range(len(levels)))
    if not levels:
        return order
    lowest_odd = min(l for l in levels) | 1
    for level in range(max(levels), lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order


def layout(case):
    text = case["text"]
    base_dir = {"ltr": "L", "rtl": "R"}.get(case.get("direction", "auto"))
    levels = levels_of(text, base_dir)
    order = visual_order(levels)
    shown = "".join(text[i] for i in order)
    display = get_display(text, base_dir=base_dir)
    assert len(shown) == len(display) and all(
        a == b or (a in _mirrored and b in _mirrored) for a, b in zip(shown, display)
    ), f"L2 order {shown!r} is not python-bidi's {display!r}"

    # Runs of one level and script, cluster by cluster.
    clusters, start = [], 0
    for g in regex.findall(r"\X", text):
        clusters.append((start, start + len(g)))
        start += len(g)
    scripts = []
    for a, b in clusters:
        own = [s for s in map(script_of, text[a:b]) if s not in _neutral]
        scripts.append(own[0] if own else None)
    current = next((s for s in scripts if s), "Latn")
    for i, s in enumerate(scripts):
        if s:
            current = s
        else:
            scripts[i] = current
    runs = []
    for (a, b), s in zip(clusters, scripts):
        if runs and runs[-1][2] == s and runs[-1][3] == levels[a]:
            runs[-1][1] = b
        else:
            runs.append([a, b, s, levels[a]])
    position = {logical: v for v, logical in enumerate(order)}
    runs.sort(key=lambda r: position[r[0]])

    blob = hb.Blob.from_file_path(case["font"])
    font = hb.Font(hb.Face(blob))
    font.scale = (case["ppem"] * 64, case["ppem"] * 64)
    codepoints = [ord(c) for c in text]
    glyphs = []
    for a, b, script, level in runs:
        buf = hb.Buffer()
        buf.add_codepoints(codepoints, a, b - a)
        buf.direction = "rtl" if level % 2 else "ltr"
        buf.script = script
        hb.shape(font, buf, {f: True for f in []})
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
            glyphs.append([info.codepoint, info.cluster, pos.x_advance, pos.x_offset, pos.y_offset])
    return {"glyphs": glyphs, "display": display}


def main():
    cases = json.load(sys.stdin)
    json.dump([layout(c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()
