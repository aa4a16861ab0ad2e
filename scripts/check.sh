#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: checkpatch --strict on every patch; the series applies with
# 'git am' and with 'quilt push -a --fuzz=0'; every topic applies alone;
# sparse and Coccinelle find nothing new in the files the series touches.
# make check-build (check.sh build): also build the kernel after each
# patch (bisectability), with the test config and W=1, and fail on a W=1
# warning in a file the patch touches that the file did not have before.
. "$(dirname "$0")/lib.sh"

need_cmd git quilt perl
repo=$("$TOP/scripts/base-tree.sh") || exit 1
base=$(git -C "$repo" rev-parse refs/heads/base)
mapfile -t all < <("$TOP/scripts/series.sh" all)
fail=0

# checkpatch.pl --strict, from the base tree.  A patch may carry a
# documented exception as a line 'checkpatch-ignore: TYPE[,TYPE]: why'
# below its '---' line (a git note on the commit in a work tree, see
# devtree.sh); those types are ignored for that patch only.
for p in "${all[@]}"; do
	ign=$(sed -n 's/^ *checkpatch-ignore: \([A-Z_,]*\):.*/\1/p' "$TOP/patches/$p" | paste -sd,)
	if out=$(cd "$repo" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --no-summary --terse \
			--show-types ${ign:+--ignore "$ign"} "$TOP/patches/$p" 2>&1); then
		echo "checkpatch: $p: clean"
	else
		echo "$out" | sed "s|^|checkpatch: $p: |"
		fail=1
	fi
done

# No patch may keep a marker for text still to be written (a benchmark
# table to fill in, a TODO/FIXME added by the series).
for p in "${all[@]}"; do
	if grep -nE '@@[A-Z0-9-]+@@|^\+.*\b(TODO|FIXME|XXX)\b' "$TOP/patches/$p" >/tmp/lsx-marker.$$; then
		sed "s|^|marker: $p: |" /tmp/lsx-marker.$$
		fail=1
	fi
done
rm -f /tmp/lsx-marker.$$

# One scratch tree, reset between the apply checks.
t="$BUILD/check/tree"
reset_tree() { scratch_tree "$t" "$repo" "$base"; }

