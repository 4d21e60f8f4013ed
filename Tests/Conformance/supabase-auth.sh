#!/usr/bin/env bash
# Conformance: the official Supabase auth client for Python (supabase-auth, from PyPI) against
# `deck sandbox serve` on a free port with a temporary database. Runs the flow in
# supabase_auth_flow.py (sign-in, refresh, recovery through the outbox, PKCE); exits non-zero on any failure, and stops the server on every exit path.
#
#   Tests/Conformance/supabase-auth.sh        # uses .build/debug/deck
#   DECK_BIN=/path/to/deck Tests/Conformance/supabase-auth.sh
#
# The client is installed into a private virtual environment, kept between runs in
# .build/clients/ (DECK_CLIENTS_DIR moves it).
set -euo pipefail

version=2.34.1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
deck=${DECK_BIN:-$root/.build/debug/deck}
venv=${DECK_CLIENTS_DIR:-$root/.build/clients}/supabase-auth-$version

if [[ ! -x "$deck" ]]; then
  echo "supabase-auth: no deck binary at $deck; run swift build first, or set DECK_BIN" >&2
  exit 1
fi
command -v python3 >/dev/null || { echo "supabase-auth: python3 is missing (./scripts/setup installs it)" >&2; exit 1; }

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

if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import supabase_auth" 2>/dev/null; then
  echo "== supabase-auth: installing supabase-auth==$version into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv" || { echo "supabase-auth: python3 -m venv failed (install python3-venv)" >&2; exit 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "supabase-auth==$version"
fi

# A private config and data directory: the server must not touch the user's sandbox.
DECK_CONFIG_DIR="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" \
  "$deck" sandbox serve --port 0 --db "$work/sandbox.sqlite" >"$work/serve.out" 2>"$work/serve.err" &
server=$!

url="" anon_key="" admin_token=""
for _ in $(seq 1 300); do
  url=$(sed -n 1p "$work/serve.out")
  anon_key=$(sed -n 's/^sandbox-anon-key=//p' "$work/serve.out")
  admin_token=$(sed -n 's/^sandbox-admin-token=//p' "$work/serve.out")
  [[ -n "$url" && -n "$anon_key" && -n "$admin_token" ]] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "supabase-auth: deck sandbox serve exited:" >&2
    cat "$work/serve.err" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z "$url" || -z "$anon_key" || -z "$admin_token" ]]; then
  echo "supabase-auth: deck sandbox serve printed no URL and anon key within 30 s" >&2
  cat "$work/serve.err" >&2
  exit 1
fi

echo "== supabase-auth $version against $url"
# The admin token reads the outbox (the recovery emails), as `deck sandbox outbox` does; in the
# environment, not on the command line, where any process could read it.
SANDBOX_ADMIN_TOKEN="$admin_token" "$venv/bin/python" "$here/supabase_auth_flow.py" "$url" "$anon_key"
