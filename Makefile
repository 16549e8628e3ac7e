# signd: `make demo` runs the demo with a live terminal preview, `make test` runs the tests.
# Both install what is missing first (Debian packages via tools/setup.sh, Swift packages via SwiftPM).

SWIFT   ?= swift
PREFIX  ?= /usr/local
DESTDIR ?=
CONFIG  ?= configs/demo.toml
UNITDIR     ?= /lib/systemd/system
UDEVDIR     ?= /etc/udev/rules.d
SYSUSERSDIR ?= /usr/lib/sysusers.d

.PHONY: all setup setup-test setup-bench setup-deb build release demo test bench fuzz soak install deb clean format

all: build

## setup: what signd needs to build and run; setup-test: also what the tests talk to
## (emulated USB, OLA, mosquitto, chromium, the protocols' Python packages).
setup:
	@tools/setup.sh

setup-test:
	@tools/setup.sh --test

setup-bench:
	@tools/setup.sh --bench

setup-deb:
	@tools/setup.sh --deb

build: setup
	$(SWIFT) build

## release: optimised, with the Swift runtime and Foundation linked in (`make install` installs it).
release: setup
	$(SWIFT) build -c release --static-swift-stdlib

## demo: signd on configs/demo.toml with the preview in this terminal; signctl in another one.
demo: build
	@tools/demo.sh $(CONFIG)

## test: builds everything (tests included), runs every test suite, checks the systemd units,
## replays the fuzz corpus, fuzzes each target briefly, builds the Debian package (lintian
## clean), installs, checks and purges it (tools/check-deb), and soaks the release daemon (the one
## users run: a debug build spends a third of a 120 fps frame rendering) for three minutes.
## The short soak checks the heap in use for growth, not RSS: in three minutes glibc's
## per-thread arenas are still filling (RSS steps up 2 to 4 MB and then stays), which the
## one-hour `make soak` sees as the plateau it is. It fails on a stall signd caused (its own
## work overran a frame); one where the clock's thread waited for a CPU on this shared machine
## is reported with the machine's CPU pressure (`tools/soak --strict` fails on those too).
test: setup-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	tools/check-ha-templates
	tools/check-units
	tools/check-manuals
	tools/fuzz-replay
	tools/fuzz $(FUZZ_SECONDS)
	$(SWIFT) build -c release --static-swift-stdlib
	$(MAKE) deb
	tools/check-deb
	tools/soak $(SOAK) --interval 10 --warmup 60 --growth heap

FUZZ_SECONDS ?= 20
SOAK ?= 3m

## fuzz: each fuzz target for FUZZ_SECONDS (make fuzz FUZZ_SECONDS=1800 for a long run).
fuzz: setup
	tools/fuzz $(FUZZ_SECONDS)

## soak: the release daemon stormed by clients for SOAK (make soak SOAK=1h).
soak: setup-test release
	tools/soak $(SOAK)

## install: binaries, units, the sysusers entry, the udev rules, man pages, shell completions and
## /etc/signd/signd.toml (an existing one is kept).
## bench: the benchmarks in Benchmarks/ (release build; wall clock percentiles and mallocs),
## then signd against the C cairo peer on the combined example (tools/bench-cairo) and its LED
## pipeline against a plain C one (tools/bench-ledpeer, in thread CPU time).
bench: setup-bench
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark --no-progress
	cd Benchmarks && $(SWIFT) build -c release
	tools/bench-cairo
	tools/bench-ledpeer --cpu

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/signd $(DESTDIR)/etc/signd $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(UDEVDIR)
	install -m 0755 .build/release/signd .build/release/signctl $(DESTDIR)$(PREFIX)/bin/
	sed 's|@BINDIR@|$(PREFIX)/bin|g' systemd/signd.service > $(DESTDIR)$(UNITDIR)/signd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/signd.service
	install -m 0644 systemd/signd.socket $(DESTDIR)$(UNITDIR)/signd.socket
	# The network drop-in waits here until a user enables it (docs/service.md, "Network access").
	install -m 0644 systemd/signd.service.d/network.conf $(DESTDIR)$(PREFIX)/share/signd/network.conf
	install -m 0644 systemd/signd.service.d/colorlight.conf $(DESTDIR)$(PREFIX)/share/signd/colorlight.conf
	install -m 0644 systemd/sysusers.d/signd.conf $(DESTDIR)$(SYSUSERSDIR)/signd.conf
	install -m 0644 systemd/70-signd-usb.rules $(DESTDIR)$(UDEVDIR)/70-signd-usb.rules
	# signd-matrix, the HUB75 bridge: enabled by hand on the Pi with the panels (README).
	install -m 0755 .build/release/signd-matrix $(DESTDIR)$(PREFIX)/bin/
	sed 's|@BINDIR@|$(PREFIX)/bin|g' systemd/signd-matrix.service > $(DESTDIR)$(UNITDIR)/signd-matrix.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/signd-matrix.service
	install -m 0644 systemd/sysusers.d/signd-matrix.conf $(DESTDIR)$(SYSUSERSDIR)/signd-matrix.conf
	test -e $(DESTDIR)/etc/signd/matrix.toml || install -m 0644 configs/matrix.toml $(DESTDIR)/etc/signd/matrix.toml
	test -e $(DESTDIR)/etc/signd/signd.toml || install -m 0644 configs/signd.toml $(DESTDIR)/etc/signd/signd.toml
	$(SWIFT) build -c release --static-swift-stdlib --product generate-manual
	tools/manuals .build/release $(DESTDIR)$(PREFIX)/share/man
	tools/completions .build/release $(DESTDIR)$(PREFIX)/share

## deb: the Debian package, built by dpkg-buildpackage from debian/ into out/deb (the .deb,
## its debug symbols, .buildinfo and .changes), then checked by lintian; tools/check-deb
## installs it on this machine, checks what it installed and purges it.
DEB_VERSION = $(shell dpkg-parsechangelog -S Version 2>/dev/null)
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null)
DEB_OUT = $(CURDIR)/out/deb

deb: setup setup-deb
	mkdir -p $(DEB_OUT)
	DEB_DESTDIR=$(DEB_OUT) dpkg-buildpackage -b --no-sign \
	    --buildinfo-option=-u$(DEB_OUT) --changes-option=-u$(DEB_OUT) \
	    --buildinfo-file=$(DEB_OUT)/signd_$(DEB_VERSION)_$(DEB_ARCH).buildinfo \
	    --changes-file=$(DEB_OUT)/signd_$(DEB_VERSION)_$(DEB_ARCH).changes
	lintian --fail-on error,warning --info $(DEB_OUT)/signd_$(DEB_VERSION)_$(DEB_ARCH).changes

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build
