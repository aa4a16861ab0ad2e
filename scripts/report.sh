#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make report: build/report/index.html and summary.md from the last
# benchmark run (build/bench/run.json), then render the page in headless
# chromium and check that every chart is there (screenshot.png).
. "$(dirname "$0")/lib.sh"

in="$BUILD/bench" out="$BUILD/report"
[ -f "$in/run.json" ] || die "no benchmark results in $in (run 'make' or 'make bench' first)"
rc=0
"$PY" "$TOP/scripts/report.py" --in "$in" --out "$out" || rc=1
if [ -f "$out/index.html" ]; then
	"$PY" "$TOP/scripts/report.py" --check "$out/index.html" \
		--screenshot "$out/screenshot.png" || rc=1
fi
[ $rc = 0 ] && log "report: $out/index.html, $out/summary.md"
exit $rc
