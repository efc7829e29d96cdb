# peerd — build, run, test and benchmark. `make help` lists the targets.
SHELL := /bin/bash
PREFIX ?= $(HOME)/.local
SWIFT ?= swift
ARGS ?=
# System packages (Debian/Ubuntu names): to build peerd, and in addition to test it. The tests'
# LAN lab needs its own avahi-daemon and D-Bus per network namespace, and avahi-utils to check with;
# the systemd test needs a real systemd user manager; the page's tests and benchmark, headless
# Chromium and its chromedriver (Debian's, of the same version); the doctor's lab test, nft to put a
# firewall inside a lab host.
BUILD_PACKAGES := pkg-config libavahi-client-dev libqrencode-dev zlib1g-dev libdbus-1-dev
TEST_PACKAGES := python3 python3-pip avahi-daemon avahi-utils dbus iproute2 systemd chromium chromium-driver nftables gdb zbar-tools
# To make the Debian package (`make deb`), and to check it (lintian; a clean Debian 12 by debootstrap).
DEB_PACKAGES := debhelper dpkg-dev lintian
# The relay lab (integration/relay): Debian's Syncthing relay server between two houses, each behind
# a NAT made with iptables-legacy. Installed with the guard: the package's strelaysrv service must
# not start in this machine's own namespace (the lab runs its own, on the lab's wan).
RELAY_PACKAGES := syncthing-relaysrv iptables
# Python packages the tests need: the schema validator, python-zeroconf as an mDNS
# implementation independent of Avahi, cryptography for the abuse tests' own TLS certificates, and
# Selenium to drive Chromium.
PIP_PACKAGES := 'jsonschema>=4.18' zeroconf cryptography selenium 'schemathesis>=4.32,<5' dbus-next
# The lab exits 77 when the machine can't host it (not root, no namespaces), and the page's tests
# when Chromium can't run here: a skip, said in one line.
LAB_SKIP_OK = || [ $$? -eq 77 ]
DEBUG_BIN := .build/debug
RELEASE_BIN := .build/release
# Release binaries carry the Swift runtime inside them: they start faster, use less memory (idle
# RSS 18 MB instead of 21 MB, measured) and run where no Swift toolchain is installed.
# The rest is for memory: most of a daemon's RSS was pages of its own executable (README,
# Benchmarks). A section per function (Swift, C and C++) lets the linker drop unused code and
# lay out the functions peerd runs side by side (linker/peerd.order, by linker/make_order.py),
# private ones together (linker/private-text.ld); lld packs the relative relocations (RELR,
# glibc 2.36) instead of 24 bytes each, and the executable exports no symbols, so the loader
# reads no 2.9 MB symbol table at start. Idle RSS 28.1 -> 14.3 MB, measured (README). No debug
# info (-gnone, -g0): the package strips it anyway, and a crash's backtrace names the functions from
# the symbol table; the binaries are 40% smaller (peerd 133 -> 77 MB), the build no faster (834 s).
LINK_ORDER := $(CURDIR)/linker/peerd.order
LINK_SCRIPT := $(CURDIR)/linker/private-text.ld
LAYOUT := -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	-Xlinker --symbol-ordering-file=$(LINK_ORDER) -Xlinker --no-warn-symbol-ordering \
	-Xlinker -T -Xlinker $(LINK_SCRIPT) -Xswiftc -gnone -Xcc -g0
RELEASE := -c release --static-swift-stdlib $(LAYOUT)
# The same build with the Swift runtime linked dynamically, in a scratch path of its own: only for
# `make bench-package`, which weighs the package's binaries against it.
RELEASE_DYNAMIC := -c release $(LAYOUT)
DYNAMIC_SCRATCH := .build-dynamic
DYNAMIC_BIN := $(DYNAMIC_SCRATCH)/release
# Seconds per fuzz target (Fuzz/README.md): for `make fuzz`, and for the smoke run `make test` makes.
FUZZ_SECONDS ?= 120
FUZZ_SMOKE_SECONDS ?= 10

