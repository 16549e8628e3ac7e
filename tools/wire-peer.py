#!/usr/bin/env python3
"""The LED network protocols as other projects' code reads and writes them, for signd's
tests: the sacn package (E1.31), python-led-ddp (DDP) and stupidArtnet (Art-Net), and
Pillow's PPM reader for FlaschenTaschen.

  tools/wire-peer.py parse PROTOCOL    # hex datagrams on stdin, one a line -> JSON lines
  tools/wire-peer.py make PROTOCOL     # JSON requests on stdin, one a line -> hex datagrams
  tools/wire-peer.py receive PROTOCOL --port P --leds N [--channels C] [--seconds S] [--artsync]
                                       [--width W]
                                       # a receiver on 127.0.0.1: one JSON line per frame
  tools/wire-peer.py send PROTOCOL --to ADDR --port P --leds N [--universe U] [--fps F]
                                   [--seconds S] [--priority P] [--colour RRGGBB]
                                       # the library's own sender, frames at F a second
  tools/wire-peer.py flood PROTOCOL --to ADDR --port P --count N [--universe U]
                                       # N random and mutated datagrams as fast as they go

PROTOCOL is e131, ddp or artnet (receive also takes opc, over TCP; parse and receive take
flaschen-taschen, whose pictures of --width columns are put together from their tiles:
a frame is complete when the tile holding the picture's last row arrives, and whole when
every pixel of it came in a tile since the frame before). send and flood take
loopback addresses only (127.0.0.0/8), so a test never reaches another machine; send
paints pixel k with red k % 256, green k / 256 and blue 200 (or one colour), and prints a
summary line when it ends; the sacn package always sends to port 5568. parse and make send
nothing anywhere: packets are built and parsed in memory with the libraries' own packet
code (the same code their senders and receivers run). receive listens on loopback only and
parses every datagram with that same code, assembling frames as a controller would: DDP
on push, E1.31 on a sync packet or when every universe has come, Art-Net on ArtSync or
every universe; it prints each frame (hex) with what the packets said, and a summary
line at the end. tools/setup.sh installs the three packages from PyPI when missing.
"""
import argparse
import json
import select
import signal
import socket
import sys
import time


def parse_e131(raw):
    from sacn.messages.data_packet import DataPacket
    from sacn.messages.sync_packet import SyncPacket
    if tuple(raw[18:22]) == (0, 0, 0, 8):
        p = SyncPacket.make_sync_packet(raw)
        return {"kind": "sync", "cid": list(p.cid), "sequence": p.sequence, "sync_address": p.syncAddr}
    p = DataPacket.make_data_packet(raw)
    return {"kind": "data", "cid": list(p.cid), "source_name": p.sourceName, "universe": p.universe,
            "priority": p.priority, "sync_address": p.syncAddr, "sequence": p.sequence,
            "terminated": p.option_StreamTerminated, "preview": p.option_PreviewData,
            "start_code": p.dmxStartCode, "slots": list(p.dmxData)}


def make_e131(r):
    from sacn.messages.data_packet import DataPacket
    from sacn.messages.sync_packet import SyncPacket
    if r.get("kind") == "sync":
        return bytes(SyncPacket(cid=tuple(r["cid"]), syncAddr=r["sync_address"], sequence=r["sequence"]).getBytes())
    p = DataPacket(cid=tuple(r["cid"]), sourceName=r["source_name"], universe=r["universe"],
                   dmxData=tuple(r["slots"]), priority=r["priority"], sequence=r["sequence"],
                   sync_universe=r.get("sync_address", 0))
    return bytes(p.getBytes())


def parse_ddp(raw):
    from ddp.packet import Packet
    p = Packet.from_bytes(raw)
    h = p.header
    return {"version": h.packet_type.version, "push": h.packet_type.push, "timecode": h.packet_type.timecode,
            "sequence": h.sequence_number, "pixel_config": raw[2], "id": int(h.id), "offset": h.offset,
            "length": h.length, "data": list(p.data)}


