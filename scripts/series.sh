#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Read patches/series.
#   series.sh all            every patch, in order
#   series.sh baseline       the test-only patches, in order
#   series.sh topics         topic names, one a line
#   series.sh topic NAME     the patches of one topic
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
*)
	die "usage: series.sh all|baseline|topics|topic NAME" ;;
esac
