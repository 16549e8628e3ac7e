#!/usr/bin/env python3
"""A Colorlight 5A-75 receiver card's side of the wire, for signd's tests: captures with
scapy on an interface (inside a network namespace the test made) and decodes every frame
as the card would read it.

  tools/colorlight-peer.py --iface veth1 --width W --rows R [--seconds S]

Prints {"ready": true} once capturing, then one JSON line per display-frame packet
(EtherType 0x0107): the picture the rows since the one before made (hex, R G B, rows top
first), the rows and packets that came, whether every row came, and the brightness
packet's levels; a summary line at the end (SIGTERM or SIGINT end it). Packets not from
22:22:33:44:55:66 to 11:22:33:44:55:66 are counted as foreign and otherwise ignored.
"""
import argparse
import json
import signal
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iface", required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--seconds", type=float, default=60)
    args = ap.parse_args()
    from scapy.all import AsyncSniffer

    w, h = args.width, args.rows
    state = {"picture": bytearray(w * h * 3), "rows": set(), "packets": 0, "covered": bytearray(w * h),
             "brightness": None, "bad": []}
    stats = {"frames": 0, "row_packets": 0, "foreign": 0, "malformed": 0, "display": 0, "brightness": 0}
    out = sys.stdout

    def handle(pkt):
        # From the frame's bytes: scapy reads a type field below 0x0600 (the display frame's
        # 0x0107) as an 802.3 length and would decode it as another layer.
        raw = bytes(pkt)
        if len(raw) < 14 or raw[0:6] != bytes.fromhex("112233445566") or raw[6:12] != bytes.fromhex("222233445566"):
            stats["foreign"] += 1
            return
        kind = raw[12] << 8 | raw[13]
        data = raw[14:]
        if kind >> 8 == 0x55:
            stats["row_packets"] += 1
            if len(data) < 7:
                stats["malformed"] += 1
                return
            row = (kind & 0xff) << 8 | data[0]
            offset = data[1] << 8 | data[2]
            count = data[3] << 8 | data[4]
            pixels = data[7:7 + count * 3]
            if data[5:7] != b"\x08\x88" or len(pixels) != count * 3 or row >= h or offset + count > w:
                stats["malformed"] += 1
                state["bad"].append([row, offset, count, data[5:7].hex()])
                return
            rgb = bytearray(count * 3)  # B G R on the wire
            rgb[0::3], rgb[1::3], rgb[2::3] = pixels[2::3], pixels[1::3], pixels[0::3]
            o = (row * w + offset) * 3
            state["picture"][o:o + count * 3] = rgb
            state["covered"][row * w + offset:row * w + offset + count] = b"\x01" * count
            state["rows"].add(row)
            state["packets"] += 1
        elif kind >> 8 == 0x0A:
            stats["brightness"] += 1
            state["brightness"] = [kind & 0xff, data[0], data[1], data[2]]
        elif kind == 0x0107:
            stats["display"] += 1
            if len(data) < 98:
                stats["malformed"] += 1
            stats["frames"] += 1
            line = {"t": time.monotonic(), "frame": bytes(state["picture"]).hex(), "rows": len(state["rows"]),
                    "packets": state["packets"], "whole": state["covered"].count(0) == 0,
                    "brightness": state["brightness"], "level": data[21] if len(data) > 26 else None,
                    "levels": list(data[24:27]), "marker": data[22] if len(data) > 22 else None}
            if state["bad"]:
                line["bad"] = state["bad"]
            out.write(json.dumps(line) + "\n")
            out.flush()
            state.update(rows=set(), packets=0, covered=bytearray(w * h), brightness=None, bad=[])
        else:
            stats["foreign"] += 1

    end = time.monotonic() + args.seconds

    def finish(*_):
        nonlocal end
        end = 0
    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    started = []
    sniffer = AsyncSniffer(iface=args.iface, prn=handle, store=False, started_callback=lambda: started.append(1))
    sniffer.start()
    while not started and time.monotonic() < end:
        time.sleep(0.01)
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    while time.monotonic() < end:
        time.sleep(0.05)
    sniffer.stop()
    out.write(json.dumps({"summary": stats}) + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