am() {	# am WHAT PATCH...
	local what=$1; shift
	[ $# -gt 0 ] || { echo "apply: $what: no patches"; return 0; }
	reset_tree
	local rc=0 why
	git -C "$t" am -q "${@/#/$TOP/patches/}" >"$t.log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "apply: $what: git am: $# patch(es) apply"
	else
		# git am's own message, or the end of its output when it
		# has none of the usual ones; the log is kept per check.
		why=$(grep -m1 -E 'Patch failed|error|fatal' "$t.log")
		[ -n "$why" ] || why=$(tail -n 3 "$t.log" | paste -sd' ')
		echo "apply: $what: git am FAILED: ${why:-no output, exit status $rc}"
		cp "$t.log" "$BUILD/check/am-${what//[^A-Za-z0-9-]/_}.log"
		fail=1
	fi
}

am "whole series" "${all[@]}"

if [ ${#all[@]} -gt 0 ]; then
	reset_tree
	if (cd "$t" && QUILT_PATCHES="$TOP/patches" QUILT_PC=.pc quilt push -a -q --fuzz=0) \
			>"$t.log" 2>&1; then
		if grep -q -i 'offset\|fuzz' "$t.log"; then
			echo "apply: whole series: quilt: applies, with offsets:"
			grep -i 'offset\|fuzz' "$t.log" | sed 's/^/  /'
		else
			echo "apply: whole series: quilt push -a --fuzz=0: ${#all[@]} patch(es) apply"
		fi
	else
		echo "apply: whole series: quilt push -a --fuzz=0 FAILED: $(tail -2 "$t.log" | head -1)"
		fail=1
	fi
fi

while read -r topic; do
	[ -n "$topic" ] || continue
	mapfile -t ps < <("$TOP/scripts/series.sh" topic "$topic")
	am "topic '$topic' alone" "${ps[@]}"
done < <("$TOP/scripts/series.sh" topics)

mapfile -t bl < <("$TOP/scripts/series.sh" baseline)
am "baseline (test-only patches)" "${bl[@]}"

if [ "${1:-}" = build ]; then
	reset_tree
	obj="$BUILD/check/obj"
	cc=(); command -v ccache >/dev/null && cc=(CC="ccache gcc")
	mk=(make -C "$t" O="$obj" ARCH=x86_64 -j"$(nproc)" "${cc[@]}" W=1)
	mkdir -p "$obj"
	# The W=1 warnings of FILE in LOG, without line and column numbers.
	file_warnings() {	# file_warnings LOG FILE
		grep -F "$2:" "$1" | grep 'warning:' |
			sed -E 's/:[0-9]+(:[0-9]+)?: warning:/: warning:/' | sort -u
	}
	i=0
	for p in "${all[@]}"; do
		i=$((i + 1))
		# The W=1 warnings the C files of this patch had before it:
		# each object built again, alone, before the patch is applied.
		# A warning of the base (a kernel-doc mismatch in a file the
		# series edits, say) is not the patch's.
		: >"$obj/before-$i.log"
		if [ $i -gt 1 ]; then
			for f in $(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$TOP/patches/$p"); do
				[ -f "$t/$f" ] && [ -f "$obj/${f%.c}.o" ] || continue
				touch "$t/$f"
				"${mk[@]}" "${f%.c}.o" >>"$obj/before-$i.log" 2>&1
			done
		fi
		git -C "$t" am -q "$TOP/patches/$p" || { echo "bisect: $p does not apply"; fail=1; break; }
		if [ $i = 1 ]; then
			cp "$BUILD/kernel/patched/obj-test/.config" "$obj/.config" 2>/dev/null ||
				die "build the test kernel first (make test) to get its config"
		fi
		log "check-build: [$i/${#all[@]}] $p"
		if "${mk[@]}" olddefconfig bzImage >"$obj/build-$i.log" 2>&1; then
			# W=1: no new warning in a file this patch touches.
			touched=$(git -C "$t" diff --name-only HEAD~1 -- '*.c' '*.h')
			warn=
			had=0
			for f in $touched; do
				new=$(comm -13 <(file_warnings "$obj/before-$i.log" "$f") \
					<(file_warnings "$obj/build-$i.log" "$f"))
				[ -n "$new" ] && warn+="$new"$'\n'
				had=$((had + $(file_warnings "$obj/before-$i.log" "$f" | wc -l)))
			done
			if [ -n "$warn" ]; then
				echo "bisect: [$i] $p: builds, with new W=1 warnings in its files:"
				printf '%s' "$warn" | sed 's/^/  /'
				fail=1
			elif [ "$had" -gt 0 ]; then
				echo "bisect: [$i] $p: builds, no new W=1 warning in its files ($had they had before the patch)"
			else
				echo "bisect: [$i] $p: builds, no W=1 warning in its files"
			fi
		else
			echo "bisect: [$i] $p: BUILD FAILED (see $obj/build-$i.log)"
			fail=1
		fi
	done
fi

# Static analysis: sparse and Coccinelle on the series' C files, new
# findings against the base (check-static.sh).
if "$TOP/scripts/check-static.sh"; then
	echo "static: no new sparse or Coccinelle finding"
else
	echo "static: FAILED (logs in $BUILD/static/)"
	fail=1
fi

# The harness's own tests.
if "$TOP/scripts/check-harness.sh"; then
	echo "harness: tests pass"
else
	echo "harness: tests FAILED (make check-harness)"
	fail=1
fi

if [ $fail != 0 ]; then
	echo "make check: FAILED"
	exit 1
fi
echo "make check: passed (${#all[@]} patches)"
