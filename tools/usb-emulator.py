#!/usr/bin/python3
"""Emulated USB LED controllers for signd's tests, on umockdev.

Runs a command (normally `signd run ...`) with fake USB devices that an unmodified
libusb finds, opens and streams to, and records every byte they receive.

    tools/usb-emulator.py --device fadecandy:FC01 --events EVENTS --commands FIFO -- CMD...

--device TYPE[:SERIAL]   fadecandy (1d50:607a), framework (32ac:0020) or bulk (VID:PID
                         given as bulk:SERIAL:VVVV:PPPP); repeatable.
--events FILE            JSON lines, one per event: plugged, unplugged, claim, release,
                         detach-driver, attach-driver, bulk (endpoint, hex data), control.
                         `t` is CLOCK_MONOTONIC in seconds, the clock signd's frames use.
--commands FIFO          lines "unplug SERIAL" / "plug SERIAL" (serial of a --device).
--latency-ms MS          how long a bulk transfer takes on the emulated bus (default 0.2).

The harness runs itself under umockdev-wrapper so the child inherits the preload
library and sees uevents. It exits with the command's status. Requires Debian's
umockdev, gir1.2-umockdev-1.0 and python3-gi (tools/setup.sh installs them).
"""

import argparse
import ctypes
import json
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time

if "umockdev" not in os.environ.get("LD_PRELOAD", ""):
    os.execvp("umockdev-wrapper", ["umockdev-wrapper", sys.executable] + sys.argv)

import gi  # noqa: E402

gi.require_version("UMockdev", "1.0")
from gi.repository import GLib, UMockdev  # noqa: E402

# usbdevfs ioctl requests on 64-bit Linux (linux/usbdevice_fs.h).
CONTROL = 0xC0185500
SETINTERFACE = 0x80085504
SETCONFIGURATION = 0x80045505
GETDRIVER = 0x41045508
SUBMITURB = 0x8038550A
DISCARDURB = 0x550B
REAPURB = 0x4008550C
REAPURBNDELAY = 0x4008550D
CLAIMINTERFACE = 0x8004550F
RELEASEINTERFACE = 0x80045510
IOCTL = 0xC0105512
RESET = 0x5514
CLEAR_HALT = 0x80045515
DISCONNECT = 0x5516
CONNECT = 0x5517
GET_CAPABILITIES = 0x8004551A
RESETEP = 0x80045503
URB_SIZE = 56  # struct usbdevfs_urb: type 0, endpoint 1, status 4, buffer 16, length 24, actual 28
URB_TYPE_CONTROL = 2
CAPS = 0x01 | 0x02 | 0x04 | 0x08 | 0x10  # zero packet, bulk continuation, no size limit, reap after disconnect, SG

ESHUTDOWN, ENODEV, EAGAIN, ENODATA, EINVAL, ENOENT = 108, 19, 11, 61, 22, 2

lock = threading.Lock()
events_file = None


def now():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def record(event, **fields):
    with lock:
        fields["event"] = event
        fields["t"] = now()
        events_file.write(json.dumps(fields) + "\n")
        events_file.flush()


def payload(data):
    """The bytes of a UMockdevIoctlData. PyGObject's `data` stops at the first NUL (the
    array's length is not annotated), so read the Vala instance's fields instead:
    GTypeInstance, ref_count, priv, then data (offset 24) and data_length1 (offset 32)."""
    instance = ctypes.c_void_p.from_address(id(data) + 16).value  # PyGIFundamental's pointer
    pointer = ctypes.c_void_p.from_address(instance + 24).value
    length = ctypes.c_int.from_address(instance + 32).value
    return ctypes.string_at(pointer, length) if pointer and length > 0 else b""


def string_descriptor(text):
    data = text.encode("utf-16-le")
    return bytes([2 + len(data), 3]) + data


def endpoint(address, attributes, size):
    return struct.pack("<BBBBHB", 7, 5, address, attributes, size, 0)


