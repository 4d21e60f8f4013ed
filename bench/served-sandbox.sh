# shellcheck shell=bash
# Sourced by bench/run: a private HOME and a served sandbox.
#   free_port                 prints a free loopback port
#   serve_sandbox DECK WORK   points HOME and the XDG directories into WORK, starts
#                             `DECK sandbox serve` on a free port with its database in WORK, and
#                             waits for it. Sets server (its pid), port, db, base
#                             (http://127.0.0.1:PORT) and admin_token. If the server prints no
#                             admin token, shows its output and exits 1. The caller stops it.
#                             Sets operator_env: the variables that give a command the
#                             environment `bench`, every service at base (deck env add --sandbox),
#                             for the operator commands, which use the auth service. Its config
#                             file is its own: the measured commands read none, as before.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

serve_sandbox() {
  local deck=$1 work=$2
  export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state
  port=$(free_port)
  db=$work/served.sqlite
  # stdout: the URL, then sandbox-admin-token=TOKEN (operator endpoints), then sandbox-anon-key=KEY.
  "$deck" sandbox serve --port "$port" --db "$db" >"$work/serve.out" 2>"$work/serve.log" &
  server=$!
  base="http://127.0.0.1:$port"
  for _ in $(seq 300); do [[ $(wc -l <"$work/serve.out") -ge 3 ]] && break; sleep 0.1; done
  admin_token=$(sed -n 's/^sandbox-admin-token=//p' "$work/serve.out")
  if [[ -z "$admin_token" ]]; then
    echo "$(basename "$0"): deck sandbox serve printed no admin token:" >&2
    cat "$work/serve.out" "$work/serve.log" >&2
    exit 1
  fi
  operator_env="XDG_CONFIG_HOME=$work/operator-config DECK_ENV=bench"
  env $operator_env "$deck" env add bench --sandbox "$base" >/dev/null
}