.PHONY: help deps test-deps build release run test test-stages lint lab demo relay-test bench bench-relay bench-discovery bench-liveness bench-syncthing bench-web bench-guests bench-package bench-import release-dynamic web-test guests-test devices-test deb screenshot syncthing-deps link-order clean man install uninstall systemd-test fuzz fuzz-smoke

help:
	@echo "make run     install what is missing, build, and run peerd in the foreground (ARGS='--name alice ...')"
	@echo "make test    everything CI runs: unit, property, end-to-end, schema, page (headless Chromium) and LAN lab tests, format lint"
	@echo "make web-test  only the page's tests: two peerd and headless Chromium on loopback"
	@echo "make screenshot  docs/screenshot.png: the page with 20 movies, in headless Chromium"
	@echo "make lab     only the LAN lab test: hosts in network namespaces find each other over mDNS (root)"
	@echo "make guests-test  only the guests' test: three peerd and two phones (Chromium) on a LAN in namespaces (root)"
	@echo "make devices-test  only the linked devices' test: two peerd and two linked phones (Chromium) on a LAN in namespaces (root)"
	@echo "make demo    three hosts on a virtual LAN share a watch list, narrated (root)"
	@echo "make bench   benchmarks; prints a table and writes bench/results.json (with Syncthing's idle RSS beside peerd's)"
	@echo "make bench-package  the .deb's binaries against a dynamically linked build: size, start-up to READY=1 (root)"
	@echo "make bench-liveness  partitions healing and a catch-up at 20% loss on a five-host LAN lab (root)"
	@echo "make relay-test  two houses behind NAT and Debian's strelaysrv between them: peers through the relay (root)"
	@echo "make bench-relay  add → visible from one house to the other through the relay, p50/p90 (root)"
	@echo "make link-order  profiles peerd under valgrind and rewrites linker/peerd.order (the release link's layout)"
	@echo "make fuzz    libFuzzer on the frame, peer message and control request decoders and import (FUZZ_SECONDS=120 each)"
	@echo "make install binaries, systemd user unit, completions, man pages into PREFIX (default ~/.local)"
	@echo "make deb     the Debian package .build-deb/peerd_VERSION_amd64.deb (apt install ./.build-deb/peerd_*.deb)"
	@echo "make uninstall  removes exactly what make install put there"
	@echo "make build   debug build      make release   release build"

# Installs only what is missing (apt-get runs only then). With `guard`, installing never starts a
# service: a policy-rc.d keeps avahi-daemon from running in this machine's own namespace (the tests
# run their own, inside network namespaces); it is removed again only if we put it there.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); guard=""; \
		if [ "$(2)" = guard ] && [ ! -e /usr/sbin/policy-rc.d ]; then \
			printf '#!/bin/sh\nexit 101\n' | $$SUDO tee /usr/sbin/policy-rc.d >/dev/null; \
			$$SUDO chmod 755 /usr/sbin/policy-rc.d; guard=1; \
		fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; rc=$$?; \
		[ -z "$$guard" ] || $$SUDO rm -f /usr/sbin/policy-rc.d; \
		exit $$rc; \
	fi
endef

deps:
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6.1 or newer is needed on PATH: https://www.swift.org/install/linux/"; exit 1; }
	$(call apt_install,$(BUILD_PACKAGES),noguard)

