#!/usr/bin/python3
"""A fake MPRIS media player on the session bus, for the now-playing test.

  tools/mpris-peer.py --signctl PATH --socket SOCK --var NAME STEP...

Owns org.mpris.MediaPlayer2.signdtest and plays STEPs in turn: "ARTIST|TITLE" plays that
track, "stop" stops. After each step it waits (up to 10 s) until signd's `status` shows the
variable as tools/now-playing-mpris should have set it ("ARTIST - TITLE", "TITLE" without an
artist, unset after stop), prints "ok STEP" and goes on; exits 1 if one never shows.
"""
import argparse
import json
import subprocess
import sys
import time

from gi.repository import Gio, GLib

NODE = """
<node>
  <interface name="org.mpris.MediaPlayer2">
    <property name="Identity" type="s" access="read"/>
    <property name="CanQuit" type="b" access="read"/>
    <property name="CanRaise" type="b" access="read"/>
    <property name="HasTrackList" type="b" access="read"/>
    <property name="DesktopEntry" type="s" access="read"/>
    <property name="SupportedUriSchemes" type="as" access="read"/>
    <property name="SupportedMimeTypes" type="as" access="read"/>
    <method name="Raise"/>
    <method name="Quit"/>
  </interface>
  <interface name="org.mpris.MediaPlayer2.Player">
    <property name="PlaybackStatus" type="s" access="read"/>
    <property name="Metadata" type="a{sv}" access="read"/>
    <property name="CanPlay" type="b" access="read"/>
    <property name="CanPause" type="b" access="read"/>
    <property name="CanControl" type="b" access="read"/>
    <method name="Play"/>
    <method name="Pause"/>
    <method name="PlayPause"/>
    <method name="Stop"/>
  </interface>
</node>
"""
PATH = "/org/mpris/MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"


class Player:
    def __init__(self):
        self.status = "Stopped"
        self.metadata = {}
        self.connection = None

    def metadata_variant(self):
        return GLib.Variant("a{sv}", self.metadata)

    def get_property(self, connection, sender, path, interface, name):
        values = {
            "Identity": GLib.Variant("s", "signd test player"), "CanQuit": GLib.Variant("b", False),
            "CanRaise": GLib.Variant("b", False), "HasTrackList": GLib.Variant("b", False),
            "DesktopEntry": GLib.Variant("s", "signdtest"), "SupportedUriSchemes": GLib.Variant("as", []),
            "SupportedMimeTypes": GLib.Variant("as", []), "PlaybackStatus": GLib.Variant("s", self.status),
            "Metadata": self.metadata_variant(), "CanPlay": GLib.Variant("b", True),
            "CanPause": GLib.Variant("b", True), "CanControl": GLib.Variant("b", True),
        }
        return values.get(name)

    def call(self, connection, sender, path, interface, method, parameters, invocation):
        invocation.return_value(None)

    def play(self, artist, title):
        self.metadata = {"mpris:trackid": GLib.Variant("o", "/org/signd/track/%d" % int(time.time() * 1000)),
                         "xesam:title": GLib.Variant("s", title)}
        if artist:
            self.metadata["xesam:artist"] = GLib.Variant("as", [artist])
        self.status = "Playing"
        self.changed()

    def stop(self):
        self.metadata = {}
        self.status = "Stopped"
        self.changed()

    def changed(self):
        changed = {"PlaybackStatus": GLib.Variant("s", self.status), "Metadata": self.metadata_variant()}
        self.connection.emit_signal(None, PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                    GLib.Variant("(sa{sv}as)", (PLAYER, changed, [])))


def shown(args):
    out = subprocess.run([args.signctl, "status", "--json", "--socket", args.socket],
                         capture_output=True, text=True, timeout=10)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout).get("vars", {}).get(args.var, "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--signctl", required=True)
    ap.add_argument("--socket", required=True)
    ap.add_argument("--var", default="track")
    ap.add_argument("steps", nargs="+")
    args = ap.parse_args()

    player = Player()
    node = Gio.DBusNodeInfo.new_for_xml(NODE)
    loop = GLib.MainLoop()
    result = {"code": 1}

    def run_steps():
        for step in args.steps:
            if step == "stop":
                player.stop()
                expected = ""
            else:
                artist, _, title = step.partition("|")
                player.play(artist, title)
                expected = f"{artist} - {title}" if artist else title
            deadline = time.time() + 10
            while shown(args) != expected:
                # Let the bus carry the signal while waiting.
                while GLib.MainContext.default().iteration(False):
                    pass
                if time.time() > deadline:
                    print(f"never shown: {step!r} (signd has {shown(args)!r})", flush=True)
                    loop.quit()
                    return False
                time.sleep(0.05)
            print(f"ok {step}", flush=True)
        result["code"] = 0
        loop.quit()
        return False

    def acquired(connection, name):
        # The follower needs a moment to find the player before the first change.
        GLib.timeout_add(700, run_steps)

    def bus(connection, name):
        player.connection = connection
        for interface in node.interfaces:
            connection.register_object(PATH, interface, player.call, player.get_property, None)

    Gio.bus_own_name(Gio.BusType.SESSION, "org.mpris.MediaPlayer2.signdtest", Gio.BusNameOwnerFlags.NONE,
                     bus, acquired, lambda *a: loop.quit())
    GLib.timeout_add_seconds(60, loop.quit)
    loop.run()
    sys.exit(result["code"])


if __name__ == "__main__":
    main()