def make_ddp(r):
    from ddp.protocol.header import Header
    from ddp.protocol.packet_type import PacketType
    header = Header(packet_type=PacketType(push=r["push"]), sequence_number=r["sequence"], offset=r["offset"],
                    length=len(r["data"]))
    return header.to_bytes() + bytes(r["data"])


def parse_artnet(raw):
    from stupidArtnet.StupidArtnetServer import StupidArtnetServer
    if not StupidArtnetServer.validate_header(raw):
        return {"kind": "other", "opcode": raw[8] | raw[9] << 8}
    # What its server does with a packet it accepts.
    return {"kind": "dmx", "sequence": raw[12], "port_address": int.from_bytes(raw[14:16], "little"),
            "length": int.from_bytes(raw[16:18], "big"), "data": list(raw[18:])}


def parse_flaschen_taschen(raw):
    """One datagram: Pillow decodes the PPM; the #FT: comment and the footer give the offset."""
    import io
    from PIL import Image
    image = Image.open(io.BytesIO(raw), formats=["PPM"])
    image.load()
    if image.mode != "RGB":
        raise ValueError(f"a {image.mode} image, not RGB")
    header_end = raw.index(b"255\n") + 4  # what the peer sends: the maxval ends the header
    comment = [line for line in raw[:header_end].split(b"\n") if line.startswith(b"#FT:")]
    offset = [int(v) for v in comment[0][4:].split()] if comment else None
    tail = raw[header_end + image.width * image.height * 3:]
    footer = [int(v) for v in tail.split()] if tail.strip() else None
    return {"width": image.width, "height": image.height, "offset": offset, "footer": footer,
            "data": image.tobytes(), "bytes": len(raw)}


def make_artnet(r):
    from stupidArtnet import StupidArtnet
    a = StupidArtnet(target_ip="127.0.0.1", universe=r["port_address"], packet_size=len(r["data"]))
    a.sequence = r["sequence"]
    a.make_artdmx_header()
    for i, v in enumerate(r["data"]):
        a.buffer[i] = v
    packet = bytes(a.packet_header + a.buffer)
    a.close()
    return packet


