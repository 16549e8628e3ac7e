#!/usr/bin/python3
"""Draws the chevron image the chevron-shimmer example uses: a right-pointing chevron,
white with an anti-aliased alpha edge, as an RGBA PNG (standard library only).

  tools/make-chevron.py OUT.png [WIDTH HEIGHT]
"""
import struct
import sys
import zlib


def coverage(px, py, w, h, thickness):
    """Fraction of the pixel (px, py) inside the chevron, by 4x4 supersampling."""
    inside = 0
    for sy in range(4):
        for sx in range(4):
            x = px + (sx + 0.5) / 4
            y = py + (sy + 0.5) / 4
            # Two arms meeting at the tip (w * 0.8, h / 2): distance to the polyline.
            tip_x, tip_y = w * 0.8, h / 2
            for (ax, ay) in ((w * 0.2, h * 0.1), (w * 0.2, h * 0.9)):
                dx, dy = tip_x - ax, tip_y - ay
                t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
                cx, cy = ax + t * dx, ay + t * dy
                if (x - cx) ** 2 + (y - cy) ** 2 <= (thickness / 2) ** 2:
                    inside += 1
                    break
    return inside / 16


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    w, h = (int(argv[2]), int(argv[3])) if len(argv) >= 4 else (24, 32)
    thickness = max(2.0, w * 0.22)
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            a = round(coverage(x, y, w, h, thickness) * 255)
            row += [255, 255, 255, a]
        rows.append(row)
    with open(argv[1], "wb") as f:
        f.write(png(w, h, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
