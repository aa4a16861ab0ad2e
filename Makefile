# SPDX-License-Identifier: GPL-2.0
# Linux 6.12 series: build, boot, test and measure under QEMU.
# See README.md.  Every target installs what it needs ('make deps').

SHELL := /bin/bash
TREE ?= $(CURDIR)/build/tree
REPS ?= 5
BENCH ?=
export REPS CYCLES INNER

.PHONY: all bench test stress check check-build tree export deps clean help

all: bench

bench:
	@scripts/bench.sh $(BENCH)

test:
	@scripts/test.sh 0

stress:
	@scripts/test.sh 1

check: deps
	@scripts/check.sh

check-build: deps
	@scripts/check.sh build

tree: deps
	@scripts/devtree.sh $(TREE)

export:
	@scripts/export.sh $(TREE)

deps:
	@scripts/deps.sh

clean:
	rm -rf build

help:
	@sed -n '/^## Commands/,/^## /p' README.md | sed '$$d'
