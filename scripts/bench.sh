#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make / make bench: build the baseline and patched bench kernels (same
# config), one initramfs for both, run the benchmarks interleaved, then
# write the report (build/report) and check it in a headless browser.
#   bench.sh [NAME ...]     default: every bench/*/meta
# A benchmark that fails does not stop the others; the exit status is
# non-zero at the end if any failed or the report is incomplete.
. "$(dirname "$0")/lib.sh"

names=("$@")
if [ ${#names[@]} -eq 0 ] || [ -z "${names[0]}" ]; then
	names=()
	for m in "$TOP"/bench/*/meta; do names+=("$(basename "$(dirname "$m")")"); done
fi
for n in "${names[@]}"; do
	[ -f "$TOP/bench/$n/meta" ] || die "no benchmark '$n' (have: $(ls "$TOP/bench" | tr '\n' ' '))"
done
"$TOP/scripts/deps.sh" || exit 1
repo=$("$TOP/scripts/base-tree.sh") || exit 1
"$TOP/scripts/build-kernel.sh" baseline bench || exit 1
"$TOP/scripts/build-kernel.sh" patched bench || exit 1
# A benchmark whose meta says 'steps=TOPIC K...' also runs on the kernels
# in between: the test-only patches plus the first K patches of TOPIC (not
# counting its test-only ones), for each K listed, or for every K short of
# the whole topic (its per-patch breakdown).
steps=()
for n in "${names[@]}"; do
	read -r topic ks < <(sed -n 's/^steps=//p' "$TOP/bench/$n/meta")
	[ -n "$topic" ] || continue
	mapfile -t tp < <("$TOP/scripts/series.sh" topic "$topic" | while read -r p; do
		grep -qE "^$p[[:space:]]*#[[:space:]]*test-only" "$TOP/patches/series" || echo "$p"
	done)
	[ ${#tp[@]} -gt 0 ] || die "bench/$n/meta: topic '$topic' has no patches"
	[ -n "$ks" ] || ks=$(seq 1 $((${#tp[@]} - 1)))
	for k in $ks; do
		[ "$k" -ge 1 ] && [ "$k" -lt ${#tp[@]} ] ||
			die "bench/$n/meta: steps=$topic $ks: $k is not between 1 and $((${#tp[@]} - 1))"
		"$TOP/scripts/build-kernel.sh" "step-$topic-$k" bench || exit 1
		steps+=(--step "$n=${tp[k - 1]%%-*}=$BUILD/kernel/step-$topic-$k/obj-bench/arch/x86/boot/bzImage")
	done
done
out="$BUILD/bench"
mkdir -p "$out"
"$TOP/scripts/initramfs.sh" bench "$out/initramfs.cpio.gz" || exit 1
log "bench: ${names[*]}, ${REPS:-5} repetition(s) per kernel, interleaved"
LSX_BASE_COMMIT=$(git -C "$repo" rev-parse refs/heads/base) \
LSX_BASE_PACKAGE="$BASE_PKG $BASE_VERSION" \
"$PY" "$TOP/scripts/bench.py" --out "$out" --reps "${REPS:-5}" \
	--command "${LSX_COMMAND:-scripts/bench.sh ${names[*]}}" \
	--baseline "$BUILD/kernel/baseline/obj-bench/arch/x86/boot/bzImage" \
	--patched "$BUILD/kernel/patched/obj-bench/arch/x86/boot/bzImage" \
	"${steps[@]}" --initrd "$out/initramfs.cpio.gz" "${names[@]}"
rc=$?
[ -f "$out/run.json" ] || exit 1
"$TOP/scripts/report.sh" || rc=1
log "bench: finished (status $rc)"
exit $rc
