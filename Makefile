# The interface to the project: `make run` starts buddi, `make test` tests it.
# Both do their own set-up (modules, Chromium, the Playwright driver).
SHELL := /bin/bash
GO    ?= go
BIN   := bin/buddi
# The real Kubernetes API server the cluster's Kubernetes test runs
# (cluster/k8stest, `make test-k8s`), built from the Kubernetes source
# tools/kube pins: about six minutes on a cold cache, then kept in bin/ until
# the pin moves. `make test` does not build it.
KUBE_APISERVER := bin/kube-apiserver

export PLAYWRIGHT_NODEJS_PATH ?= $(shell command -v node)
# Chromium refuses its sandbox to root, so as root buddi runs the browser as
# the unprivileged user `buddi` (created on first use) with the sandbox on:
# `make run` and `make test` alike. Nothing here sets BUDDI_BROWSER_NO_SANDBOX.

.PHONY: build deps testdeps run test test-tailnet test-k8s e2e bench bench-hotpath lint clean extension-zip shots

# TAGS=k8s links the Kubernetes membership (BUDDI_CLUSTER_MEMBERSHIP=k8s),
# for an image run on Kubernetes; it adds 26 MB to the binary. TAGS=tailnet
# links Tailscale's tsnet (BUDDI_TAILNET=1: buddi on the owner's tailnet as
# its own node); see the README for what it adds. Both: TAGS="k8s tailnet".
TAGS  ?=

build:
	$(GO) build -tags "$(TAGS)" -ldflags "-X main.version=$$(cat VERSION 2>/dev/null || echo 0.1.0-dev)" -o $(BIN) ./cmd/buddi

# What running buddi needs: Go modules, a Chromium, Playwright's driver.
deps: build
	$(GO) mod download
	scripts/setup.sh $(BIN)

# What only the tests need besides: the desktop, etcd, the MCP test client,
# the documentation pages.
testdeps: deps
	scripts/testdeps.sh

run: deps
	$(BIN) serve

test: testdeps lint
	$(GO) test -race -count=1 -timeout 60m ./...
	$(MAKE) test-tailnet
	@echo "The hot path's figures of this build (CPU per act, allocations; benchstat's format):"
	COUNT=1 BENCHTIME=2000x scripts/bench-hotpath.sh bench-hotpath.txt

# The tailnet's tests with Tailscale linked in (-tags tailnet): its own test
# control server, DERP and STUN on loopback, no internet. The rest of the
# daemon is the same with or without the tag (only daemon/tailnet_on.go
# differs), and the run above tested it; vet checks the tagged build.
test-tailnet:
	$(GO) vet -tags tailnet ./daemon/ ./tailnet/ ./cmd/buddi/
	$(GO) test -race -count=1 -timeout 20m -tags tailnet ./tailnet/

# The cluster's members as pods of a real kube-apiserver (built once from
# tools/kube), with the Kubernetes membership linked in (-tags k8s).
test-k8s: testdeps $(KUBE_APISERVER)
	$(GO) test -race -count=1 -timeout 20m -tags k8s -run 'Kubernetes' ./e2e/cluster/

$(KUBE_APISERVER): tools/kube/go.mod tools/kube/go.sum
	@echo "make: building kube-apiserver for the cluster's Kubernetes test (minutes on a cold cache)…"
	cd tools/kube && $(GO) build -trimpath -ldflags '-s -w' -o ../../$(KUBE_APISERVER) k8s.io/kubernetes/cmd/kube-apiserver

e2e: testdeps
	$(GO) test -race -count=1 -timeout 30m -run 'E2E' ./e2e/...

# The dashboard's committed screenshots (ui/web/testdata/screenshots): the
# dashboard's tests and the phone's end-to-end test, with -shots. A plain
# test run writes its screenshots under the system's temporary directory
# and never changes a file git tracks.
shots: testdeps
	$(GO) test -count=1 -timeout 30m ./ui/web/webtest/ -args -shots
	$(GO) test -count=1 -timeout 30m -run 'Phone' ./e2e/ -args -shots

# The Chrome Web Store upload of the Your browser extension (no key):
# bin/buddi-extension-<version>.zip, attached to each release.
extension-zip:
	mkdir -p bin && $(GO) run ./extension/pack bin

# Go benchmarks of every package (the task benchmark in e2e compares buddi
# with Playwright MCP and Chrome DevTools MCP, pinned in e2e/testdata/peers,
# on real documentation), then a short load test, into bench.txt (benchstat
# reads the benchmark lines; the task benchmark and the load test add tables),
# and the load test's plots into bench.html beside it; last, what bare HTTP
# costs on this machine at the load test's rate (scripts/floor).
bench: testdeps
	scripts/pages.sh --bench
	cd e2e/testdata/peers && npm ci --no-audit --no-fund --ignore-scripts
	$(GO) test -run '^$$' -bench . -benchmem -count 1 -timeout 60m ./... | tee bench.txt
	$(BIN) loadtest --conversations 1000 --duration 30s --rate 5000 --crash-rate 0.01 --owner-rate 2 --report bench.html | tee -a bench.txt
	$(GO) run ./scripts/floor -rate 5000 -duration 15s | tee -a bench.txt

# The hot path alone (browser.act with a session, sim driver, real HTTP
# server): ns/op, allocs/op and CPU µs per act, five runs in benchstat's
# format in bench-hotpath.txt.
bench-hotpath:
	scripts/bench-hotpath.sh bench-hotpath.txt

# golangci-lint is pinned in tools/go.mod (its own module, so its many
# dependencies stay out of buddi's) and built by `go tool` on first use:
# minutes on a cold cache, then cached.
LINT := $(GO) tool -modfile=tools/go.mod golangci-lint

# The dashboard's TypeScript is type-checked by tsc, pinned in
# ui/web/package.json (esbuild, which bundles it, does not check types).
# The tailnet's files build only with -tags tailnet: they are linted in a
# second pass with the tag.
lint:
	$(GO) vet ./...
	$(GO) vet -tags tailnet ./tailnet/... ./daemon/
	$(LINT) run --allow-parallel-runners ./...
	$(LINT) run --allow-parallel-runners --build-tags tailnet ./tailnet/... ./daemon/
	cd ui/web && npm ci --no-audit --no-fund --ignore-scripts && npx tsc --noEmit -p .

clean:
	rm -rf bin bench.txt bench.html bench-hotpath.txt
