# peerd — build, run, test and benchmark. `make help` lists the targets.
SHELL := /bin/bash
PREFIX ?= $(HOME)/.local
SWIFT ?= swift
ARGS ?=
# System packages peerd needs to build and test (Debian/Ubuntu names).
APT_PACKAGES := python3 python3-pip
# Python packages the schema tests need (jsonschema >= 4.18 brings `referencing`).
PIP_PACKAGES := jsonschema>=4.18
# What the LAN lab (tests/lab) needs: its own avahi-daemon and D-Bus per namespace, avahi-utils to
# check against, and python-zeroconf as an mDNS implementation independent of Avahi.
LAB_APT_PACKAGES := avahi-daemon avahi-utils dbus iproute2
LAB_PIP_PACKAGES := zeroconf
# The lab exits 77 when the machine can't host it (not root, no namespaces): a skip, said in one line.
LAB_SKIP_OK = || [ $$? -eq 77 ]
DEBUG_BIN := .build/debug
RELEASE_BIN := .build/release

.PHONY: help deps test-deps lab-deps build release run test unit e2e schema lint lab demo bench bench-discovery clean

help:
	@echo "make run     install what is missing, build, and run peerd in the foreground (ARGS='--name alice ...')"
	@echo "make test    everything CI runs: unit, property, end-to-end, schema and LAN lab tests, format lint"
	@echo "make lab     only the LAN lab test: hosts in network namespaces find each other over mDNS (root)"
	@echo "make demo    three hosts on a virtual LAN share a watch list, narrated (root)"
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

# Installs the lab's packages without starting their services (policy-rc.d): avahi-daemon must
# not run in the machine's own network namespace; the lab starts its own inside namespaces.
lab-deps: test-deps
	@missing=""; for p in $(LAB_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing (services not started)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); guard=""; \
		if [ ! -e /usr/sbin/policy-rc.d ]; then \
			printf '#!/bin/sh\nexit 101\n' | $$SUDO tee /usr/sbin/policy-rc.d >/dev/null; \
			$$SUDO chmod 755 /usr/sbin/policy-rc.d; guard=1; \
		fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; rc=$$?; \
		if [ -n "$$guard" ]; then $$SUDO rm -f /usr/sbin/policy-rc.d; fi; exit $$rc; \
	fi
	@python3 -c "import zeroconf" 2>/dev/null || \
		python3 -m pip install --quiet --break-system-packages $(LAB_PIP_PACKAGES) 2>/dev/null || \
		python3 -m pip install --quiet $(LAB_PIP_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product peerd
	$(SWIFT) build -c release --product peerctl

run: release
	$(RELEASE_BIN)/peerd $(ARGS)

test: test-deps lab-deps lint
	$(SWIFT) build --build-tests
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) $(SWIFT) test --skip-build 2>&1 | tee .build/test.log; exit $${PIPESTATUS[0]}
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 tests/schema/test_schema_capture.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 tests/lab/test_lab.py $(LAB_SKIP_OK)

lab: lab-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 tests/lab/test_lab.py $(LAB_SKIP_OK)

demo: lab-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 tests/lab/demo.py

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests bench

bench: release
	$(SWIFT) build -c release --product peerd-bench
	$(RELEASE_BIN)/peerd-bench --bin-dir $(RELEASE_BIN) --results bench/results.json
	$(MAKE) --no-print-directory bench-discovery

# Merges its two rows into bench/results.json (peerd-bench rewrites the file, so it runs after).
bench-discovery: lab-deps release
	PEERD_BIN_DIR=$$(pwd)/$(RELEASE_BIN) python3 tests/lab/bench_discovery.py --results bench/results.json $(LAB_SKIP_OK)

clean:
	rm -rf .build
