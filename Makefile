# peerd — build, run, test and benchmark. `make help` lists the targets.
SHELL := /bin/bash
PREFIX ?= $(HOME)/.local
SWIFT ?= swift
ARGS ?=
# System packages peerd needs to build and test (Debian/Ubuntu names).
APT_PACKAGES := python3 python3-pip
# Python packages the schema tests need (jsonschema >= 4.18 brings `referencing`).
PIP_PACKAGES := jsonschema>=4.18
DEBUG_BIN := .build/debug
RELEASE_BIN := .build/release

.PHONY: help deps test-deps build release run test unit e2e schema lint bench clean

help:
	@echo "make run     install what is missing, build, and run peerd in the foreground (ARGS='--name alice ...')"
	@echo "make test    everything CI runs: unit, property, end-to-end and schema tests, format lint"
	@echo "make bench   benchmarks; prints a table and writes bench/results.json"
	@echo "make build   debug build      make release   release build"

# Installs only what is missing, so repeated runs are quick and need no network.
deps:
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6.1 or newer is needed on PATH: https://www.swift.org/install/linux/"; exit 1; }
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# Only `make test` needs these; `make run` does not.
test-deps: deps
	@python3 -c "import jsonschema, referencing" 2>/dev/null || \
		python3 -m pip install --quiet --break-system-packages "$(PIP_PACKAGES)" 2>/dev/null || \
		python3 -m pip install --quiet "$(PIP_PACKAGES)"

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product peerd
	$(SWIFT) build -c release --product peerctl

run: release
	$(RELEASE_BIN)/peerd $(ARGS)

test: test-deps lint
	$(SWIFT) build --build-tests
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) $(SWIFT) test --skip-build 2>&1 | tee .build/test.log; exit $${PIPESTATUS[0]}
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 tests/schema/test_schema_capture.py

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests bench

bench: release
	$(SWIFT) build -c release --product peerd-bench
	$(RELEASE_BIN)/peerd-bench --bin-dir $(RELEASE_BIN) --results bench/results.json

clean:
	rm -rf .build
