#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-kunit: every .kunitconfig the series adds, the way a
# maintainer runs it: tools/testing/kunit/kunit.py run --arch=ARCH
# --kunitconfig=DIR on the patched tree, for x86_64 (QEMU) and um (User
# Mode Linux).  KUNIT_ARCHS="x86_64 um" is the default.
# A configuration that cannot be built for UML because an option of its
# .kunitconfig does not exist there is reported as such and does not fail
# the check; any other failure does.
. "$(dirname "$0")/lib.sh"

need_cmd python3 make gcc qemu-system-x86_64
src="$BUILD/kernel/patched/src"
"$TOP/scripts/tree.sh" patched "$src" || exit 1
mapfile -t dirs < <(cd "$src" && git diff --name-only base HEAD -- '*.kunitconfig' | xargs -rn1 dirname)
[ ${#dirs[@]} -gt 0 ] || die "the series adds no .kunitconfig"

mk=(--jobs="${JOBS:-$(nproc)}")
command -v ccache >/dev/null 2>&1 && mk+=(--make_options "CC=ccache gcc")
export CCACHE_BASEDIR="$BUILD" CCACHE_NOHASHDIR=1
fail=0
for arch in ${KUNIT_ARCHS:-x86_64 um}; do
	for d in "${dirs[@]}"; do
		name="$arch-${d//\//-}"
		bdir="$BUILD/kunit/$name"
		mkdir -p "$bdir"
		start=$(date +%s)
		log "check-kunit: $arch $d (log: $bdir.log)"
		(cd "$src" && python3 tools/testing/kunit/kunit.py run --arch="$arch" \
			--kunitconfig="$d" --build_dir="$bdir" --timeout=900 "${mk[@]}") \
			>"$bdir.log" 2>&1
		rc=$?
		t=$(( $(date +%s) - start ))
		sum=$(sed 's/\x1b\[[0-9;]*m//g' "$bdir.log" | grep -E '^\[[0-9:]+\] Testing complete\.' | tail -1 |
			sed 's/^\[[0-9:]*\] //')
		if [ $rc = 0 ]; then
			echo "kunit: $arch $d: passed in $t s: $sum"
		elif [ "$arch" = um ] && grep -q '^Missing: ' "$bdir.log" &&
				! grep -q 'Testing complete' "$bdir.log"; then
			miss=$(sed -n 's/^Missing: //p' "$bdir.log" | head -1)
			echo "kunit: $arch $d: does not build for UML (options missing there: ${miss:-see the log}), in $t s"
		else
			echo "kunit: $arch $d: FAILED in $t s (rc $rc): ${sum:-$(tail -3 "$bdir.log" | paste -sd' ')}"
			fail=1
		fi
	done
done
[ $fail = 0 ] || die "check-kunit: a KUnit run failed (logs in $BUILD/kunit/)"
log "check-kunit: passed"