def interface(number, endpoints, cls, subclass=0, protocol=0):
    return struct.pack("<BBBBBBBBB", 9, 4, number, 0, endpoints, cls, subclass, protocol, 0)


def descriptors(vid, pid, interfaces):
    body = b"".join(interfaces)
    config = struct.pack("<BBHBBBBB", 9, 2, 9 + len(body), sum(1 for i in interfaces if i[1] == 4), 1, 0, 0x80, 50)
    device = struct.pack("<BBHBBBBHHHBBBB", 18, 1, 0x0200, 0, 0, 0, 64, vid, pid, 0x0100, 1, 2, 3, 1)
    return device + config + body


def model(kind, serial, extra):
    """VID, PID, descriptor blob, product name and the interface a kernel driver holds."""
    if kind == "fadecandy":
        blob = descriptors(0x1D50, 0x607A, [interface(0, 1, 0xFF) + endpoint(0x01, 2, 64)])
        return 0x1D50, 0x607A, blob, "Fadecandy", None
    if kind == "framework":
        blob = descriptors(
            0x32AC,
            0x0020,
            [
                interface(0, 1, 0x02, 0x02, 0x01) + endpoint(0x81, 3, 16),
                interface(1, 2, 0x0A) + endpoint(0x01, 2, 64) + endpoint(0x82, 2, 64),
            ],
        )
        return 0x32AC, 0x0020, blob, "LED Matrix Input Module", 1
    if kind == "bulk":
        vid, pid = int(extra[0], 16), int(extra[1], 16)
        blob = descriptors(vid, pid, [interface(0, 1, 0xFF) + endpoint(0x01, 2, 64)])
        return vid, pid, blob, "Custom LED panel", None
    raise SystemExit(f"usb-emulator: unknown device type {kind!r}")


