# Tessera build and test entry points.
#
# SAM builds each function with `BuildMethod: makefile`: it runs
# `make build-<LogicalId>` with ARTIFACTS_DIR set and packages whatever lands
# there; a provided.al2023 function needs an executable named `bootstrap`.
#
# BUILD_GOARCH is the deployed architecture (arm64). Only a make argument
# changes it (make build-X BUILD_GOARCH=amd64, as the tests do to build
# native binaries for the Runtime Interface Emulator): a BUILD_GOARCH in the
# environment is ignored, so it can never ship amd64 binaries to arm64
# functions.
#
# The project path may contain spaces: ROOT is found by the shell, not by
# make's word functions, and is always used quoted.

SHELL := /bin/bash
ROOT := $(shell cd "$$(dirname -- '$(strip $(MAKEFILE_LIST))')" && pwd)
GO ?= go
BUILD_GOOS := linux
BUILD_GOARCH := arm64
ARTIFACTS_DIR ?= $(ROOT)/bin/lambda
LAMBDA_FLAGS := -tags lambda.norpc -trimpath -ldflags='-s -w'

.PHONY: bundle build-CreateFunction build-JoinFunction build-StateFunction build-MoveFunction build-PlayerFunction build-ClockFunction build-PublishFunction \
	lambda-bootstrap build run test test-deps test-fmt test-vet test-race test-go test-browser \
	worker-build worker

# lambda_bootstrap builds one Lambda binary, package $(1), into
# $(ARTIFACTS_DIR)/bootstrap. It runs go from the directory of this Makefile
# (the module root) whatever make's working directory is.
define lambda_bootstrap
	mkdir -p "$(ARTIFACTS_DIR)"
	cd "$(ROOT)" && GOOS=$(BUILD_GOOS) GOARCH=$(BUILD_GOARCH) CGO_ENABLED=0 \
		$(GO) build $(LAMBDA_FLAGS) -o "$(ARTIFACTS_DIR)/bootstrap" $(1)
endef

build-CreateFunction:
	$(call lambda_bootstrap,./functions/create)
build-JoinFunction:
	$(call lambda_bootstrap,./functions/join)
build-StateFunction:
	$(call lambda_bootstrap,./functions/state)
build-MoveFunction:
	$(call lambda_bootstrap,./functions/move)
build-PlayerFunction:
	$(call lambda_bootstrap,./functions/player)
build-ClockFunction:
	$(call lambda_bootstrap,./functions/clock)
build-PublishFunction:
	$(call lambda_bootstrap,./functions/publish)

# lambda-bootstrap builds any package PKG the same way; the tests use it for a
# hello-world function, the cold-start baseline.
lambda-bootstrap:
	@test -n "$(PKG)" || { echo "lambda-bootstrap: set PKG=./path/to/main/package" >&2; exit 2; }
	$(call lambda_bootstrap,$(PKG))

# worker-build builds the Cloudflare Worker's Go module (js/wasm) and puts
# it beside Go's wasm_exec.js in infra/workers/build/, where the shim and
# wrangler.toml expect them. docs/workers.md.
# WORKER_TAGS adds build tags (the tests build a module with a crash
# trigger, workercrash, or a clock they move, testclock; never deployed).
WORKER_BUILD := $(ROOT)/infra/workers/build
WORKER_TAGS :=
worker-build:
	mkdir -p "$(WORKER_BUILD)"
	cd "$(ROOT)" && GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -tags "$(WORKER_TAGS)" -o "$(WORKER_BUILD)/tessera.wasm" ./functions/worker
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" "$(WORKER_BUILD)/wasm_exec.js"

# worker serves the Worker locally under miniflare on 127.0.0.1:$(PORT) with
# a fresh D1 and the page, until Ctrl-C or SIGTERM. exec: the signal goes to
# node itself.
PORT ?= 8787
worker: test-deps worker-build
	cd "$(ROOT)" && exec node infra/workers/serve.mjs --port "$(PORT)"

# bundle rebuilds the pages' bundles (frontend/static/dist, committed) with
# esbuild from the sources in frontend/static/assets; go generate ./frontend
# does the same. frontend/budget_test.go fails while they are stale.
bundle: test-deps
	cd "$(ROOT)" && node frontend/build.mjs

# build compiles everything for this machine (a quick compile check).
build:
	$(GO) build ./...

run:
	$(GO) run ./functions/local

# test runs everything: formatting, vet, race tests of the stateful packages,
# all other tests, and the browser tests. vet, the race tests and the other
# Go tests run side by side (-j3; each one's output is printed whole when it
# ends, -Otarget): alone, none of them keeps both cores busy. The browser
# tests come after them: they keep both cores busy on their own.
test: test-deps test-fmt
	$(MAKE) --no-print-directory -j3 -Otarget test-vet test-race test-go
	$(MAKE) --no-print-directory test-browser

# test-deps installs the npm test tools (dynalite, playwright-core) when
# node_modules is missing or older than the lock file.
test-deps: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --ignore-scripts
	@touch $@

# gofmt over every Go file of the repository; fails listing the files that
# need it. Not checked: node_modules.
test-fmt:
	@out="$$(find . -name '*.go' -not -path './node_modules/*' -not -path './.git/*' -print0 | xargs -0 gofmt -l)"; \
	if [ -n "$$out" ]; then echo "gofmt -l: these files need gofmt:" >&2; echo "$$out" >&2; exit 1; fi

test-vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./functions/worker ./functions/workerapp ./functions/store/d1 ./functions/jsutil

test-race:
	$(GO) test -race ./functions/game/... ./functions/community/... ./functions/api/... ./functions/store/...

# Everything except the packages test-race already covered and the browser
# tests, which test-browser runs. Each package runs once: functions/api's
# long sequential property tests play fewer matches under the race detector
# (functions/api/race_on_test.go); `go test ./functions/api` plays them all.
test-go:
	$(GO) test $$($(GO) list ./... | grep -v -e '^tessera/functions/game' -e '^tessera/functions/community' -e '^tessera/functions/api' -e '^tessera/functions/store' -e '^tessera/frontend')

# test-browser runs the frontend's tests: its Go tests (handler, budgets) and
# the node tests under browsertest/, which drive Debian's chromium through
# playwright-core against the local server. The frontend owns what they do;
# the target name is the contract.
# The local server and the Worker's module are built once, as test builds
# (-tags testclock: POST /api/__test/clock moves their clocks, so no test
# waits a real minute; package functions/testclock); each test file
# starts its server (worker.test.js: the Worker under miniflare) on a free
# port with fresh data and stops it (browsertest/harness.js). A file whose
# tests are done exits even if a timer is left (--test-force-exit), and a
# test stuck for 15 minutes fails: CI never waits on one for ever.
test-browser: test-deps
	$(GO) test ./frontend/...
	mkdir -p "$(ROOT)/bin" && $(GO) build -tags testclock -o "$(ROOT)/bin/tessera-local" ./functions/local
	$(MAKE) -s worker-build WORKER_BUILD="$(ROOT)/bin/worker" WORKER_TAGS=testclock
	TESSERA_BIN="$(ROOT)/bin/tessera-local" TESSERA_WORKER_BUILD="$(ROOT)/bin/worker" node --test --test-concurrency=3 --test-force-exit --test-timeout=900000 browsertest/
