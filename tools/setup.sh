#!/usr/bin/env bash
# Installs the Debian packages signd needs to build and run (`tools/setup.sh`, what
# `make demo` and `make build` call), with --test also what its tests talk to (`make
# test`), with --bench what the benchmarks' peer needs (`make bench`), with --deb what
# building and checking the Debian package needs (`make deb`), but only the ones that are
# missing, so each is cheap once set up.
#
#   tools/setup.sh [--test | --bench | --deb]
set -euo pipefail

packages=(
  pkg-config
  libfreetype-dev
  libusb-1.0-0-dev
  libsystemd-dev
  libpng-dev
  libgif-dev         # GIF image layers and icons (giflib)
  libwebp-dev        # WebP image layers and icons, still and animated (libwebp's demux)
  libmosquitto-dev   # MQTT's client library
  libharfbuzz-dev    # text shaping (joining, conjuncts, marks, emoji sequences)
  libfribidi-dev     # the Unicode Bidirectional Algorithm, for Arabic and Hebrew
  xfonts-base
  fonts-unifont
  fonts-noto-color-emoji  # colour emoji in text
  # Arabic, Hebrew, Devanagari, Thai and most other scripts with their OpenType tables
  # (Noto Sans/Naskh); 42 MB installed. Debian ships no smaller package of these faces
  # (fonts-freefont-ttf is 7 MB but its Arabic and Devanagari shape poorly).
  fonts-noto-core
)

if [[ "${1:-}" == "--bench" ]]; then
  packages+=(libcairo2-dev)  # the C cairo peer signd's renderer is measured against (tools/bench-cairo)
fi

if [[ "${1:-}" == "--deb" ]]; then
  packages+=(debhelper dpkg-dev fakeroot lintian)  # dpkg-buildpackage with dh, and Debian's package checker
fi

if [[ "${1:-}" == "--test" ]]; then
  packages+=(
    fonts-dejavu-core  # an outline font with kerning, for the text tests
    systemd            # systemd-socket-activate, systemd-analyze
    umockdev gir1.2-umockdev-1.0 python3-gi  # emulated USB devices for the USB output tests
    ola ola-python iproute2  # OLA's olad receiving signd's network outputs, in a test's own network namespace
    playerctl dbus-bin  # tools/now-playing-mpris, tested against a fake MPRIS player on a private session bus
    chromium chromium-driver  # the web page's tests, in a real headless browser (tools/web-peer.py)
    mosquitto mosquitto-clients  # a broker and its clients for the MQTT tests
    openssl            # a test CA for MQTT over TLS
    bash-completion zsh fish  # the shells whose completion scripts signctl and signd generate
    groff man-db       # the man pages rendered as `man` would, warnings on (tools/check-manuals)
    socat              # two joined pseudo-terminals standing for a USB serial port (serial output tests)
    libcairo2-dev      # cairo for pycairo, built from source by pip: the path and transform references
  )

  # The LED network protocols as other projects implement them, for the wire tests
  # (tools/wire-peer.py), and Selenium and a WebSocket client for the web page's tests
  # (tools/web-peer.py, tools/web-viewers), and Jinja2 for rendering the Home Assistant
  # templates as Home Assistant does (tools/check-ha-templates), and prometheus_client's
  # parser for /metrics (tools/web-peer.py metrics), pyserial for the serial outputs'
  # receiver (tools/serial-peer.py), Pillow's PPM reader for the FlaschenTaschen receiver
  # (tools/wire-peer.py) and scapy for the Colorlight capture (tools/colorlight-peer.py):
  # from PyPI, into the python3 on PATH, when missing.
  python_peers=(sacn==1.11.0 python-led-ddp==1.0.1 stupidArtnet==1.6.0 selenium==4.38.0 websocket-client==1.9.2
    jinja2==3.1.6 prometheus-client==0.26.0 pyserial==3.5 Pillow==13.0.0 scapy==2.8.0
    uharfbuzz==0.57.0 python-bidi==0.6.12 regex==2026.5.9  # the shaping reference (tools/shaping-reference.py)
    pycairo==1.29.2)  # the path coverage, transformed-layer and transformed-shadow references (tools/path-reference.py, tools/transform-reference.py, tools/shadow-reference.py)
  if ! python3 -c "import sacn, ddp, stupidArtnet, selenium, websocket, jinja2, prometheus_client, serial, PIL, scapy, uharfbuzz, bidi, regex, cairo" 2>/dev/null; then
    echo "setup: installing ${python_peers[*]} from PyPI" >&2
    python3 -m pip install -q --disable-pip-version-check "${python_peers[@]}" </dev/null
  fi
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq </dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
