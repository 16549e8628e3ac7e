#!/usr/bin/env python3
"""A receiver for signd's serial LED outputs, built on pyserial: it reads a serial port (in
the tests, one end of a pseudo-terminal pair that socat makes) and decodes every frame byte
for byte as the firmwares do, checking each protocol's header, counts and checksums.

  tools/serial-peer.py receive PROTOCOL --port PATH [--seconds S]

PROTOCOL is adalight ('Ada', count-1 hi lo, hi^lo^0x55, RGB), awa ('Awa', the same header,
RGB, then fletcher1, fletcher2 and fletcherExt, 0x41 sent as 0xAA), tpm2 (0xC9 0xDA, size
hi lo, data, 0x36) or enttec (Enttec DMX USB Pro: 0x7E, label, length lo hi, data, 0xE7;
label 6 data is start code 0 and the channels). It prints {"ready": 1} once the port is
open, then one JSON line per good frame: {"frame": hex of the LED bytes (or channels),
"leds": the header's count, "t": seconds since start}, and a summary line at the end with
the frames, the bytes skipped while looking for a frame, the frames whose check failed and
how often the port went away and came back. A port that disappears is waited for and
reopened. It ends after S seconds or on SIGTERM.
"""
import argparse
import json
import os
import signal
import sys
import time

import serial


def fletcher(data):
    f1 = f2 = ext = 0
    for position, byte in enumerate(data):
        f1 = (f1 + byte) % 255
        f2 = (f2 + f1) % 255
        ext = (ext + (byte ^ (position & 0xff))) % 255
    return f1, f2, (0xaa if ext == 0x41 else ext)


class Decoder:
    """Finds frames in a byte stream; a byte that cannot start a good frame is skipped."""

    def __init__(self, protocol):
        self.protocol = protocol
        self.buffer = bytearray()
        self.skipped = 0
        self.bad = 0

    def feed(self, data):
        self.buffer += data
        frames = []
        while True:
            result = self.next()
            if result is None:
                return frames
            if result == "skip":
                del self.buffer[0]
                self.skipped += 1
                continue
            frames.append(result)

    def next(self):
        b = self.buffer
        p = self.protocol
        if p in ("adalight", "awa"):
            magic = b"Ada" if p == "adalight" else b"Awa"
            if len(b) < 6:
                return None if magic.startswith(bytes(b[:3])) else "skip"
            if bytes(b[:3]) != magic:
                return "skip"
            hi, lo, check = b[3], b[4], b[5]
            if hi ^ lo ^ 0x55 != check:
                self.bad += 1
                return "skip"
            leds = (hi << 8 | lo) + 1
            size = 6 + 3 * leds + (3 if p == "awa" else 0)
            if len(b) < size:
                return None
            data = bytes(b[6:6 + 3 * leds])
            if p == "awa" and tuple(b[6 + 3 * leds:size]) != fletcher(data):
                self.bad += 1
                return "skip"
            del b[:size]
            return {"leds": leds, "frame": data.hex()}
        if p == "tpm2":
            if len(b) < 4:
                return None if bytes([0xc9, 0xda]).startswith(bytes(b[:2])) else "skip"
            if b[0] != 0xc9 or b[1] != 0xda:
                return "skip"
            length = b[2] << 8 | b[3]
            if len(b) < 4 + length + 1:
                return None
            if b[4 + length] != 0x36:
                self.bad += 1
                return "skip"
            data = bytes(b[4:4 + length])
            del b[:4 + length + 1]
            return {"leds": length // 3, "frame": data.hex()}
        if p == "enttec":
            if len(b) < 4:
                return None if len(b) == 0 or b[0] == 0x7e else "skip"
            if b[0] != 0x7e:
                return "skip"
            label, length = b[1], b[2] | b[3] << 8
            if length > 600:
                self.bad += 1
                return "skip"
            if len(b) < 4 + length + 1:
                return None
            if b[4 + length] != 0xe7 or label != 6 or length < 25 or b[4] != 0:
                self.bad += 1
                return "skip"
            data = bytes(b[5:4 + length])
            del b[:4 + length + 1]
            return {"label": label, "channels": len(data), "frame": data.hex()}
        raise SystemExit(f"unknown protocol {p}")


STOP = []


def open_port(path, deadline):
    while time.monotonic() < deadline and not STOP:
        try:
            return serial.Serial(path, baudrate=115200, timeout=0.05)
        except (serial.SerialException, OSError):
            time.sleep(0.05)
    return None


def receive(args):
    stop = STOP
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    # A test runner may start it with SIGTERM blocked (the mask is inherited).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    start = time.monotonic()
    deadline = start + args.seconds
    decoder = Decoder(args.protocol)
    frames = 0
    reopened = 0
    port = open_port(args.port, deadline)
    if port is None:
        raise SystemExit(f"{args.port} never appeared")
    print(json.dumps({"ready": 1}), flush=True)
    while not stop and time.monotonic() < deadline:
        try:
            data = port.read(65536)
        except (serial.SerialException, OSError):
            # The port went away: what was half read is lost; wait for it to come back.
            port.close()
            decoder.buffer.clear()
            port = open_port(args.port, deadline)
            if port is None:
                break
            reopened += 1
            print(json.dumps({"reopened": reopened, "t": round(time.monotonic() - start, 4)}), flush=True)
            continue
        for frame in decoder.feed(data):
            frames += 1
            frame["t"] = round(time.monotonic() - start, 4)
            print(json.dumps(frame), flush=True)
    print(json.dumps({"summary": {"frames": frames, "skipped": decoder.skipped, "bad": decoder.bad,
                                  "reopened": reopened, "pending": len(decoder.buffer)}}), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("receive")
    r.add_argument("protocol", choices=["adalight", "awa", "tpm2", "enttec"])
    r.add_argument("--port", required=True)
    r.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    receive(args)


if __name__ == "__main__":
    main()
