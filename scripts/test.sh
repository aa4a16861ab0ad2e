#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test / make stress: build the patched test kernel and its
# initramfs, boot it, run every KUnit suite and kselftest of the series,
# and print the verdict.  $1 = 0 (test) or 1 (stress).
. "$(dirname "$0")/lib.sh"

stress=${1:-0}
# A wrong TESTS fails before anything is built
[ -z "${TESTS:-}" ] || "$TOP/scripts/select-tests.sh" "$TOP/guest/kselftests" "$TESTS" >/dev/null ||
	die "TESTS='$TESTS': see guest/kselftests for the names"
"$TOP/scripts/deps.sh" || exit 1
"$TOP/scripts/build-kernel.sh" patched test || exit 1
out="$BUILD/test"
mkdir -p "$out"
log "test: the harness's own tests (tests/, pytest)"
"$TOP/scripts/check-harness.sh" -m 'not slow' || die "the harness's own tests failed (make check-harness)"
log "test: packing the initramfs"
"$TOP/scripts/initramfs.sh" test patched "$out/initramfs.cpio.gz" || exit 1

name=test; [ "$stress" = 1 ] && name=stress
tmo=${TEST_TIMEOUT:-$([ "$stress" = 1 ] && echo 7200 || echo 1200)}
extra=
[ "$stress" = 1 ] && extra="lsx.stress=1 ${CYCLES:+lsx.cycles=$CYCLES}"
# TESTS="swap_exit freezer:freezer_test" runs only those kselftests (a
# collection, a program or "collection:program" from guest/kselftests);
# the KUnit suites are built in and always run.
sfile="$TOP/guest/kselftests"
if [ -n "${TESTS:-}" ]; then
	sfile="$out/kselftests"
	"$TOP/scripts/select-tests.sh" "$TOP/guest/kselftests" "$TESTS" >"$sfile" ||
		die "TESTS='$TESTS': see guest/kselftests for the names"
	extra="$extra lsx.tests=$(paste -sd, "$sfile")"
	log "test: only the kselftests $(paste -sd' ' "$sfile")"
fi
log "test: booting the patched test kernel ($name, limit ${tmo} s; console: $out/$name-console.log)"
"$TOP/scripts/run-vm.sh" "$BUILD/kernel/patched/obj-test/arch/x86/boot/bzImage" \
	"$out/initramfs.cpio.gz" "$out/$name-console.log" "$tmo" lsx.mode=test $extra
status=$?
log "test: guest finished (status $status)"
"$PY" "$TOP/scripts/results.py" "$out/$name-console.log" "$status" \
	"$TOP/guest/kunit-suites" "$sfile"
