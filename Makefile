# signd: `make demo` runs the demo with a live terminal preview, `make test` runs the tests.
# Both install what is missing first (Debian packages via tools/setup.sh, Swift packages via SwiftPM).

SWIFT   ?= swift
PREFIX  ?= /usr/local
DESTDIR ?=
CONFIG  ?= configs/demo.toml

.PHONY: all setup build release demo test install clean format

all: build

setup:
	@tools/setup.sh

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

## demo: signd on configs/demo.toml with the preview in this terminal; signctl in another one.
demo: build
	@tools/demo.sh $(CONFIG)

## test: builds everything (tests included) and runs every test suite.
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)/etc/signd $(DESTDIR)/lib/systemd/system $(DESTDIR)/usr/lib/sysusers.d
	install -m 0755 .build/release/signd .build/release/signctl $(DESTDIR)$(PREFIX)/bin/
	sed 's|@BINDIR@|$(PREFIX)/bin|g' systemd/signd.service > $(DESTDIR)/lib/systemd/system/signd.service
	install -m 0644 systemd/sysusers.d/signd.conf $(DESTDIR)/usr/lib/sysusers.d/signd.conf
	test -e $(DESTDIR)/etc/signd/signd.toml || install -m 0644 configs/signd.toml $(DESTDIR)/etc/signd/signd.toml

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build
