#!/usr/bin/env bash
# Unpacks real documentation, written by others, that the driver tests and
# the task benchmark serve on 127.0.0.1:
#   - The Rust Programming Language (an mdBook: a long sidebar, previous and
#     next arrows), unpacked from Debian's rust-doc package without
#     installing it: the .deb is 17 MB, the book in it 20 MB of the 518 MB
#     the package would install. Its icon font and its script's code
#     highlighter come from fonts-font-awesome and libjs-highlight.js (0.5 and
#     0.4 MB), which are installed: without the highlighter the book's script
#     stops before it wires up the sidebar toggle.
#   - With --bench, also Python's documentation (Debian's python3-doc, 70 MB),
#     used by `make bench` and by the driver tests that check every page of
#     the task benchmark (scripts/testdeps.sh passes --bench).
# Go's language specification needs nothing: it ships with Go.
# The pages go to $BUDDI_TEST_PAGES, by default ~/.cache/buddi/pages.
# Safe to run again: it skips what is present.
set -euo pipefail
dest=${BUDDI_TEST_PAGES:-${XDG_CACHE_HOME:-${HOME:?set HOME or BUDDI_TEST_PAGES}/.cache}/buddi/pages}
book=$dest/rust-book
src=/usr/share/doc/rust-doc/html/book

need_apt() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "pages: $1 is needed; install it (e.g. \`sudo apt-get install $1\`) or run this as root." >&2
    exit 1
  fi
  [ -n "${apt_updated:-}" ] || { apt-get update -qq; apt_updated=1; }
}

if [ ! -e /usr/share/fonts-font-awesome/fonts ] || [ ! -e /usr/share/javascript/highlight.js/highlight.js ]; then
  need_apt "fonts-font-awesome libjs-highlight.js"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-font-awesome libjs-highlight.js >/dev/null
fi

if [ ! -f "$book/ch04-01-what-is-ownership.html" ]; then
  mkdir -p "$dest"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if [ -d "$src" ]; then
    cp -a "$src" "$tmp/book"
  else
    need_apt rust-doc
    echo "pages: unpacking The Rust Programming Language from Debian's rust-doc…"
    (cd "$tmp" && apt-get download -qq rust-doc 2>/dev/null)
    dpkg-deb --fsys-tarfile "$tmp"/rust-doc_*.deb | tar -x -C "$tmp" ".$src"
    mv "$tmp$src" "$tmp/book"
  fi
  # The package links its icon font and scripts to other packages with
  # relative links that only work at $src: point them where they lead.
  (cd "$tmp/book" && find . -type l | while read -r l; do
    target=$(realpath -m "$src/$(dirname "$l")/$(readlink "$l")")
    ln -sfn "$target" "$l"
  done)
  rm -rf "$book"
  mv "$tmp/book" "$book"
fi

if [ "${1:-}" = --bench ] && [ ! -f /usr/share/doc/python3/html/library/os.html ]; then
  need_apt python3-doc
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-doc >/dev/null
fi
echo "pages: documentation is ready in $dest"
