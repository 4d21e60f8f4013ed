#!/usr/bin/env bash
# Conformance: the official Supabase Storage client for Python (storage3, from PyPI) against
# `deck sandbox serve` on a free port with a temporary database, and the built deck beside it on
# the same photo. Runs the flow in storage3_flow.py; exits non-zero on any failure, and stops the
# server on every exit path.
#
#   Tests/Conformance/storage3.sh        # uses .build/debug/deck
#   DECK_BIN=/path/to/deck Tests/Conformance/storage3.sh
#
# The client is installed into a private virtual environment, kept between runs in
# .build/clients/ (DECK_CLIENTS_DIR moves it).
set -euo pipefail

version=2.34.1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
deck=${DECK_BIN:-$root/.build/debug/deck}
venv=${DECK_CLIENTS_DIR:-$root/.build/clients}/storage3-$version

if [[ ! -x "$deck" ]]; then
  echo "storage3: no deck binary at $deck; run swift build first, or set DECK_BIN" >&2
  exit 1
fi
command -v python3 >/dev/null || { echo "storage3: python3 is missing (./scripts/setup installs it)" >&2; exit 1; }

work=$(mktemp -d)
server=""
cleanup() {
  if [[ -n "$server" ]] && kill -0 "$server" 2>/dev/null; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import storage3" 2>/dev/null; then
  echo "== storage3: installing storage3==$version into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv" || { echo "storage3: python3 -m venv failed (install python3-venv)" >&2; exit 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "storage3==$version"
fi

# A private config and data directory: the server must not touch the user's sandbox.
DECK_CONFIG_DIR="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" \
  "$deck" sandbox serve --port 0 --db "$work/sandbox.sqlite" >"$work/serve.out" 2>"$work/serve.err" &
server=$!

url="" anon_key=""
for _ in $(seq 1 300); do
  url=$(sed -n 1p "$work/serve.out")
  anon_key=$(sed -n 's/^sandbox-anon-key=//p' "$work/serve.out")
  [[ -n "$url" && -n "$anon_key" ]] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "storage3: deck sandbox serve exited:" >&2
    cat "$work/serve.err" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z "$url" || -z "$anon_key" ]]; then
  echo "storage3: deck sandbox serve printed no URL and anon key within 30 s" >&2
  cat "$work/serve.err" >&2
  exit 1
fi

echo "== storage3 $version against $url"
mkdir -p "$work/home"
"$venv/bin/python" "$here/storage3_flow.py" "$url" "$anon_key" "$deck" "$work/home"
