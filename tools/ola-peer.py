#!/usr/bin/python3
"""OLA's olad as the receiver of signd's E1.31, Art-Net and OPC outputs, for the tests.

  ip netns exec NS tools/ola-peer.py --ip ADDR [--seconds S]

Run ONLY inside a network namespace the test created: olad's E1.31 and Art-Net plugins
bind to non-loopback interfaces and broadcast ArtPollReply. The script writes a config
directory that enables the E1.31, Art-Net and Open Pixel Control plugins alone (E1.31
and Art-Net on ADDR, OPC listening on 127.0.0.1:7890, channel 0), starts olad as
`nobody` (it refuses root), patches the plugins' input ports to OLA universes

  1: E1.31 universe 1    2: Art-Net port-address 2    3: OPC channel 0
  4: E1.31 universe 4 (olad joins its multicast group, 239.255.0.4)

and prints one JSON line per DMX frame OLA hands its clients, {"universe": U, "data":
hex}, after a {"ready": true} line; at the end (S seconds, or SIGTERM) it stops olad.
Needs Debian's ola and ola-python (tools/setup.sh).
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

DISABLED = ["dummy", "espnet", "ftdidmx", "gpio", "karate", "kinet", "milinst", "opendmx", "osc", "pathport",
            "renard", "sandnet", "shownet", "spi", "stageprofi", "uartdmx", "usbdmx", "usbserial", "nanoleaf"]
AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def configure(directory, ip):
    def write(name, text):
        with open(os.path.join(directory, f"ola-{name}.conf"), "w") as f:
            f.write(text)
    for name in DISABLED:
        write(name, "enabled = false\n")
    write("e131", f"enabled = true\nip = {ip}\ninput_ports = 2\noutput_ports = 0\nignore_preview = true\n"
                  "draft_discovery = false\nprepend_hostname = false\nrevision = 0.46\ndscp = 0\n")
    write("artnet", f"enabled = true\nip = {ip}\nnet = 0\nsubnet = 0\noutput_ports = 0\nuse_loopback = false\n"
                    "always_broadcast = false\nuse_limited_broadcast = false\nshort_name = ola-peer\n"
                    "long_name = ola-peer\n")
    write("openpixelcontrol", "enabled = true\nlisten = 127.0.0.1:7890\nlisten_127.0.0.1:7890_channel = 0\n")


def devices():
    """{device name: alias} from ola_dev_info."""
    out = subprocess.run(AS_NOBODY + ["ola_dev_info"], capture_output=True, text=True).stdout
    return {m.group(2): int(m.group(1)) for m in re.finditer(r"^Device (\d+): (.+)$", out, re.M)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ip", required=True, help="the namespace's address the plugins bind to")
    ap.add_argument("--seconds", type=float, default=30)
    args = ap.parse_args()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    directory = tempfile.mkdtemp(prefix="ola-peer-")
    os.chmod(directory, 0o777)
    configure(directory, args.ip)
    for name in os.listdir(directory):
        os.chmod(os.path.join(directory, name), 0o666)
    olad = subprocess.Popen(AS_NOBODY + ["olad", "-c", directory, "--no-http", "-l", "2"],
                            stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "olad.log"), "w"))
    try:
        # OLA's command-line clients start an olad of their own (`olad --daemon`, with the
        # default plugins) when none answers yet; ask only once ours listens for clients.
        for _ in range(300):
            if olad.poll() is not None:
                sys.stderr.write("ola-peer: olad exited\n" + open(os.path.join(directory, "olad.log")).read())
                return 1
            try:
                socket.create_connection(("127.0.0.1", 9010), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        found = {}
        for _ in range(100):
            found = devices()
            if any(n.startswith("E1.31") for n in found) and any(n.startswith("ArtNet") for n in found) \
                    and any(n.startswith("OPC Server") for n in found):
                break
            time.sleep(0.1)
        else:
            sys.stderr.write(f"ola-peer: olad's devices did not appear: {found}\n")
            sys.stderr.write(open(os.path.join(directory, "olad.log")).read())
            return 1
        for prefix, port, universe in (("E1.31", 0, 1), ("ArtNet", 0, 2), ("OPC Server", 0, 3), ("E1.31", 1, 4)):
            alias = next(a for n, a in found.items() if n.startswith(prefix))
            subprocess.run(AS_NOBODY + ["ola_patch", "-d", str(alias), "-p", str(port), "-i", "-u", str(universe)],
                           check=True, capture_output=True)
        # The client speaks to olad over TCP on localhost inside the namespace; it needs no root.
        from ola.ClientWrapper import ClientWrapper
        from ola.OlaClient import OlaClient
        wrapper = ClientWrapper()
        client = wrapper.Client()
        counts = {1: 0, 2: 0, 3: 0, 4: 0}

        def frame(universe):
            def received(data):
                counts[universe] += 1
                print(json.dumps({"universe": universe, "data": bytes(data).hex()}), flush=True)
            return received
        for universe in counts:
            client.RegisterUniverse(universe, OlaClient.REGISTER, frame(universe))
        signal.signal(signal.SIGTERM, lambda *_: wrapper.Stop())
        wrapper.AddEvent(int(args.seconds * 1000), wrapper.Stop)
        print(json.dumps({"ready": True}), flush=True)
        wrapper.Run()
        print(json.dumps({"summary": {str(u): n for u, n in counts.items()}}), flush=True)
        return 0
    finally:
        olad.terminate()
        try:
            olad.wait(timeout=5)
        except subprocess.TimeoutExpired:
            olad.kill()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
