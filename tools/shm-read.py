#!/usr/bin/python3
"""Read a signd shared-memory framebuffer, following docs/contracts.md, "The shared-memory framebuffer", only.

Independent of signd's own code on purpose: tests use it to check the writer against the
contract, and it shows other programs how to read frames.

  shm-read.py NAME header                  header fields and one stable frame's metadata, as JSON
  shm-read.py NAME frame OUT.rgb           copy the published frame (RGB888) to OUT.rgb
  shm-read.py NAME wait-frame EXPECTED.rgb [--timeout S] [--announce]
                                           poll until the published frame equals EXPECTED.rgb;
                                           print its frame number and deadline as JSON
  shm-read.py NAME check-uniform COUNT [--distinct N] [--timeout S]
                                           read COUNT stable frames (and on until N distinct ones) while a writer publishes frames
                                           of one colour each (R = frame number mod 256) and fail on
                                           any torn or mislabelled frame (the tests' seqlock check)
  shm-read.py NAME compare OTHER [--seconds S] [--dump DIR]
                                           read two framebuffers for S seconds (default 3) and print, as
                                           JSON, the frame numbers both published and how many of those
                                           differ (boards on one timeline: none), the first and last such
                                           number, and the numbers where the picture changed; with --dump,
                                           write each frame both published as DIR/N.a.rgb and DIR/N.b.rgb
"""
import json
import mmap
import os
import struct
import sys
import time

HEADER = struct.Struct("<4sHHHHHHIIQQQIIII")  # 64 bytes, little-endian


def open_framebuffer(name):
    path = "/dev/shm/signd." + name
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        return mmap.mmap(fd, size, prot=mmap.PROT_READ), size
    finally:
        os.close(fd)


def parse_header(buf):
    (magic, version, header_size, width, height, fmt, bpp, stride, buffers, sequence, frame, time_ns,
     index, rate_mhz, flags, reserved) = HEADER.unpack_from(buf, 0)
    return dict(magic=magic.decode("latin-1"), version=version, header_size=header_size, width=width,
                height=height, format=fmt, bytes_per_pixel=bpp, stride=stride, buffers=buffers,
                sequence=sequence, frame=frame, time_ns=time_ns, index=index, rate_mhz=rate_mhz,
                flags=flags, reserved=reserved)


def read_stable(buf):
    """The seqlock reader: retry while the sequence is odd or changes during the copy."""
    retries = 0
    while True:
        seq1 = struct.unpack_from("<Q", buf, 24)[0]
        if seq1 & 1:
            retries += 1
            continue
        h = parse_header(buf)
        n = h["stride"] * h["height"]
        start = h["header_size"] + h["index"] * n
        pixels = bytes(buf[start:start + n])
        seq2 = struct.unpack_from("<Q", buf, 24)[0]
        if seq1 == seq2:
            h["retries"] = retries
            return h, pixels
        retries += 1


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    name, command = argv[1], argv[2]
    buf, size = open_framebuffer(name)
    h = parse_header(buf)
    if h["magic"] != "SGFB" or h["version"] != 1:
        print(f"signd.{name}: not a version 1 signd framebuffer", file=sys.stderr)
        return 1
    if command == "header":
        header, _ = read_stable(buf)
        header["object_size"] = size
        print(json.dumps(header))
    elif command == "frame":
        header, pixels = read_stable(buf)
        with open(argv[3], "wb") as f:
            f.write(pixels)
        print(json.dumps({"frame": header["frame"], "time_ns": header["time_ns"]}))
    elif command == "wait-frame":
        expected = open(argv[3], "rb").read()
        timeout = float(argv[argv.index("--timeout") + 1]) if "--timeout" in argv else 2.0
        if "--announce" in argv:
            # Tells a caller it is watching, so that what it then changes is seen from the first frame.
            print("watching", flush=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            header, pixels = read_stable(buf)
            if pixels == expected:
                print(json.dumps({"frame": header["frame"], "time_ns": header["time_ns"]}))
                return 0
            time.sleep(0.001)
        print(f"signd.{name}: no frame matched within {timeout} s", file=sys.stderr)
        return 1
    elif command == "check-uniform":
        count, frames = int(argv[3]), set()
        # With --distinct N, reading goes on (within --timeout) until N different frames were
        # seen, so a writer slowed by a busy machine still gets checked across frames.
        distinct = int(argv[argv.index("--distinct") + 1]) if "--distinct" in argv else 0
        timeout = float(argv[argv.index("--timeout") + 1]) if "--timeout" in argv else 10.0
        deadline = time.monotonic() + timeout
        reads = 0
        while reads < count or (len(frames) < distinct and time.monotonic() < deadline):
            reads += 1
            header, pixels = read_stable(buf)
            if header["frame"] == 0:
                continue
            first = pixels[0:3]
            if pixels != first * (len(pixels) // 3) or first[0] != header["frame"] % 256:
                print(f"torn or mislabelled frame {header['frame']}", file=sys.stderr)
                return 1
            frames.add(header["frame"])
        print(json.dumps({"distinct_frames": len(frames)}))
    elif command == "compare":
        other, _ = open_framebuffer(argv[3])
        seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 3.0
        seen = ({}, {})
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for b, frames in ((buf, seen[0]), (other, seen[1])):
                header, pixels = read_stable(b)
                frames[header["frame"]] = pixels
            time.sleep(0.001)
        both = sorted(set(seen[0]) & set(seen[1]))
        differ = [n for n in both if seen[0][n] != seen[1][n]]
        ordered = sorted(seen[0])
        changes = [n for p, n in zip(ordered, ordered[1:]) if seen[0][p] != seen[0][n]]
        if "--dump" in argv:
            directory = argv[argv.index("--dump") + 1]
            os.makedirs(directory, exist_ok=True)
            for n in both:
                for side, frames in (("a", seen[0]), ("b", seen[1])):
                    with open(os.path.join(directory, f"{n}.{side}.rgb"), "wb") as f:
                        f.write(frames[n])
        print(json.dumps({"both": len(both), "differ": len(differ), "first": both[0] if both else None,
                          "last": both[-1] if both else None, "differing": differ[:10], "changes": changes}))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