test-deps: deps
	$(call apt_install,$(TEST_PACKAGES) $(DEB_PACKAGES) debootstrap,guard)
	$(call apt_install,$(RELAY_PACKAGES),guard)
	@python3 -c "import jsonschema, referencing, zeroconf, cryptography, selenium, schemathesis, dbus_next" 2>/dev/null || \
		python3 -m pip install --quiet --break-system-packages $(PIP_PACKAGES) 2>/dev/null || \
		python3 -m pip install --quiet $(PIP_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	@# The Swift driver keeps objects built with other -Xfrontend flags (no rebuild when RELEASE
	@# changes), so a change of RELEASE starts the release build afresh.
	@echo '$(RELEASE)' | cmp -s - .build/release-flags || { rm -rf .build/*-linux-gnu/release; mkdir -p .build; \
		echo '$(RELEASE)' > .build/release-flags; }
	@# SwiftPM doesn't know the link reads the order and the script: relink when either changed.
	@for bin in peerd peerctl peerd-bench; do \
		[ $(LINK_ORDER) -nt $(RELEASE_BIN)/$$bin ] || [ $(LINK_SCRIPT) -nt $(RELEASE_BIN)/$$bin ] && rm -f $(RELEASE_BIN)/$$bin; true; \
	done
	$(SWIFT) build $(RELEASE) --product peerd
	$(SWIFT) build $(RELEASE) --product peerctl

# As `release`, without --static-swift-stdlib, into .build-dynamic/release: the binaries find the
# runtime in the toolchain. Built afresh when the flags change, relinked when the order or the script did.
release-dynamic: deps
	@echo '$(RELEASE_DYNAMIC)' | cmp -s - $(DYNAMIC_SCRATCH)/release-flags || { rm -rf $(DYNAMIC_SCRATCH)/*-linux-gnu/release; \
		mkdir -p $(DYNAMIC_SCRATCH); echo '$(RELEASE_DYNAMIC)' > $(DYNAMIC_SCRATCH)/release-flags; }
	@for bin in peerd peerctl; do \
		[ $(LINK_ORDER) -nt $(DYNAMIC_BIN)/$$bin ] || [ $(LINK_SCRIPT) -nt $(DYNAMIC_BIN)/$$bin ] && rm -f $(DYNAMIC_BIN)/$$bin; true; \
	done
	$(SWIFT) build $(RELEASE_DYNAMIC) --scratch-path $(DYNAMIC_SCRATCH) --product peerd
	$(SWIFT) build $(RELEASE_DYNAMIC) --scratch-path $(DYNAMIC_SCRATCH) --product peerctl

run: release
	$(RELEASE_BIN)/peerd $(ARGS)

# Each stage's time is printed at the end (scripts/stage), pass or fail. Three builds in all: debug
# (the tests, and the man pages), release (install, the systemd test and the Debian package) and the
# fuzzers' own.
test:
	@scripts/stage --reset
	@$(MAKE) --no-print-directory test-stages; status=$$?; scripts/stage --report; exit $$status

test-stages:
	scripts/stage deps $(MAKE) --no-print-directory test-deps
	@# The package stage's clean Debian 12 (debootstrap: mostly waiting on the mirror and the disk) is
	@# made in the background while the code builds; that stage waits for it under a lock, or makes
	@# it itself if this failed (its log: .build-deb/base.log).
	@mkdir -p .build-deb && { python3 integration/package/test_package.py --base-only >.build-deb/base.log 2>&1 & }
	scripts/stage lint $(MAKE) --no-print-directory lint
	scripts/stage proto-docs python3 proto/validate.py --golden --docs
	scripts/stage debug-build $(SWIFT) build --build-tests
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage man bash -c '$(MAKE) --no-print-directory man && python3 integration/man/test_man.py'
	@# It takes 1–3 minutes; a hung test fails it in 15 with each thread's stack (scripts/within).
	@# The insiders of RemovalAttackTests hold live sessions with deadlines of seconds, which the
	@# test process misses while hundreds of other tests load it: they run on their own after.
	scripts/stage swift-test scripts/within 900 bash -c 'PEERD_BIN_DIR=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test --skip-build --skip RemovalAttackTests 2>&1 | tee .build/test.log; status=$${PIPESTATUS[0]}; PEERD_BIN_DIR=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test --skip-build --filter RemovalAttackTests 2>&1 | tee -a .build/test.log; exit $$(( status | $${PIPESTATUS[0]} ))'
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage schema python3 integration/schema/test_schema_capture.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage abuse python3 integration/abuse/test_abuse.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage catalog python3 integration/catalog/test_catalog.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage marks python3 integration/marks/test_marks.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage news python3 integration/news/test_news.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage picks python3 integration/picks/test_picks.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage imports python3 integration/imports/test_imports.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage web python3 integration/web/test_web.py $(LAB_SKIP_OK)
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage openapi python3 integration/web/test_openapi.py
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage guests python3 integration/guests/test_guests.py $(LAB_SKIP_OK)
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage devices python3 integration/devices/test_devices.py $(LAB_SKIP_OK)
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage lab python3 integration/lab/test_lab.py $(LAB_SKIP_OK)
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage removal python3 integration/lab/test_removal.py $(LAB_SKIP_OK)
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage doctor python3 integration/lab/test_doctor.py $(LAB_SKIP_OK)
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage liveness python3 integration/lab/test_liveness.py $(LAB_SKIP_OK)
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) scripts/stage relay python3 integration/relay/test_relay.py $(LAB_SKIP_OK)
	scripts/stage release-build $(MAKE) --no-print-directory release
	scripts/stage systemd $(MAKE) --no-print-directory systemd-test
	scripts/stage deb $(MAKE) --no-print-directory deb
	scripts/stage package python3 integration/package/test_package.py $(LAB_SKIP_OK)
	scripts/stage fuzz $(MAKE) --no-print-directory fuzz-smoke

web-test: test-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 integration/web/test_web.py $(LAB_SKIP_OK)

# The page as people see it, for the README: alice's page with 20 movies in a 1440×900 viewport.
screenshot: test-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 integration/web/test_web.py --screenshot docs/screenshot.png

guests-test: test-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 integration/guests/test_guests.py $(LAB_SKIP_OK)

devices-test: test-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 integration/devices/test_devices.py $(LAB_SKIP_OK)

lab: test-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 integration/lab/test_lab.py $(LAB_SKIP_OK)
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 integration/lab/test_removal.py $(LAB_SKIP_OK)

relay-test: test-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 integration/relay/test_relay.py $(LAB_SKIP_OK)

demo: test-deps build
	PEERD_BIN_DIR=$$(pwd)/$(DEBUG_BIN) python3 integration/lab/demo.py

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests bench Fuzz
	@# The daemon sleeps with LoopClock: one Task.sleep would start libdispatch's pool monitor, which
	@# then wakes peerd every second for good (Sources/peerd/PeerdMain.swift). The test modules never run in it.
	@if grep -rn --include=*.swift -E 'Task\.sleep|(Continuous|Suspending)Clock\(\)\.sleep' Sources \
		| grep -vE '^Sources/PeerdTest(Support|Kit)/|^[^:]+:[0-9]+: *//'; then \
		echo "lint: sleep with LoopClock.shared, not Task.sleep (Sources/peerd/PeerdMain.swift says why)"; exit 1; fi

bench: test-deps release
	$(SWIFT) build $(RELEASE) --product peerd-bench
	$(RELEASE_BIN)/peerd-bench --bin-dir $(RELEASE_BIN) --results bench/results.json
	$(MAKE) --no-print-directory bench-discovery
	$(MAKE) --no-print-directory bench-liveness
	$(MAKE) --no-print-directory bench-relay
	$(MAKE) --no-print-directory bench-syncthing
	$(MAKE) --no-print-directory bench-web
	$(MAKE) --no-print-directory bench-guests
	$(MAKE) --no-print-directory bench-package
	$(MAKE) --no-print-directory bench-import

# The decoders under libFuzzer with ASan, built in .build-fuzz (not .build); the corpus grows there
# from run to run. Prints exec/s and executions per target; a crash fails and leaves its input in
# .build-fuzz/crashes/TARGET/, to be kept in Fuzz/regressions/TARGET/ (FuzzRegressionTests replays it).
fuzz: deps
	SWIFT=$(SWIFT) Fuzz/fuzz.sh $(FUZZ_SECONDS)

# What `make test` runs: the same, FUZZ_SMOKE_SECONDS per target, so a decoder that traps fails CI.
fuzz-smoke: deps
	SWIFT=$(SWIFT) Fuzz/fuzz.sh $(FUZZ_SMOKE_SECONDS)

# Merges its two rows into bench/results.json (peerd-bench rewrites the file, so it runs after).
bench-discovery: test-deps release
	PEERD_BIN_DIR=$$(pwd)/$(RELEASE_BIN) python3 integration/lab/bench_discovery.py --results bench/results.json $(LAB_SKIP_OK)

# Partitions healing and a catch-up at 20% loss on a five-host lab; merges four rows (after peerd-bench, too).
bench-liveness: test-deps release
	PEERD_BIN_DIR=$$(pwd)/$(RELEASE_BIN) python3 integration/lab/bench_liveness.py --results bench/results.json $(LAB_SKIP_OK)

# add → visible through Debian's strelaysrv between two houses behind NAT; merges two rows (after peerd-bench).
bench-relay: test-deps release
	PEERD_BIN_DIR=$$(pwd)/$(RELEASE_BIN) python3 integration/relay/bench_relay.py --results bench/results.json $(LAB_SKIP_OK)

# Syncthing's idle RSS beside peerd's: from Debian's packages (installed only if missing), loopback
# only, in a network namespace of its own (root). Prints one "skipped:" line where it can't run.
bench-syncthing: test-deps
	@dpkg -s syncthing >/dev/null 2>&1 || $(MAKE) --no-print-directory syncthing-deps 2>/dev/null || true
	python3 bench/syncthing_idle.py --results bench/results.json $(LAB_SKIP_OK)

# The page in headless Chromium: first render of 1,000 movies, an add on a peer until on the page.
# A pick's guest door: 20 guests voting at once, and a flood of 1,000 connections (RSS, members' requests).
bench-guests: test-deps release
	PEERD_BIN_DIR=$$(pwd)/$(RELEASE_BIN) python3 bench/guest_bench.py --results bench/results.json

# The package's binaries (Swift runtime inside) against the same build linked dynamically: the .deb,
# the binaries installed, and the dynamic ones alone and with the runtime they load; start to READY=1
# and peak RSS then, on an empty state dir and on 1,000 movies, in a network namespace (root).
bench-package: test-deps deb release-dynamic
	python3 bench/package_bench.py --deb $$(ls .build-deb/peerd_*.deb) --dynamic-bin $(DYNAMIC_BIN) \
		--results bench/results.json $(LAB_SKIP_OK)

# `peerctl import` of 1,000 Letterboxd rows resolved on the fake TMDB at 50 ms a request: wall time, peak RSS.
bench-import: test-deps release
	PEERD_BIN_DIR=$$(pwd)/$(RELEASE_BIN) python3 bench/import_bench.py --results bench/results.json

bench-web: test-deps release
	PEERD_BIN_DIR=$$(pwd)/$(RELEASE_BIN) python3 bench/web_bench.py --results bench/results.json $(LAB_SKIP_OK)

syncthing-deps:
	$(call apt_install,syncthing,guard)

# Profiles the release peerd under valgrind (idle, then every daemon of `peerd-bench --quick`) and
# writes linker/peerd.order, then relinks with it. Run again when much of the code has changed.
link-order: release
	$(call apt_install,valgrind,noguard)
	$(SWIFT) build $(RELEASE) --product peerd-bench
	python3 linker/make_order.py --bin-dir $(RELEASE_BIN)
	$(MAKE) --no-print-directory release

clean:
	rm -rf .build .build-deb $(DYNAMIC_SCRATCH)

# The Debian package, .build-deb/peerd_VERSION_ARCH.deb (debian/: debhelper 13, `dh $@`), of the
# release build `make release` makes (the one `make install` and the systemd test use; no build of
# its own), with the man pages of `make man`. Offline: nothing is fetched.
deb: man release
	$(call apt_install,$(DEB_PACKAGES),noguard)
	@version=$$($(RELEASE_BIN)/peerd --version); packaged=$$(dpkg-parsechangelog -S Version); \
		[ "$$version" = "$${packaged%%+*}" ] || { echo "debian/changelog says $$packaged, peerd --version $$version: \
		add a changelog entry (dch -v $$version)"; exit 1; }
	rm -rf debian/peerd debian/.debhelper debian/files debian/*.substvars debian/debhelper-build-stamp .build-deb/*.deb
	debian/rules binary
	@ls -l .build-deb/*.deb

# Installing as a systemd user service. Per-user locations, where systemd, bash-completion, zsh and
# fish look (zsh needs `fpath+=(~/.local/share/zsh/site-functions)` before compinit). For a test:
# make install PREFIX=/tmp/p HOME=/tmp/h
CONFIG_HOME = $(or $(XDG_CONFIG_HOME),$(HOME)/.config)
DATA_HOME = $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
BINDIR = $(abspath $(PREFIX)/bin)
MANDIR = $(abspath $(PREFIX)/share/man/man1)
UNITDIR = $(CONFIG_HOME)/systemd/user
BASH_COMPLETIONS = $(DATA_HOME)/bash-completion/completions
ZSH_COMPLETIONS = $(DATA_HOME)/zsh/site-functions
FISH_COMPLETIONS = $(CONFIG_HOME)/fish/completions
MANUAL_DIR := .build/plugins/GenerateManual/outputs
INSTALLED = $(BINDIR)/peerd $(BINDIR)/peerctl $(UNITDIR)/peerd.service $(MANDIR)/peerd.1 $(MANDIR)/peerctl.1 \
	$(BASH_COMPLETIONS)/peerd $(BASH_COMPLETIONS)/peerctl $(ZSH_COMPLETIONS)/_peerd $(ZSH_COMPLETIONS)/_peerctl \
	$(FISH_COMPLETIONS)/peerd.fish $(FISH_COMPLETIONS)/peerctl.fish

# Man pages from swift-argument-parser's generate-manual plugin, which runs each tool with
# --experimental-dump-help: what it prints is the same in every configuration, so the plugin uses
# the debug build (the one the tests use) rather than a release build of its own without
# --static-swift-stdlib, which would compile every module a third time.
man: build
	$(SWIFT) package plugin generate-manual --configuration debug
	@# A blank line between the help's paragraphs is a new paragraph in mdoc (.Pp), and man(1) warns
	@# of it as it is.
	sed -i 's/^$$/.Pp/' $(MANUAL_DIR)/peerd/peerd.1 $(MANUAL_DIR)/peerctl/peerctl.1
	@# Every peerctl subcommand takes --socket, --json, --version and --help: said once, at the top.
	python3 scripts/man-common-options.py $(MANUAL_DIR)/peerctl/peerctl.1

install: man release
	install -d $(BINDIR) $(MANDIR) $(UNITDIR) $(BASH_COMPLETIONS) $(ZSH_COMPLETIONS) $(FISH_COMPLETIONS)
	install -m 755 $(RELEASE_BIN)/peerd $(RELEASE_BIN)/peerctl $(BINDIR)/
	sed 's|^ExecStart=%h/.local/bin/|ExecStart=$(BINDIR)/|' systemd/peerd.service > $(UNITDIR)/peerd.service
	chmod 644 $(UNITDIR)/peerd.service
	install -m 644 $(MANUAL_DIR)/peerd/peerd.1 $(MANUAL_DIR)/peerctl/peerctl.1 $(MANDIR)/
	@set -e; for tool in peerd peerctl; do \
		$(RELEASE_BIN)/$$tool --generate-completion-script bash > $(BASH_COMPLETIONS)/$$tool; \
		$(RELEASE_BIN)/$$tool --generate-completion-script zsh > $(ZSH_COMPLETIONS)/_$$tool; \
		$(RELEASE_BIN)/$$tool --generate-completion-script fish > $(FISH_COMPLETIONS)/$$tool.fish; \
	done
	@echo "installed. Start peerd now and at every login: systemctl --user daemon-reload && systemctl --user enable --now peerd"

uninstall:
	@if systemctl --user is-active --quiet peerd 2>/dev/null; then echo "peerd is still running: systemctl --user disable --now peerd"; fi
	rm -f $(INSTALLED)

# A real systemd user manager runs the installed unit (needs root for its private namespaces; exit 77 = skipped).
systemd-test: release
	python3 integration/systemd/test_systemd.py; rc=$$?; [ $$rc = 0 ] || [ $$rc = 77 ]
