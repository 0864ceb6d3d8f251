#!/usr/bin/env bash
# Installs what running buddi needs beside its Go modules: a Chromium to
# drive and Playwright's driver (playwright-core, fetched from the npm
# registry and run with this machine's Node.js). What only the tests need is
# scripts/testdeps.sh's, which `make test` runs. Safe to run again: it skips
# what is present.
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

if ! command -v node >/dev/null; then
  echo "setup: Node.js is required by Playwright's driver; install it (e.g. \`sudo apt-get install nodejs\`)." >&2
  exit 1
fi
export PLAYWRIGHT_NODEJS_PATH=${PLAYWRIGHT_NODEJS_PATH:-$(command -v node)}
"$bin" browser install --driver-only

