# shellcheck shell=bash
# Sourced by bench/run: a private HOME and served sandboxes.
#   free_port                 prints a free loopback port
#   serve_sandbox DECK WORK   points HOME and the XDG directories into WORK, starts
#                             `DECK sandbox serve` on a free port with its SQLite database in
#                             WORK, and waits for it (serve_instance, environment `bench`). Sets
#                             server (its pid), port, db, base (http://127.0.0.1:PORT) and
#                             admin_token. If the server prints no admin token, shows its output
#                             and exits 1. Sets operator_env: the variables that give a command the
#                             environment `bench`, every service at base (deck env add --sandbox),
#                             for the operator commands, which use the auth service. Its config
#                             file is its own: the measured commands read none, as before.
#   serve_instance DECK WORK NAME DATABASE
#                             starts `DECK sandbox serve --port 0 --database DATABASE` (a SQLite
#                             file or a postgres:// URL; several instances may serve one
#                             PostgreSQL database), its output in WORK/NAME.out and WORK/NAME.log,
#                             waits for its URL and admin token, and adds the environment NAME,
#                             every service at its URL, to the operator config
#                             (XDG_CONFIG_HOME=WORK/operator-config; use it with DECK_ENV=NAME).
#                             Sets instance_pid, instance_base and instance_token, and appends the
#                             pid to the array servers. The caller stops them (bench/run's trap).
#                             Call it in the shell itself, not in $( ): the server is its child.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

servers=()

serve_instance() {
  local deck=$1 work=$2 name=$3 database=$4
  # stdout: the URL, then sandbox-admin-token=TOKEN (operator endpoints), then sandbox-anon-key=KEY.
  "$deck" sandbox serve --port 0 --database "$database" >"$work/$name.out" 2>"$work/$name.log" &
  instance_pid=$!
  servers+=("$instance_pid")
  for _ in $(seq 600); do
    [[ $(wc -l <"$work/$name.out") -ge 3 ]] && break
    kill -0 "$instance_pid" 2>/dev/null || break
    sleep 0.1
  done
  instance_base=$(sed -n '1{/^http:\/\/127\.0\.0\.1:[0-9]*$/p}' "$work/$name.out")
  instance_token=$(sed -n 's/^sandbox-admin-token=//p' "$work/$name.out")
  if [[ -z "$instance_base" || -z "$instance_token" ]]; then
    echo "$(basename "$0"): deck sandbox serve ($name) printed no URL or admin token:" >&2
    cat "$work/$name.out" "$work/$name.log" >&2
    exit 1
  fi
  XDG_CONFIG_HOME=$work/operator-config "$deck" env add "$name" --sandbox "$instance_base" >/dev/null
}

serve_sandbox() {
  local deck=$1 work=$2
  export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state
  db=$work/served.sqlite
  serve_instance "$deck" "$work" bench "$db"
  server=$instance_pid base=$instance_base admin_token=$instance_token port=${instance_base##*:}
  operator_env="XDG_CONFIG_HOME=$work/operator-config DECK_ENV=bench"
}
