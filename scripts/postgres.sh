#!/usr/bin/env bash
# A PostgreSQL server of its own for the indexer (its tests, its benchmark, a local deployment): a data
# directory, a server bound to 127.0.0.1 only, one database, and the DATABASE_URL to reach it.
#
#   bash scripts/postgres.sh [start] [--dir DIR] [--port PORT] [--database NAME]
#   export "$(bash scripts/postgres.sh)"          # DATABASE_URL=postgres://gridforge:…@127.0.0.1:54320/gridforge
#   bash scripts/postgres.sh stop [--dir DIR]
#   bash scripts/postgres.sh status [--dir DIR]   # exit 0 and the DATABASE_URL while it runs, 1 when stopped
#   bash scripts/postgres.sh install              # only the server binaries (apt), as setup.sh --test does
#
# `start` is idempotent: it brings the server binaries (Debian's postgresql from apt, when missing and this
# shell is root), creates DIR (default $TMPDIR/gridforge-postgres) with a new cluster the first time, starts
# the server when it is not running (on PORT, else the port it had, else the first free one from 54320) and
# creates the database NAME (default gridforge) when it is missing. Its only output on stdout is the line
# DATABASE_URL=…; what it does goes to stderr. The superuser is `gridforge`, with a random password kept in
# DIR/password; connections need it, TCP and socket alike.
#
# PostgreSQL refuses to run as root: as root, the server runs as the system user gridforge-pg (created here
# when missing), which owns DIR, so DIR's parent directories must be open to it (/tmp is).
#
# Exit status: 0 done, 1 failed (the reason on stderr), 2 a bad argument, 3 no server binaries and no way
# to install them here (not root, or no apt-get): the indexer's PostgreSQL tests skip on 3 outside CI.
# Environment: GRIDFORGE_POSTGRES_DIR, the default --dir; GRIDFORGE_POSTGRES_BIN, the directory of initdb,
# pg_ctl and postgres (default: the newest /usr/lib/postgresql/*/bin, else postgres on PATH).
set -euo pipefail

pg_user=gridforge-pg
superuser=gridforge
first_port=54320

say() { echo "postgres: $*" >&2; }
fail() {
  say "$*"
  exit 1
}

usage() {
  sed -n '5,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

command="start"
case "${1:-}" in
start | stop | status | install)
  command="$1"
  shift
  ;;
esac
dir="${GRIDFORGE_POSTGRES_DIR:-${TMPDIR:-/tmp}/gridforge-postgres}"
port=""
database="gridforge"
while [ "$#" -gt 0 ]; do
  case "$1" in
  --dir) dir="${2:?--dir takes a directory}" && shift 2 ;;
  --port) port="${2:?--port takes a port number}" && shift 2 ;;
  --database) database="${2:?--database takes a name}" && shift 2 ;;
  -h | --help) usage ;;
  *)
    say "unknown argument $1"
    usage
    ;;
  esac
done
if [ -n "$port" ] && ! [[ "$port" =~ ^[0-9]+$ && "$port" -ge 1024 && "$port" -le 65535 ]]; then
  say "--port: expected a port number from 1024 to 65535, got \"$port\""
  exit 2
fi
# A name that needs no quoting in SQL nor in a URL.
if ! [[ "$database" =~ ^[a-z_][a-z0-9_]{0,62}$ ]]; then
  say "--database: expected lower-case letters, digits and _ (not first a digit), got \"$database\""
  exit 2
