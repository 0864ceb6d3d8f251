#!/usr/bin/env bash
# Installs what only the tests need, after scripts/setup.sh (which installs
# what running buddi needs): on Linux the private desktop the
# computer-control helper is tested in (Xvfb, a session D-Bus, the AT-SPI
# accessibility bus and gnome-calculator) and the etcd the cluster's tests
# run, in one apt-get call; the official MCP TypeScript SDK client, pinned by
# e2e/testdata/mcpclient/package-lock.json; and the real documentation the
# driver tests read (scripts/pages.sh). `make run` needs none of it. Safe to
# run again: it skips what is present.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

missing=()
if [ "$(uname -s)" = Linux ]; then
  command -v Xvfb >/dev/null || missing+=(xvfb)
  command -v dbus-daemon >/dev/null || missing+=(dbus)
  [ -e /usr/share/dbus-1/services/org.a11y.Bus.service ] || missing+=(at-spi2-core)
  command -v gnome-calculator >/dev/null || missing+=(gnome-calculator)
  [ -x "${BUDDI_ETCD:-/usr/bin/etcd}" ] || missing+=(etcd-server)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "testdeps: installing ${missing[*]} for the desktop and cluster tests…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "testdeps: the desktop and cluster tests need ${missing[*]}; install them (e.g. \`sudo apt-get install ${missing[*]}\`)." >&2
  fi
fi

# The MCP compatibility tests (e2e) drive a client we did not write.
client="$root/e2e/testdata/mcpclient"
if ! cmp -s "$client/package-lock.json" "$client/node_modules/.buddi-installed-lock"; then
  if ! command -v npm >/dev/null; then
    echo "testdeps: npm is required to install the MCP TypeScript SDK client the tests use; install it (e.g. \`sudo apt-get install npm\`)." >&2
    exit 1
  fi
  echo "testdeps: installing the MCP TypeScript SDK client for the tests (npm ci in e2e/testdata/mcpclient)…"
  (cd "$client" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  cp "$client/package-lock.json" "$client/node_modules/.buddi-installed-lock"
fi

# Real documentation the driver tests read, Python's included: the driver
# tests check every page of the task benchmark.
"$root/scripts/pages.sh" --bench
