#!/usr/bin/env bash
# Installs pgvector (the `vector` extension) into the PostgreSQL that the tests run, when it is
# not there yet; a second run does nothing. Debian 12 packages no pgvector, so this builds
# Debian's own source package from trixie against postgresql-server-dev: Debian's patches and
# checksums, no third-party repository, a few seconds of `make`.
#
# Needs root (apt-get, and `make install` writes into the server's extension folder).
# PG_CONFIG picks the server to build for; by default Debian's PostgreSQL 15, the one
# scripts/pg-cluster.sh runs, else the pg_config on PATH.
set -euo pipefail

if [ -z "${PG_CONFIG:-}" ]; then
  if [ -x /usr/lib/postgresql/15/bin/pg_config ]; then PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
  else PG_CONFIG=$(command -v pg_config || true)
  fi
fi
if [ -z "$PG_CONFIG" ] || [ ! -x "$PG_CONFIG" ]; then
  echo "install-pgvector: no pg_config found: install PostgreSQL (apt-get install postgresql) or set PG_CONFIG" >&2
  exit 1
fi

extension_dir="$("$PG_CONFIG" --sharedir)/extension"
if [ -f "$extension_dir/vector.control" ]; then
  echo "install-pgvector: pgvector is already installed in $extension_dir"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-pgvector: pgvector is missing from $extension_dir; run this script as root to build and install it" >&2
  exit 1
fi

major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')

# Build tools: the server headers for this major version, a compiler, and dpkg-source (dpkg-dev),
# which `apt-get source` uses to unpack and patch the package. Only what is missing is installed,
# so a prepared machine never touches the network for them. The headers are what is checked, not
# pgxs.mk: Debian's postgresql-client ships pgxs.mk without them.
missing=()
[ -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ] || missing+=("postgresql-server-dev-$major")
command -v make >/dev/null || missing+=(make)
command -v gcc >/dev/null || missing+=(gcc)
command -v dpkg-source >/dev/null || missing+=(dpkg-dev)
# apt-get update only when the install fails from the current lists: from fresher lists, apt
# brings the installed server's packages up to the new headers' version, upgrading the server.
apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"; }
if [ ${#missing[@]} -gt 0 ]; then
  apt_install "${missing[@]}" || { apt-get update && apt_install "${missing[@]}"; }
fi

# trixie's source index is read into a private apt state under a temporary folder, never into
# /etc/apt or /var/lib/apt/lists: the machine's package sources stay as they were, and no later
# `apt-get update` starts fetching trixie.
work=$(mktemp -d /tmp/memledger-pgvector-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/lists/partial" "$work/src"
# apt downloads as the unprivileged _apt user where it exists, as it does for its own lists.
if getent passwd _apt >/dev/null; then chown _apt "$work/lists/partial" "$work/src"; fi
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
  >"$work/trixie-src.list"
apt_private=(-o "Dir::Etc::SourceList=$work/trixie-src.list" -o "Dir::Etc::SourceParts=$work/no-parts"
  -o "Dir::State::Lists=$work/lists" -o "APT::Get::List-Cleanup=false")

apt-get "${apt_private[@]}" update
(cd "$work/src" && apt-get "${apt_private[@]}" source pgvector)

source_dir=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)
if [ -z "$source_dir" ]; then
  echo "install-pgvector: apt-get source pgvector unpacked no pgvector-* folder in $work/src" >&2
  exit 1
fi

# Debian's patch already drops pgvector's -march=native, so the build runs on any CPU of the
# architecture, even if a machine image made here moves to another host.
make -C "$source_dir" PG_CONFIG="$PG_CONFIG" -j"$(nproc)"
make -C "$source_dir" PG_CONFIG="$PG_CONFIG" install

if [ ! -f "$extension_dir/vector.control" ]; then
  echo "install-pgvector: make install finished but $extension_dir/vector.control is missing" >&2
  exit 1
fi
echo "install-pgvector: installed pgvector $(basename "$source_dir" | sed 's/^pgvector-//') into $extension_dir"
