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
	--initrd "$out/initramfs.cpio.gz" "${names[@]}"
rc=$?
[ -f "$out/run.json" ] || exit 1
"$TOP/scripts/report.sh" || rc=1
log "bench: finished (status $rc)"
exit $rc
