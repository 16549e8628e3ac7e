#!/usr/bin/env python3
"""The LED network protocols as other projects' code reads and writes them, for signd's
tests: the sacn package (E1.31), python-led-ddp (DDP) and stupidArtnet (Art-Net).

  tools/wire-peer.py parse PROTOCOL    # hex datagrams on stdin, one a line -> JSON lines
  tools/wire-peer.py make PROTOCOL     # JSON requests on stdin, one a line -> hex datagrams

PROTOCOL is e131, ddp or artnet. Nothing is sent anywhere: packets are built and parsed
in memory with the libraries' own packet code (the same code their senders and receivers
run). tools/setup.sh installs the three packages from PyPI when missing.
"""
import json
import sys


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


def main(argv):
    if len(argv) != 3 or argv[1] not in ("parse", "make") or argv[2] not in ("e131", "ddp", "artnet"):
        print(__doc__, file=sys.stderr)
        return 2
    fn = globals()[f"{argv[1]}_{argv[2]}"]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if argv[1] == "parse":
            print(json.dumps(fn(bytes.fromhex(line))), flush=True)
        else:
            print(fn(json.loads(line)).hex(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