class Device(UMockdev.IoctlBase):
    """One plugged-in device: answers usbdevfs ioctls for its /dev/bus/usb node."""

    def __init__(self, kind, serial, product, driver_interface, latency):
        super().__init__()
        self.kind, self.serial, self.product = kind, serial, product
        self.latency = latency
        self.gone = False
        self.driver_bound = driver_interface is not None
        self.driver_interface = driver_interface
        self.done = []  # (ready time, urb data, status) waiting to be reaped
        self.in_flight = 0
        self.max_in_flight = 0

    def do_handle_ioctl(self, client):
        request = client.get_request()
        if os.environ.get("USB_EMULATOR_DEBUG"):
            print(f"usb-emulator: ioctl {request:#x}", file=sys.stderr)
        arg = client.get_arg()
        with lock:
            gone = self.gone
        if gone and request not in (REAPURB, REAPURBNDELAY):
            client.complete(-1, ENODEV)
            return True
        if request == GET_CAPABILITIES:
            arg.resolve(0, 4).update(0, struct.pack("<I", CAPS))
            client.complete(0, 0)
        elif request in (CLAIMINTERFACE, RELEASEINTERFACE):
            number = struct.unpack("<I", payload(arg.resolve(0, 4)))[0]
            record("claim" if request == CLAIMINTERFACE else "release", serial=self.serial, interface=number)
            client.complete(0, 0)
        elif request in (SETCONFIGURATION, SETINTERFACE, RESET, CLEAR_HALT, RESETEP):
            client.complete(0, 0)
        elif request == GETDRIVER:
            driver = arg.resolve(0, 260)
            number = struct.unpack("<I", payload(driver)[:4])[0]
            if self.driver_bound and number == self.driver_interface:
                driver.update(4, b"cdc_acm\0")
                client.complete(0, 0)
            else:
                client.complete(-1, ENODATA)
        elif request == IOCTL:
            number, code = struct.unpack("<iI", payload(arg.resolve(0, 16))[:8])
            if code == DISCONNECT and self.driver_bound and number == self.driver_interface:
                self.driver_bound = False
                record("detach-driver", serial=self.serial, interface=number)
                client.complete(0, 0)
            elif code == CONNECT and not self.driver_bound and number == self.driver_interface:
                self.driver_bound = True
                record("attach-driver", serial=self.serial, interface=number)
                client.complete(0, 0)
            else:
                client.complete(-1, ENODATA)
        elif request == SUBMITURB:
            self.submit(client, arg)
        elif request in (REAPURB, REAPURBNDELAY):
            self.reap(client, arg)
        elif request == DISCARDURB:
            client.complete(-1, EINVAL)
        else:
            return False
        return True

    def submit(self, client, arg):
        urb = arg.resolve(0, URB_SIZE)
        raw = payload(urb)
        kind, ep = raw[0], raw[1]
        length = struct.unpack("<i", raw[24:28])[0]
        buffer = urb.resolve(16, length)
        data = payload(buffer)
        actual = length
        if kind == URB_TYPE_CONTROL:
            actual = self.control(buffer, data)
        else:
            record("bulk", serial=self.serial, endpoint=ep, data=data.hex())
        # In-flight counts frames: for a Fadecandy its framebuffer transfers (not the LUT
        # and config sent on connect), for the others every bulk transfer.
        frame = kind != URB_TYPE_CONTROL and (self.kind != "fadecandy" or (data[:1] or b"\0")[0] & 0xC0 == 0)
        with lock:
            if frame:
                self.in_flight += 1
                self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.done.append((now() + self.latency, urb, actual, frame))
        client.complete(0, 0)

    def control(self, buffer, data):
        """Answers GET_DESCRIPTOR(string); returns the bytes of the data stage."""
        request_type, request, value, index, length = struct.unpack("<BBHHH", data[:8])
        if request_type == 0x80 and request == 6 and value >> 8 == 3:
            number = value & 0xFF
            strings = {0: b"\x04\x03\x09\x04", 1: string_descriptor("signd tests"),
                       2: string_descriptor(self.product), 3: string_descriptor(self.serial)}
            reply = strings.get(number, b"")[:length]
            buffer.update(8, reply)
            return len(reply)
        record("control", serial=self.serial, setup=data[:8].hex(), data=data[8:].hex())
        return 0

    def reap(self, client, arg):
        with lock:
            ready = [d for d in self.done if d[0] <= now() or self.gone]
            item = ready[0] if ready else None
            if item:
                self.done.remove(item)
                self.in_flight -= 1 if item[3] else 0
            gone = self.gone
        if item is None:
            if gone:
                client.complete(-1, ENODEV)
                return
            time.sleep(0.002)  # the fake node always polls ready: do not let libusb spin
            client.complete(-1, EAGAIN)
            return
        _, urb, actual, _ = item
        status = -ESHUTDOWN if gone else 0
        urb.update(4, struct.pack("<i", status))
        urb.update(28, struct.pack("<i", actual if not gone else 0))
        arg.resolve(0, 8).set_ptr(0, urb)
        client.complete(0, 0)


