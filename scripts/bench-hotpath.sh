#!/bin/sh
# Runs the hot-path benchmark (browser.act with a session, sim driver,
# through the real HTTP server) and writes its benchstat-format output to
# ${1:-bench-hotpath.txt}; compare two with
#   go run golang.org/x/perf/cmd/benchstat@latest old.txt new.txt
set -eu
out=${1:-bench-hotpath.txt}
go test -run '^$' -bench ActHotPath -benchtime "${BENCHTIME:-3000x}" -count "${COUNT:-5}" ./daemon/ | tee "$out"
