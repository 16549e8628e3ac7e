#!/usr/bin/env bash
# Runs signd on the demo config with the live terminal preview. The control socket is
# signd's default, /run/signd/control.sock, when this user may create it (so a plain
# `signctl set-text "Hello"` in another terminal reaches the demo); otherwise it falls back
# to a per-user path and says how to point signctl at it.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-configs/demo.toml}
bin=$(swift build --show-bin-path)

if [[ -n "${SIGND_SOCKET:-}" ]]; then
  socket=$SIGND_SOCKET
elif mkdir -p /run/signd 2>/dev/null && [[ -w /run/signd ]]; then
  socket=/run/signd/control.sock
else
  socket=${XDG_RUNTIME_DIR:-/tmp}/signd-demo.sock
  echo "The control socket is $socket: in another terminal run"
  echo "  export SIGND_SOCKET=$socket"
  sleep 2
fi
echo "Change the text from another terminal with:  $bin/signctl set-text \"Hello\""
echo "Watch it there too with:                     $bin/signctl watch demo"
sleep 1
exec "$bin/signd" run --config "$config" --socket "$socket" --preview
