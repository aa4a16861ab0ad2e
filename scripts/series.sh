#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Read patches/series.
#   series.sh all            every patch, in order
#   series.sh baseline       the test-only patches, in order
#   series.sh topics         topic names, one a line
#   series.sh topic NAME     the patches of one topic
#   series.sh step NAME K    the test-only patches and the first K other
#                            patches of topic NAME, in series order (the
#                            kernels of a benchmark's per-patch breakdown)
. "$(dirname "$0")/lib.sh"

SERIES=${SERIES:-$TOP/patches/series}
[ -f "$SERIES" ] || die "$SERIES missing"

case "${1:-all}" in
all)
	awk '/^[ \t]*#/ || NF == 0 { next } { print $1 }' "$SERIES" ;;
baseline)
	awk '/^[ \t]*#/ || NF == 0 { next } /#[ \t]*test-only/ { print $1 }' "$SERIES" ;;
topics)
	sed -n 's/^#[ \t]*Topic:[ \t]*//p' "$SERIES" ;;
topic)
	[ -n "${2:-}" ] || die "usage: series.sh topic NAME"
	awk -v want="$2" '
		/^#[ \t]*Topic:/ { sub(/^#[ \t]*Topic:[ \t]*/, ""); cur = $0; next }
		/^[ \t]*#/ || NF == 0 { next }
		cur == want { print $1 }' "$SERIES" ;;
step)
	[ -n "${2:-}" ] && [ -n "${3:-}" ] || die "usage: series.sh step NAME K"
	awk -v want="$2" -v k="$3" '
		/^#[ \t]*Topic:/ { sub(/^#[ \t]*Topic:[ \t]*/, ""); cur = $0; next }
		/^[ \t]*#/ || NF == 0 { next }
		/#[ \t]*test-only/ { print $1; next }
		cur == want && n < k { n++; print $1 }' "$SERIES" ;;
*)
	die "usage: series.sh all|baseline|topics|topic NAME|step NAME K" ;;
esac
