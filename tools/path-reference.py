#!/usr/bin/env python3
"""The reference signd's path coverage is checked against: cairo (pycairo), its own
rasteriser, at its best antialiasing, curves flattened to 0.1 px as signd flattens them.

Reads a JSON list of cases on stdin, each {"width", "height", "ops", and "fill" or
"stroke"}: ops are cairo's path calls ["move_to", x, y], ["line_to", x, y],
["curve_to", x1, y1, x2, y2, x, y], ["arc", cx, cy, r, a1, a2], ["arc_negative", ...],
["close_path"]; "fill" is "non-zero" or "even-odd"; "stroke" is {"width", "cap", "join",
"miter_limit", "dash", "dash_phase", "start", "end"}, start and end being fractions of the
path's length (cairo has no such trim: the part is drawn as a dash of that length, which
cairo starts at the path's start, for one-subpath paths). Writes, per case, the A8
coverage as a list of rows.
"""
import json
import math
import sys

import cairo

CAPS = {"butt": cairo.LINE_CAP_BUTT, "round": cairo.LINE_CAP_ROUND, "square": cairo.LINE_CAP_SQUARE}
JOINS = {"miter": cairo.LINE_JOIN_MITER, "round": cairo.LINE_JOIN_ROUND, "bevel": cairo.LINE_JOIN_BEVEL}


def build(ctx, ops):
    ctx.new_path()
    for op in ops:
        getattr(ctx, op[0])(*op[1:])


def length(ctx):
    total, start, last = 0.0, None, None
    for kind, pts in ctx.copy_path_flat():
        if kind == cairo.PATH_MOVE_TO:
            start = last = pts
        elif kind == cairo.PATH_LINE_TO:
            total += math.dist(last, pts)
            last = pts
        elif kind == cairo.PATH_CLOSE_PATH:
            total += math.dist(last, start)
            last = start
    return total


def render(case):
    w, h = case["width"], case["height"]
    surface = cairo.ImageSurface(cairo.FORMAT_A8, w, h)
    ctx = cairo.Context(surface)
    ctx.set_antialias(cairo.ANTIALIAS_BEST)
    ctx.set_tolerance(0.1)
    build(ctx, case["ops"])
    if "fill" in case:
        ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD if case["fill"] == "even-odd" else cairo.FILL_RULE_WINDING)
        ctx.fill()
    else:
        s = case["stroke"]
        ctx.set_line_width(s["width"])
        ctx.set_line_cap(CAPS[s.get("cap", "butt")])
        ctx.set_line_join(JOINS[s.get("join", "miter")])
        ctx.set_miter_limit(s.get("miter_limit", 10))
        dash = s.get("dash", [])
        start, end = s.get("start", 0), s.get("end", 1)
        if start > 0 or end < 1:
            total = length(ctx)
            dash = [0, start * total, (end - start) * total, 10 * total + 1]
        if dash:
            ctx.set_dash(dash, s.get("dash_phase", 0))
        ctx.stroke()
    surface.flush()
    data, stride = surface.get_data(), surface.get_stride()
    return [list(data[y * stride : y * stride + w]) for y in range(h)]


def main():
    cases = json.load(sys.stdin)
    json.dump([render(c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()