class Assembler:
    """Frames out of packets: LED bytes at their places, complete on push, sync or when
    every universe has come."""

    def __init__(self, protocol, leds, channels, artsync=False, width=0):
        self.protocol, self.size, self.channels = protocol, leds * 3, channels // 3 * 3
        self.width = width or leds
        self.height = -(-leds // self.width)
        self.picture = bytearray(self.width * self.height * 3)
        self.covered = bytearray(self.width * self.height)
        self.artsync = artsync
        self.universes = max(1, -(-self.size // self.channels))
        self.frame = bytearray(self.size)
        self.seen, self.meta, self.stats = set(), {}, {"packets": 0, "frames": 0, "rejected": 0}

    def place(self, index, data):
        start = index * self.channels
        data = bytes(data[:max(0, min(self.channels, self.size - start))])
        self.frame[start:start + len(data)] = data
        self.seen.add(index)

    def packet(self, raw):
        """The frame this packet completes, or None."""
        self.stats["packets"] += 1
        try:
            p = globals()[f"parse_{self.protocol.replace('-', '_')}"](raw)
        except Exception as error:  # the library refused it
            self.stats["rejected"] += 1
            self.stats["last_rejection"] = str(error)
            return None
        if self.protocol == "flaschen-taschen":
            return self.tile(p)
        if self.protocol == "ddp":
            self.frame[p["offset"]:p["offset"] + p["length"]] = bytes(p["data"])
            self.meta.setdefault("sequences", []).append(p["sequence"])
            return self.complete() if p["push"] else None
        if self.protocol == "e131":
            if p["kind"] == "sync":
                self.meta["sync"] = p["sync_address"]
                return self.complete()
            if p["terminated"]:
                self.stats["terminated"] = self.stats.get("terminated", 0) + 1
                return None
            self.meta.setdefault("universes", {})[str(p["universe"])] = {
                "sequence": p["sequence"], "priority": p["priority"], "sync_address": p["sync_address"],
                "source_name": p["source_name"], "cid": bytes(p["cid"]).hex(), "terminated": p["terminated"]}
            self.first = getattr(self, "first", p["universe"])
            self.place(p["universe"] - self.first, p["slots"])
            return None if p["sync_address"] else self.all_in()
        if p["kind"] == "other":
            if p["opcode"] != 0x5200:  # ArtSync
                return None
            self.meta["artsync"] = True
            return self.complete()
        self.meta.setdefault("universes", {})[str(p["port_address"])] = {"sequence": p["sequence"],
                                                                       "length": p["length"]}
        self.first = getattr(self, "first", p["port_address"])
        self.place(p["port_address"] - self.first, p["data"])
        return None if self.artsync else self.all_in()

    def tile(self, p):
        """A FlaschenTaschen tile: its rows into the picture; the frame ends with the last row."""
        x, y, z = p["offset"] or (0, 0, 0)
        if p["footer"] != p["offset"]:
            self.stats["footer_mismatch"] = self.stats.get("footer_mismatch", 0) + 1
        self.meta.setdefault("tiles", []).append([x, y, p["width"], p["height"], z, p["bytes"]])
        w = p["width"]
        for row in range(p["height"]):
            if not (0 <= y + row < self.height) or x < 0 or x + w > self.width:
                self.stats["outside"] = self.stats.get("outside", 0) + 1
                continue
            start = ((y + row) * self.width + x) * 3
            self.picture[start:start + w * 3] = p["data"][row * w * 3:(row + 1) * w * 3]
            self.covered[start // 3:start // 3 + w] = b"\x01" * w
        if y + p["height"] < self.height:
            return None
        self.meta["whole"] = self.covered.count(0) == 0
        self.covered = bytearray(self.width * self.height)
        self.frame[:] = self.picture[:self.size]
        return self.complete()

    def all_in(self):
        return self.complete() if len(self.seen) >= self.universes else None

    def complete(self):
        self.stats["frames"] += 1
        done = {"t": time.monotonic(), "frame": bytes(self.frame).hex(), **self.meta}
        self.seen, self.meta = set(), {}
        return done


def receive(protocol, args):
    assembler = Assembler(protocol, args.leds, args.channels, args.artsync, args.width)
    end = time.monotonic() + args.seconds

    def finish(*_):  # SIGTERM or SIGINT: stop listening, then print the summary
        nonlocal end
        end = 0
    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    # A parent may start us with them blocked (the test runner's threads block signals).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    port = args.port
    if protocol == "opc":
        return receive_opc(assembler, port, lambda: end)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    sock.bind(("127.0.0.1", port))
    print(json.dumps({"ready": sock.getsockname()[1]}), flush=True)
    while time.monotonic() < end and (not args.frames or assembler.stats["frames"] < args.frames):
        if not select.select([sock], [], [], 0.1)[0]:
            continue
        done = assembler.packet(sock.recv(65536))
        if done:
            print(json.dumps(done), flush=True)
    print(json.dumps({"summary": assembler.stats}), flush=True)
    return 0


def receive_opc(assembler, port, deadline):
    """Open Pixel Control: one TCP connection at a time, messages back to back."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(1)
    print(json.dumps({"ready": server.getsockname()[1]}), flush=True)
    connections, stream, conn = 0, b"", None
    while time.monotonic() < deadline():
        if conn is None:
            if select.select([server], [], [], 0.1)[0]:
                conn, _ = server.accept()
                connections += 1
            continue
        if not select.select([conn], [], [], 0.1)[0]:
            continue
        chunk = conn.recv(1 << 16)
        if not chunk:
            conn.close()
            conn, stream = None, b""
            continue
        stream += chunk
        while len(stream) >= 4 and len(stream) >= 4 + int.from_bytes(stream[2:4], "big"):
            length = int.from_bytes(stream[2:4], "big")
            channel, command, data, stream = stream[0], stream[1], stream[4:4 + length], stream[4 + length:]
            assembler.stats["packets"] += 1
            if command == 0:
                assembler.frame[:len(data)] = data[:assembler.size]
                assembler.meta = {"channel": channel}
                print(json.dumps(assembler.complete()), flush=True)
    assembler.stats["connections"] = connections
    print(json.dumps({"summary": assembler.stats}), flush=True)
    return 0


def loopback(address):
    if not address.startswith("127."):
        raise SystemExit(f"wire-peer.py: {address} is not a loopback address")
    return address


def pixels(leds, colour):
    if colour:
        rgb = bytes.fromhex(colour)
        return bytes(rgb * leds)
    return bytes(v for k in range(leds) for v in (k % 256, (k // 256) % 256, 200))


def send(protocol, args):
    to = loopback(args.to)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    data = pixels(args.leds, args.colour)
    channels = 510
    universes = max(1, -(-len(data) // channels))
    frames, period = 0, 1 / args.fps
    end = time.monotonic() + args.seconds
    if protocol == "ddp":
        import asyncio
        from ddp import DDPConnection
        from ddp.protocol import PixelConfig, ID

        async def run():
            nonlocal frames
            conn = await DDPConnection.create(f"{to}:{args.port}", PixelConfig.default(), ID.DEFAULT)
            print(json.dumps({"ready": True}), flush=True)
            while time.monotonic() < end:
                await conn.write(data)
                frames += 1
                await asyncio.sleep(period)
        asyncio.run(run())
    elif protocol == "e131":
        import sacn
        if args.port != 5568:
            raise SystemExit("wire-peer.py: the sacn package sends to port 5568 only")
        sender = sacn.sACNsender(bind_address=to, bind_port=0, universeDiscovery=False, fps=args.fps,
                                 source_name=f"wire-peer {args.priority}")
        sender.start()
        for i in range(universes):
            u = args.universe + i
            sender.activate_output(u)
            sender[u].destination = to
            sender[u].multicast = False
            sender[u].priority = args.priority
        print(json.dumps({"ready": True}), flush=True)
        while time.monotonic() < end:
            for i in range(universes):
                sender[args.universe + i].dmx_data = tuple(data[i * channels:(i + 1) * channels])
            frames += 1
            time.sleep(period)
        for i in range(universes):  # as a show controller stops: stream-terminated
            sender.deactivate_output(args.universe + i)
        sender.stop()
    else:
        from stupidArtnet import StupidArtnet
        outs = []
        for i in range(universes):
            chunk = data[i * channels:(i + 1) * channels]
            a = StupidArtnet(target_ip=to, universe=args.universe + i, packet_size=len(chunk), fps=args.fps,
                             port=args.port)
            a.set(bytearray(chunk))
            outs.append(a)
        print(json.dumps({"ready": True}), flush=True)
        while time.monotonic() < end:
            for a in outs:
                a.show()
            frames += 1
            time.sleep(period)
        for a in outs:
            a.close()
    print(json.dumps({"summary": {"frames": frames}}), flush=True)
    return 0


def flood(protocol, args):
    """Datagrams a stream layer must survive: random bytes, and valid packets of the
    protocol truncated, extended, with bytes flipped, or with another universe."""
    import random
    to = loopback(args.to)
    rng = random.Random(args.seed)
    leds = 170
    valid = {
        "e131": lambda: make_e131({"cid": list(range(16)), "source_name": "flood", "universe": args.universe,
                                   "slots": [rng.randrange(256) for _ in range(510)], "priority": 100,
                                   "sequence": rng.randrange(256)}),
        "ddp": lambda: make_ddp({"push": rng.random() < 0.5, "sequence": 1, "offset": rng.randrange(4096),
                                 "data": [rng.randrange(256) for _ in range(leds * 3)]}),
        "artnet": lambda: make_artnet({"port_address": args.universe, "sequence": 1,
                                       "data": [rng.randrange(256) for _ in range(510)]}),
    }[protocol]
    templates = [valid() for _ in range(16)]
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sent = dropped = 0
    for n in range(args.count):
        kind = n % 5
        p = bytearray(rng.choice(templates))
        if kind == 0:
            p = bytearray(rng.randbytes(rng.randrange(1, 1500)))
        elif kind == 1:
            p = p[:rng.randrange(len(p))]
        elif kind == 2:
            p += rng.randbytes(rng.randrange(1, 2000))
        elif kind == 3:
            for _ in range(rng.randrange(1, 8)):
                p[rng.randrange(len(p))] = rng.randrange(256)
        else:
            for _ in range(2):
                i = rng.randrange(min(len(p), 130))
                p[i] = rng.randrange(256)
        try:
            sock.sendto(bytes(p[:9000]), (to, args.port))
            sent += 1
        except OSError:
            dropped += 1
    print(json.dumps({"summary": {"sent": sent, "dropped": dropped}}), flush=True)
    return 0


def main(argv):
    if len(argv) > 2 and argv[1] in ("send", "flood"):
        ap = argparse.ArgumentParser(prog=f"wire-peer.py {argv[1]}")
        ap.add_argument("protocol", choices=["ddp", "e131", "artnet"])
        ap.add_argument("--to", default="127.0.0.1")
        ap.add_argument("--port", type=int, required=True)
        ap.add_argument("--universe", type=int, help="the first universe; default E1.31 1, Art-Net 0")
        if argv[1] == "send":
            ap.add_argument("--leds", type=int, required=True)
            ap.add_argument("--fps", type=float, default=40)
            ap.add_argument("--seconds", type=float, default=5)
            ap.add_argument("--priority", type=int, default=100)
            ap.add_argument("--colour", help="one colour for every pixel, RRGGBB")
        else:
            ap.add_argument("--count", type=int, required=True)
            ap.add_argument("--seed", type=int, default=1)
        args = ap.parse_args(argv[2:])
        if args.universe is None:
            args.universe = 0 if args.protocol == "artnet" else 1
        return (send if argv[1] == "send" else flood)(args.protocol, args)
    if len(argv) > 2 and argv[1] == "receive":
        ap = argparse.ArgumentParser(prog="wire-peer.py receive")
        ap.add_argument("protocol", choices=["ddp", "e131", "artnet", "opc", "flaschen-taschen"])
        ap.add_argument("--port", type=int, default=0, help="0: any free port (the ready line names it)")
        ap.add_argument("--leds", type=int, required=True)
        ap.add_argument("--channels", type=int, default=510, help="channels a universe carries")
        ap.add_argument("--seconds", type=float, default=10)
        ap.add_argument("--artsync", action="store_true", help="Art-Net: a frame ends with ArtSync only")
        ap.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: no limit)")
        ap.add_argument("--width", type=int, default=0, help="FlaschenTaschen: the picture's columns (0: --leds)")
        args = ap.parse_args(argv[2:])
        return receive(args.protocol, args)
    if len(argv) != 3 or argv[1] not in ("parse", "make") or argv[2] not in ("e131", "ddp", "artnet") + (
            ("flaschen-taschen",) if argv[1] == "parse" else ()):
        print(__doc__, file=sys.stderr)
        return 2
    fn = globals()[f"{argv[1]}_{argv[2].replace('-', '_')}"]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if argv[1] == "parse":
            parsed = fn(bytes.fromhex(line))
            if isinstance(parsed.get("data"), bytes):
                parsed["data"] = parsed["data"].hex()
            print(json.dumps(parsed), flush=True)
        else:
            print(fn(json.loads(line)).hex(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
