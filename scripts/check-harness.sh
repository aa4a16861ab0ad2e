#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness's own tests (tests/, pytest): the console log parsers, the
# verdict and its failure contract, the benchmark trace parsers, the
# report and its browser check, send-ready.  Run by 'make check' and
# 'make check-harness'; 'make test' runs them with -m 'not slow', which
# leaves out the end-to-end run of send-ready (about a minute).
. "$(dirname "$0")/lib.sh"

"$PY" -m pytest --version >/dev/null 2>&1 || die "python3-pytest missing (run 'make deps')"
cd "$TOP" && "$PY" -m pytest -q -p no:cacheprovider tests "$@"