fi
case "$dir" in
/*) ;;
*) dir="$PWD/$dir" ;;
esac
data="$dir/data"

# The newest installed server's bin directory (Debian keeps each major version under /usr/lib/postgresql).
find_bin() {
  local candidate
  if [ -n "${GRIDFORGE_POSTGRES_BIN:-}" ]; then
    [ -x "$GRIDFORGE_POSTGRES_BIN/postgres" ] && echo "$GRIDFORGE_POSTGRES_BIN" && return 0
    return 1
  fi
  for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
    [ -x "$candidate/postgres" ] && [ -x "$candidate/initdb" ] && echo "$candidate" && return 0
  done
  candidate="$(command -v postgres 2>/dev/null || true)"
  [ -n "$candidate" ] && [ -x "$(dirname "$candidate")/initdb" ] && dirname "$candidate" && return 0
  return 1
}

install_binaries() {
  if bin="$(find_bin)"; then return 0; fi
  if [ -n "${GRIDFORGE_POSTGRES_BIN:-}" ]; then
    fail "GRIDFORGE_POSTGRES_BIN: no postgres in $GRIDFORGE_POSTGRES_BIN (expected the directory of initdb, pg_ctl and postgres)"
  fi
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say "no PostgreSQL server binaries (initdb, pg_ctl, postgres) on this machine, and installing them needs"
    say "root and apt-get. Install them (Debian, Ubuntu: sudo apt-get install postgresql), or point"
    say "GRIDFORGE_POSTGRES_BIN at their directory, then run this again."
    exit 3
  fi
  say "installing postgresql from apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  bin="$(find_bin)" || fail "apt installed postgresql, but no initdb and postgres were found under /usr/lib/postgresql"
}

# Runs a command as the user the server runs as: this one, or gridforge-pg when this is root.
as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$pg_user" -- "$@"; else "$@"; fi
}

ensure_server_user() {
  [ "$(id -u)" -eq 0 ] || return 0
  id -u "$pg_user" >/dev/null 2>&1 && return 0
  say "creating the system user $pg_user (PostgreSQL refuses to run as root)"
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$pg_user"
}

# The running server's port (postmaster.pid's fourth line), or nothing when it is stopped.
running_port() {
  [ -f "$data/PG_VERSION" ] || return 0
  if as_server_user "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; then
    sed -n '4p' "$data/postmaster.pid"
  fi
}

url() {
  echo "DATABASE_URL=postgres://$superuser:$(cat "$dir/password")@127.0.0.1:$1/$database"
}

# Nothing answers on 127.0.0.1:$1 (a connection is refused).
port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

init_cluster() {
  say "creating a cluster in $data"
  mkdir -p "$dir"
  chmod 700 "$dir"
  if [ "$(id -u)" -eq 0 ]; then chown "$pg_user:" "$dir"; fi
  if ! as_server_user test -w "$dir"; then
    fail "$dir: the user $pg_user cannot write there (a parent directory is closed to it); use a --dir under /tmp"
  fi
  # The password goes to initdb through a file only the server's user reads, then stays as DIR/password.
  local password
  password="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
  (umask 077 && printf '%s\n' "$password" >"$dir/password")
  if [ "$(id -u)" -eq 0 ]; then chown "$pg_user:" "$dir/password"; fi
  as_server_user "$bin/initdb" -D "$data" -U "$superuser" --pwfile="$dir/password" \
    --auth=scram-sha-256 --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 ||
    {
      cat "$dir/initdb.log" >&2
      fail "initdb failed (its output above)"
    }
  # Only 127.0.0.1, and a socket in DIR instead of /var/run/postgresql (which belongs to Debian's postgres).
  cat >>"$data/postgresql.conf" <<EOF

# scripts/postgres.sh
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
EOF
}

start_server() {
  local candidate="${port:-}"
  if [ -z "$candidate" ] && [ -f "$dir/port" ]; then candidate="$(cat "$dir/port")"; fi
  candidate="${candidate:-$first_port}"
  local tries=0
  for (( ; ; )); do
    if [ -n "$port" ] || port_free "$candidate"; then
      say "starting PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$candidate ($data)"
      if as_server_user "$bin/pg_ctl" start -D "$data" -l "$dir/server.log" -w -t 60 -o "-p $candidate" >/dev/null; then
        echo "$candidate" >"$dir/port"
        started_port="$candidate"
        return 0
      fi
      # A port taken between the check and the bind: try the next one, unless the caller chose this one.
      if [ -n "$port" ] || ! tail -n 20 "$dir/server.log" | grep -q 'could not bind\|already in use'; then
        tail -n 20 "$dir/server.log" >&2 || true
        fail "the server did not start (the end of $dir/server.log above)"
      fi
    fi
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || fail "no free port from $first_port to $((candidate))"
    candidate=$((candidate + 1))
  done
}

ensure_database() {
  local sql=(env PGPASSWORD="$(cat "$dir/password")" "$bin/psql" -h 127.0.0.1 -p "$1" -U "$superuser"
    -d postgres -v ON_ERROR_STOP=1 -qtA)
  if [ -z "$("${sql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = '$database'")" ]; then
    say "creating the database $database"
    "${sql[@]}" -c "CREATE DATABASE $database" >/dev/null
  fi
}

case "$command" in
install)
  install_binaries
  say "server binaries in $bin ($("$bin/postgres" --version))"
  ;;
status)
  bin="$(find_bin)" || fail "no PostgreSQL server binaries"
  current="$(running_port)"
  [ -n "$current" ] || {
    say "not running ($data)"
    exit 1
  }
  say "running on 127.0.0.1:$current ($data)"
  url "$current"
  ;;
stop)
  if ! bin="$(find_bin)" || [ -z "$(running_port)" ]; then
    say "not running ($data)"
    exit 0
  fi
  as_server_user "$bin/pg_ctl" stop -D "$data" -m fast -w -t 60 >/dev/null
  say "stopped ($data)"
  ;;
start)
  install_binaries
  ensure_server_user
  [ -f "$data/PG_VERSION" ] || init_cluster
  current="$(running_port)"
  if [ -n "$current" ]; then
    if [ -n "$port" ] && [ "$port" != "$current" ]; then
      fail "already running on port $current, not $port: stop it first (bash scripts/postgres.sh stop --dir $dir)"
    fi
    say "already running on 127.0.0.1:$current ($data)"
  else
    start_server
    current="$started_port"
  fi
  ensure_database "$current"
  url "$current"
  ;;
esac