class Bus:
    def __init__(self, latency):
        self.testbed = UMockdev.Testbed.new()
        self.latency = latency
        self.devices = {}  # serial -> (spec, syspath, handler)
        self.specs = {}
        self.next_devnum = 2

    def plug(self, serial):
        kind, extra = self.specs[serial]
        vid, pid, blob, product, driver_interface = model(kind, serial, extra)
        devnum = self.next_devnum
        self.next_devnum += 1
        node = f"/dev/bus/usb/001/{devnum:03d}"
        handler = Device(kind, serial, product, driver_interface, self.latency)
        self.testbed.attach_ioctl(node, handler)
        syspath = f"/sys/devices/pci0000:00/usb1/1-{devnum}"
        # Recorded before the device appears: signd may open and claim it at once, from
        # another process, and its claim must not be logged ahead of the plug.
        record("plugged", serial=serial, kind=kind, devnum=devnum)
        self.testbed.add_from_string(
            f"P: {syspath[4:]}\n"
            f"N: bus/usb/001/{devnum:03d}\n"
            "E: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DRIVER=usb\n"
            f"E: BUSNUM=001\nE: DEVNUM={devnum:03d}\nE: DEVNAME={node}\n"
            f"E: PRODUCT={vid:x}/{pid:x}/100\n"
            f"A: busnum=1\\n\nA: devnum={devnum}\\n\nA: speed=12\\n\n"
            f"A: idVendor={vid:04x}\\n\nA: idProduct={pid:04x}\\n\nA: serial={serial}\\n\n"
            "A: bConfigurationValue=1\\n\nA: bNumConfigurations=1\\n\n"
            f"H: descriptors={blob.hex()}\n"
        )
        self.devices[serial] = (node, syspath, handler)

    def unplug(self, serial):
        node, syspath, handler = self.devices.pop(serial)
        with lock:
            handler.gone = True
        time.sleep(0.02)  # in-flight urbs complete with -ESHUTDOWN first, as in the kernel
        self.testbed.uevent(syspath, "remove")
        self.testbed.remove_device(syspath)
        self.testbed.detach_ioctl(node)
        record("unplugged", serial=serial, max_in_flight=handler.max_in_flight)

    def stats(self):
        return {s: h.max_in_flight for s, (_, _, h) in self.devices.items()}


def main():
    global events_file
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", action="append", default=[])
    parser.add_argument("--events", required=True)
    parser.add_argument("--commands")
    parser.add_argument("--latency-ms", type=float, default=0.2)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    # SIGTERM and SIGINT are blocked in every thread (the bus's GLib threads and the command
    # reader inherit this) and taken by the main loop below, which passes them on. A Python
    # handler would run only once the main thread's wait for the child is interrupted, which
    # happens only when the kernel picks the main thread: picked another, signd was never
    # told and the emulator waited for ever.
    forwarded = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, forwarded)
    events_file = open(args.events, "a")

    bus = Bus(args.latency_ms / 1000)
    root = bus.testbed.get_root_dir()
    for spec in args.device:
        kind, _, rest = spec.partition(":")
        parts = rest.split(":") if rest else []
        serial = parts[0] if parts else f"{kind}-1"
        bus.specs[serial] = (kind, parts[1:])
        bus.plug(serial)

    loop = GLib.MainLoop()
    threading.Thread(target=loop.run, daemon=True).start()

    env = dict(os.environ, UMOCKDEV_DIR=root)
    child = subprocess.Popen(command, env=env)

    if args.commands:
        # The preload library wraps open() and read() under a lock that its ioctl
        # emulation needs too: a FIFO open or read that blocks would stall the device.
        # So open both ends without blocking and wait with select().
        if not os.path.exists(args.commands):
            os.mkfifo(args.commands)
        reader = os.open(args.commands, os.O_RDONLY | os.O_NONBLOCK)
        keep_open = os.open(args.commands, os.O_WRONLY | os.O_NONBLOCK)  # no EOF between writers

        def commands():
            pending = b""
            while True:
                select.select([reader], [], [], 0.5)
                try:
                    pending += os.read(reader, 4096)
                except BlockingIOError:
                    continue
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    verb, _, serial = line.decode().strip().partition(" ")
                    record("command", line=line.decode())
                    try:
                        if verb == "unplug":
                            bus.unplug(serial)
                        elif verb == "plug":
                            bus.plug(serial)
                        else:
                            record("bad-command", line=line.decode())
                    except Exception as error:  # keep serving: the test reads the event
                        record("bad-command", line=line.decode(), error=str(error))

        threading.Thread(target=commands, daemon=True).start()

    while child.poll() is None:
        received = signal.sigtimedwait(forwarded, 0.05)
        if received is not None:
            os.kill(child.pid, received.si_signo)
    status = child.returncode
    record("exit", status=status, max_in_flight=bus.stats())
    shutil.rmtree(root, ignore_errors=True)
    os._exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    main()
