#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `start` runs initdb in $MEMLEDGER_PG_DIR (default
# /tmp/memledger-pg), starts the server on a free port of 127.0.0.1 and prints the line
#   MEMLEDGER_TEST_PG_URL=postgres://memledger@127.0.0.1:PORT/postgres
# which it also writes to $MEMLEDGER_PG_DIR/env; `env` prints that line again while the cluster
# runs; `stop` stops the server and removes the folder. Nothing in it is meant to be kept.
#
# PostgreSQL refuses to run as root, so as root (CI) the cluster belongs to the `postgres` user,
# or to a system user `memledger-pg` made for it. PG_CONFIG picks the server's binaries; by default
# Debian's PostgreSQL 15, else the pg_config or initdb on PATH.
set -euo pipefail

dir=${MEMLEDGER_PG_DIR:-/tmp/memledger-pg}
data="$dir/data"
# start writes this mark, and stop removes only a folder that has it: a mistyped
# MEMLEDGER_PG_DIR can never make stop delete someone's files.
mark="$dir/.memledger-pg-cluster"

die() { echo "pg-cluster: $*" >&2; exit 1; }

bindir() {
  local found=""
  if [ -n "${PG_CONFIG:-}" ]; then found=$("$PG_CONFIG" --bindir 2>/dev/null || true)
  elif [ -x /usr/lib/postgresql/15/bin/initdb ]; then found=/usr/lib/postgresql/15/bin
  elif command -v pg_config >/dev/null; then found=$(pg_config --bindir)
  fi
  if [ -z "${PG_CONFIG:-}" ] && [ ! -x "$found/initdb" ] && command -v initdb >/dev/null; then
    found=$(dirname "$(command -v initdb)")
  fi
  [ -x "$found/initdb" ] ||
    die "no PostgreSQL server found (initdb${PG_CONFIG:+ beside PG_CONFIG=$PG_CONFIG}): install it (Debian: apt-get install postgresql) or set PG_CONFIG"
  echo "$found"
}

# The user the server runs as: ourselves, unless we are root.
owner() {
  if [ "$(id -u)" -ne 0 ]; then id -un
  elif [ -d "$data" ]; then stat -c %U "$data"
  elif getent passwd postgres >/dev/null; then echo postgres
  else
    getent passwd memledger-pg >/dev/null ||
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin memledger-pg
    echo memledger-pg
  fi
}

# Runs a PostgreSQL program as the owner, from the cluster folder: initdb and pg_ctl complain when
# the current folder (root's home, say) is one the owner cannot enter.
as_owner() {
  local user=$1; shift
  if [ "$(id -u)" -ne 0 ]; then (cd "$dir" && "$@")
  else (cd "$dir" && runuser -u "$user" -- "$@")
  fi
}

running() { [ -f "$data/postmaster.pid" ] && as_owner "$(owner)" "$(bindir)/pg_ctl" -D "$data" status >/dev/null 2>&1; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  if [ -f "$mark" ] && running; then cat "$dir/env"; return; fi
  local bin user
  bin=$(bindir)
  mkdir -p "$dir"
  [ -f "$mark" ] || [ -z "$(ls -A "$dir")" ] || die "$dir is not empty and holds no cluster of this script: choose another MEMLEDGER_PG_DIR"
  touch "$mark"
  rm -rf "$data" "$dir/env"
  user=$(owner)
  [ "$(id -u)" -ne 0 ] || chown "$user" "$dir"
  # C locale: the same collation on every machine, and no dependence on locales installed here.
  # --no-sync: nothing here has to survive a crash of the machine.
  as_owner "$user" "$bin/initdb" -D "$data" -U memledger --auth=trust --encoding=UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
    die "initdb failed: $(cat "$dir/initdb.log")"
  # Trust lets any local user in as the superuser: acceptable for a cluster holding minutes of test
  # data, which nothing beyond this machine can reach (loopback, and a socket in this folder).
  # fsync, full pages and synchronous commit are off for speed: a crash loses only a cluster
  # that is thrown away anyway.
  cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
full_page_writes = off
synchronous_commit = off
CONF
  # A random port, checked free, and another if the server still loses the race for it.
  local port attempt
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    port_in_use "$port" && continue
    : >"$dir/postgres.log"
    [ "$(id -u)" -ne 0 ] || chown "$user" "$dir/postgres.log"
    if as_owner "$user" "$bin/pg_ctl" -D "$data" -l "$dir/postgres.log" -o "-p $port" -w -t 60 start >/dev/null 2>&1; then
      echo "MEMLEDGER_TEST_PG_URL=postgres://memledger@127.0.0.1:$port/postgres" >"$dir/env"
      cat "$dir/env"
      return
    fi
    grep -q -E 'could not (bind|create any TCP/IP)' "$dir/postgres.log" || die "the server did not start: $(cat "$dir/postgres.log")"
  done
  die "no free port found after $attempt tries"
}

stop() {
  [ -d "$dir" ] || return 0
  # An empty folder (a start that failed before initdb, or one made for start to use) just goes.
  if [ -z "$(ls -A "$dir")" ]; then rmdir "$dir"; return; fi
  [ -f "$mark" ] || die "$dir holds no cluster of this script; not removing it"
  # Immediate: no checkpoint, since the data is deleted next.
  if running; then as_owner "$(owner)" "$(bindir)/pg_ctl" -D "$data" -m immediate -w stop >/dev/null; fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  env) { [ -f "$mark" ] && running; } || die "no cluster running in $dir"; cat "$dir/env" ;;
  *) echo "usage: $0 start|stop|env   (the cluster's folder: MEMLEDGER_PG_DIR, default /tmp/memledger-pg)" >&2; exit 2 ;;
esac
