# SPDX-License-Identifier: GPL-2.0
# Linux 6.12 series: build, boot, test and measure under QEMU.
# See README.md.  Every target installs what it needs ('make deps').

SHELL := /bin/bash
TREE ?= $(CURDIR)/build/tree
REPS ?= 5
BENCH ?=
export REPS CYCLES INNER TESTS SAN RT MATRIX_TARGETS MATRIX_STATES KUNIT_ARCHS \
	REAL_SLEEP REAL_SLEEP_CYCLES REAL_SLEEP_ARGS REAL_SLEEP_STATES LAVA_URL LAVA_RUN

.PHONY: all bench report test stress check check-harness check-build check-kunit \
	check-matrix real-sleep lava-jobs send-ready tree export deps deps-check deps-matrix clean help

all:
	@LSX_COMMAND="make$(if $(filter-out 5,$(REPS)), REPS=$(REPS))" scripts/bench.sh

bench:
	@LSX_COMMAND="make bench$(if $(BENCH), BENCH=\"$(BENCH)\")$(if $(filter-out 5,$(REPS)), REPS=$(REPS))" \
		scripts/bench.sh $(BENCH)

report: deps
	@scripts/report.sh

test:
	@scripts/test.sh 0

stress:
	@scripts/test.sh 1

check: deps-check
	@scripts/check.sh

real-sleep:
	@scripts/real-sleep.sh

lava-jobs:
	@scripts/lava-jobs.sh

check-harness: deps
	@scripts/check-harness.sh

check-build: deps-check
	@scripts/check.sh build

check-kunit: deps
	@scripts/check-kunit.sh

check-matrix: deps-matrix
	@scripts/check-matrix.sh

send-ready: deps
	@scripts/send-ready.sh

tree: deps
	@scripts/devtree.sh $(TREE)

export:
	@scripts/export.sh $(TREE)

deps:
	@scripts/deps.sh

deps-check:
	@scripts/deps.sh check

deps-matrix:
	@scripts/deps.sh matrix

clean:
	rm -rf build

help:
	@sed -n '/^## Commands/,/^## /p' README.md | sed '$$d'
