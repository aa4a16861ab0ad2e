#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check, static analysis: sparse (C=2) and Coccinelle
# (scripts/coccicheck, report mode) on every C file of the kernel that
# the series adds or changes, on the patched tree and on the base built
# with the same configuration (the test kernel's).  A finding the base
# does not have fails the check, unless config/static-exceptions lists it
# with its reason.  Findings are compared without their line numbers, so
# that code the series moves does not count as new.
. "$(dirname "$0")/lib.sh"

export LC_ALL=C
need_cmd sparse spatch make gcc
out="$BUILD/static"
mkdir -p "$out"
psrc="$BUILD/kernel/patched/src"
pobj="$BUILD/kernel/patched/obj-test"
bsrc="$out/base-src"
bobj="$out/base-obj"

# The patched tree: the test kernel (built, as make test builds it, so
# that its objects say which files the configuration compiles); the base
# tree with the same .config (the series' own options drop out), prepared.
"$TOP/scripts/build-kernel.sh" patched test || exit 1
"$TOP/scripts/tree.sh" base "$bsrc" || exit 1
mkdir -p "$bobj"
cmp -s "$pobj/.config" "$bobj/.config" || cp "$pobj/.config" "$bobj/.config"
jobs=${JOBS:-$(nproc)}
bmake=(make -C "$bsrc" O="$bobj" ARCH=x86_64 -j"$jobs")
pmake=(make -C "$psrc" O="$pobj" ARCH=x86_64 -j"$jobs")
log "static: preparing the base tree"
"${bmake[@]}" olddefconfig prepare >"$out/base-prepare.log" 2>&1 ||
	die "preparing the base tree failed (see $out/base-prepare.log)"

# Every file the series adds or changes: findings are counted in these
# only (a header the series does not touch is reported when a new file
# includes it, and is not the series' to answer).
touched=$(cd "$psrc" && git diff --name-only base HEAD -- '*.c' '*.h' | grep -v "^tools/" | paste -sd" " -)

# Of these, the C files that the test kernel builds as objects (a file
# that another includes, such as a KUnit suite, is checked with it).
files=()
for f in $touched; do
	case $f in *.c) [ -f "$pobj/${f%.c}.o" ] && files+=("$f") ;; esac
done
[ ${#files[@]} -gt 0 ] || die "the test configuration builds none of the series' C files"
objs=("${files[@]/%.c/.o}")

# One checker over a list of objects: the findings in the series' files,
# one "path: message" a line, sorted; no line or column, also not in the
# message ("preceding lock on line N").
findings() {	# findings LOG
	sed -nE 's/^([^ :]+\.[ch]):[0-9]+:[0-9-]*:? (warning|error|WARNING|ERROR)?:? ?(.*)$/\1: \3/p' "$1" |
		sed -E "s|^$psrc/||; s|^$bsrc/||; s/(line|lines) [0-9]+/\1 N/g" |
		awk -v list="$touched" 'BEGIN { n = split(list, t, " "); for (i = 1; i <= n; i++) want[t[i]] = 1 }
			{ p = $0; sub(/: .*/, "", p) } p in want' | sort
}
run() {	# run NAME TOOL-ARGS...
	local name=$1; shift
	log "static: $name on ${#objs[@]} file(s) of the series"
	local t0 f b=()
	t0=$(date +%s)
	"${pmake[@]}" -k "$@" "${objs[@]}" >"$out/$name-patched.log" 2>&1
	if grep -q '^make.*Error' "$out/$name-patched.log"; then
		echo "static: $name: the patched files did not build:"
		grep -B3 '^make.*Error' "$out/$name-patched.log" | head -12 | sed 's/^/  /'
		return 1
	fi
	findings "$out/$name-patched.log" >"$out/$name-patched.txt"
	# The base is checked only where the series' files have findings.
	for f in $(sed 's/: .*//' "$out/$name-patched.txt" | sort -u); do
		case $f in *.c) [ -f "$bsrc/$f" ] && b+=("${f%.c}.o") ;; esac
	done
	: >"$out/$name-base.log"
	[ ${#b[@]} -eq 0 ] || "${bmake[@]}" -k "$@" "${b[@]}" >"$out/$name-base.log" 2>&1
	findings "$out/$name-base.log" >"$out/$name-base.txt"
	# In the patched findings, not (as often) in the base's
	comm -23 "$out/$name-patched.txt" "$out/$name-base.txt" >"$out/$name-new.txt"
	local excused=0 new=()
	while IFS= read -r l; do
		if awk -v l="$l" -v tool="$name" -F' [|] ' '
			/^#/ || NF < 3 { next }
			$1 == tool && index(l, $2) == 1 { found = 1 }
			END { exit !found }' "$TOP/config/static-exceptions"; then
			excused=$((excused + 1))
		else
			new+=("$l")
		fi
	done <"$out/$name-new.txt"
	echo "static: $name: $(wc -l <"$out/$name-patched.txt") finding(s) in ${#objs[@]} file(s) of the series," \
		"$(wc -l <"$out/$name-base.txt") in the base's, ${#new[@]} new, $excused excused" \
		"(config/static-exceptions), $(( $(date +%s) - t0 )) s"
	if [ ${#new[@]} -gt 0 ]; then
		printf '  %s\n' "${new[@]}"
		return 1
	fi
}

fail=0
run sparse C=2 CHECK=sparse || fail=1
run coccicheck C=2 CHECK="$bsrc/scripts/coccicheck" MODE=report || fail=1
[ $fail = 0 ] || die "static analysis: new findings (logs in $out/)"
