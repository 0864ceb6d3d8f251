#!/bin/sh
# Builds buddi's macOS computer-control helper and signs it ad hoc with a
# stable identifier. Run it on the Mac, from the repository root:
#
#   native/macos/sign.sh [output]    (default: bin/buddi-computer)
#
# macOS keeps Accessibility and Screen Recording grants for an ad-hoc signed
# program by its code hash, which covers the identifier and every byte. The
# build below is reproducible (-trimpath, no build id), so rebuilding the
# same source with the same Go gives the same bytes, the same hash, and the
# grants stay; a change to the source or to Go makes a new hash, and macOS
# asks again.
set -eu
out=${1:-bin/buddi-computer}
case "$(uname -m)" in
  arm64) arch=arm64 ;;
  *) arch=amd64 ;;
esac
mkdir -p "$(dirname "$out")"
GOOS=darwin GOARCH=$arch CGO_ENABLED=0 go build -trimpath -ldflags=-buildid= -o "$out" ./native/macos/cmd/buddi-computer
codesign --force --sign - --identifier dev.buddi.computer "$out"
codesign --verify --strict "$out"
codesign --display --verbose=2 "$out" 2>&1 | grep -E '^(Identifier|CDHash|Signature)='
