#!/usr/bin/env bash
# Installs what buddi needs beside its Go modules: a Chromium to drive,
# Playwright's driver (playwright-core, fetched from the npm registry and run
# with this machine's Node.js), and for the tests the official MCP TypeScript
# SDK client, pinned by e2e/testdata/mcpclient/package-lock.json, and on
# Linux the private desktop the computer-control helper is tested in (Xvfb,
# a session D-Bus, the AT-SPI accessibility bus and gnome-calculator) and the
# etcd the cluster's shared-state tests run. Safe
# to run again: it skips what is present.
set -euo pipefail
bin=${1:-bin/buddi}

have_browser() {
  command -v chromium >/dev/null || command -v chromium-browser >/dev/null ||
    command -v google-chrome >/dev/null || [ -x /opt/google/chrome/chrome ]
}

if ! have_browser; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing Debian's chromium package…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: no Chromium or Chrome found; install one (e.g. \`sudo apt-get install chromium\`) or run \`$bin browser install\`." >&2
  fi
fi

# The Linux computer-control helper's tests (native/linux) drive a real
# accessible app on a private X display.
have_desktop() {
  command -v Xvfb >/dev/null && command -v dbus-daemon >/dev/null &&
    [ -e /usr/share/dbus-1/services/org.a11y.Bus.service ] && command -v gnome-calculator >/dev/null
}
if [ "$(uname -s)" = Linux ] && ! have_desktop; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing Xvfb, D-Bus, AT-SPI and gnome-calculator for the computer-control tests…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends xvfb dbus at-spi2-core gnome-calculator >/dev/null
  else
    echo "setup: the computer-control tests need Xvfb, dbus-daemon, at-spi2-core and gnome-calculator; install them (e.g. \`sudo apt-get install xvfb dbus at-spi2-core gnome-calculator\`)." >&2
  fi
fi

# The cluster's shared-state tests (cluster/shared) run a real etcd.
if [ "$(uname -s)" = Linux ] && ! [ -x "${BUDDI_ETCD:-/usr/bin/etcd}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing Debian's etcd-server package for the cluster tests…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends etcd-server >/dev/null
  else
    echo "setup: the cluster tests need etcd; install it (e.g. \`sudo apt-get install etcd-server\`) or set BUDDI_ETCD to an etcd binary." >&2
  fi
fi

if ! command -v node >/dev/null; then
  echo "setup: Node.js is required by Playwright's driver; install it (e.g. \`sudo apt-get install nodejs\`)." >&2
  exit 1
fi
export PLAYWRIGHT_NODEJS_PATH=${PLAYWRIGHT_NODEJS_PATH:-$(command -v node)}
"$bin" browser install --driver-only

# The MCP compatibility tests (e2e) drive a client we did not write.
client="$(cd "$(dirname "$0")/.." && pwd)/e2e/testdata/mcpclient"
if ! cmp -s "$client/package-lock.json" "$client/node_modules/.buddi-installed-lock"; then
  if ! command -v npm >/dev/null; then
    echo "setup: npm is required to install the MCP TypeScript SDK client the tests use; install it (e.g. \`sudo apt-get install npm\`)." >&2
    exit 1
  fi
  echo "setup: installing the MCP TypeScript SDK client for the tests (npm ci in e2e/testdata/mcpclient)…"
  (cd "$client" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  cp "$client/package-lock.json" "$client/node_modules/.buddi-installed-lock"
fi

# Real documentation the driver tests read (see scripts/pages.sh).
"$(dirname "$0")/pages.sh"
