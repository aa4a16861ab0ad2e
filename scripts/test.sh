#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test / make stress: build the patched test kernel and its
# initramfs, boot it, run every KUnit suite and kselftest of the series,
# and print the verdict.  $1 = 0 (test) or 1 (stress).
. "$(dirname "$0")/lib.sh"

stress=${1:-0}
# SAN=kasan,ubsan | SAN=kcsan: the test kernel with those sanitizers,
# RT=1: with PREEMPT_RT (config/tier-NAME.config); everything else is the
# same run.
san=${SAN:-}
for s in ${san//,/ }; do
	case $s in
	kasan|kcsan|ubsan) ;;
	*) die "SAN=$san: the sanitizers are kasan, kcsan and ubsan (comma-separated)" ;;
	esac
done
if [[ ",$san," == *,kasan,* && ",$san," == *,kcsan,* ]]; then
	die "SAN=$san: KASAN and KCSAN cannot be built together"
fi
# A wrong TESTS fails before anything is built
[ -z "${TESTS:-}" ] || "$TOP/scripts/select-tests.sh" "$TOP/guest/kselftests" "$TESTS" >/dev/null ||
	die "TESTS='$TESTS': see guest/kselftests for the names"
"$TOP/scripts/deps.sh" || exit 1
case ${RT:-0} in
0|'') tiers=$san ;;
1) tiers=${san:+$san,}rt ;;
*) die "RT=$RT: 1 builds the test kernel with PREEMPT_RT" ;;
esac
"$TOP/scripts/build-kernel.sh" patched test "$tiers" || exit 1
kobj="$BUILD/kernel/patched/obj-test${tiers:+-${tiers//,/-}}"
out="$BUILD/test"
mkdir -p "$out"
log "test: the harness's own tests (tests/, pytest)"
"$TOP/scripts/check-harness.sh" -m 'not slow' || die "the harness's own tests failed (make check-harness)"
log "test: packing the initramfs"
"$TOP/scripts/initramfs.sh" test patched "$out/initramfs.cpio.gz" || exit 1

name=test; [ "$stress" = 1 ] && name=stress
tmo=$([ "$stress" = 1 ] && echo 7200 || echo 1200)
extra=
[ -n "$tiers" ] && name="$name-${tiers//,/-}"
if [ -n "$san" ]; then
	# A sanitized kernel runs several times slower under TCG: the guest
	# gives every test program four times as long (run-tests), the host
	# waits four times as long, and a task counts as hung after 180 s.
	tmo=$((tmo * 4))
	export LSX_HUNG_S=${LSX_HUNG_S:-180}
	extra="lsx.san=$san"
fi
tmo=${TEST_TIMEOUT:-$tmo}
[ "$stress" = 1 ] && extra="$extra lsx.stress=1 ${CYCLES:+lsx.cycles=$CYCLES}"
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
"$TOP/scripts/run-vm.sh" "$kobj/arch/x86/boot/bzImage" \
	"$out/initramfs.cpio.gz" "$out/$name-console.log" "$tmo" lsx.mode=test $extra
status=$?
log "test: guest finished (status $status)"
"$PY" "$TOP/scripts/results.py" "$out/$name-console.log" "$status" \
	"$TOP/guest/kunit-suites" "$sfile"
rc=$?

# Real system sleep (scripts/real-sleep.sh, the same test kernel on the
# q35 machine): CYCLES=1 in make test (one s2idle, S3 and hibernation of
# each pm_async value, the refusal, the loaded S3, the pm_test levels:
# three boots, about 5 minutes), REAL_SLEEP_CYCLES=25 in make stress;
# REAL_SLEEP=0 leaves it out, and so does TESTS= (a choice of
# kselftests) unless REAL_SLEEP=1 is given too.  Not with SAN or RT:
# their kernels are several times slower than the plan's time limits
# allow for.
if [ "${REAL_SLEEP:-$([ -z "${TESTS:-}" ] && echo 1 || echo 0)}" = 0 ]; then
	log "test: real system sleep left out (REAL_SLEEP=0, or TESTS= without REAL_SLEEP=1)"
else
	if [ -n "$tiers" ]; then
		log "test: real system sleep left out (SAN/RT: make real-sleep runs the plain test kernel)"
	else
		log "test: real system sleep (make real-sleep)"
		CYCLES=${REAL_SLEEP_CYCLES:-$([ "$stress" = 1 ] && echo 25 || echo 1)} \
			"$TOP/scripts/real-sleep.sh" || rc=1
	fi
fi
exit $rc
