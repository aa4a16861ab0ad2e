#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build one kernel:  build-kernel.sh VARIANT FLAVOUR [TIERS]
#   VARIANT  patched | baseline    (see tree.sh)
#   FLAVOUR  test | bench          (config/FLAVOUR.config over config/base.config
#                                   and config/devices.config)
#   TIERS    comma-separated: kasan, kcsan, ubsan, rt
#            (config/tier-NAME.config over the flavour)
# Source in build/kernel/VARIANT/src, objects in build/kernel/VARIANT/obj-FLAVOUR
# (obj-FLAVOUR-TIER1-TIER2 with tiers).
# Both variants sit at the same depth so that ccache (with CCACHE_BASEDIR)
# shares the objects the two trees have in common.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: build-kernel.sh VARIANT FLAVOUR}
flavour=${2:?usage: build-kernel.sh VARIANT FLAVOUR}
tiers=${3:-}
frag="$TOP/config/$flavour.config"
[ -f "$frag" ] || die "no config fragment config/$flavour.config"
frags=("$frag")
for t in ${tiers//,/ }; do
	[ -f "$TOP/config/tier-$t.config" ] || die "no tier '$t' (config/tier-$t.config)"
	frags+=("$TOP/config/tier-$t.config")
done
[ -n "$tiers" ] && flavour="$flavour-${tiers//,/-}"
need_cmd make gcc flex bison bc perl

kdir="$BUILD/kernel/$variant"
src="$kdir/src"
obj="$kdir/obj-$flavour"
"$TOP/scripts/tree.sh" "$variant" "$src" || exit 1
mkdir -p "$obj"

jobs=${JOBS:-$(nproc)}
kmake=(make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs"
       KBUILD_BUILD_USER=lsx KBUILD_BUILD_HOST=lsx
       KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026")
if command -v ccache >/dev/null 2>&1 && [ -z "${NO_CCACHE:-}" ]; then
	export CCACHE_BASEDIR="$BUILD/kernel" CCACHE_NOHASHDIR=1
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	kmake+=(CC="ccache gcc" HOSTCC="ccache gcc")
fi

# Configuration: allnoconfig, the fragments, olddefconfig.  Written to a
# scratch file first so that an unchanged config keeps its mtime.
log "kernel $variant/$flavour: configuring"
cfg="$obj/lsx-config"
rm -rf "$cfg" && mkdir -p "$cfg"
"${kmake[@]}" -s O="$cfg" allnoconfig >"$cfg.log" 2>&1 ||
	die "allnoconfig failed (see $cfg.log)"
(cd "$cfg" && "$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" .config \
	"$TOP/config/base.config" "$TOP/config/devices.config" "${frags[@]}") >>"$cfg.log" 2>&1 ||
	die "merging config fragments failed (see $cfg.log)"
"${kmake[@]}" -s O="$cfg" olddefconfig >>"$cfg.log" 2>&1 ||
	die "olddefconfig failed (see $cfg.log)"

# Every option the fragments ask for must be in the final config.
missing=$(cat "$TOP/config/base.config" "$TOP/config/devices.config" "${frags[@]}" | awk -v cfg="$cfg/.config" '
	BEGIN { while ((getline l < cfg) > 0) have[l] = 1 }
	/^CONFIG_/ { if (!($0 in have)) print $0; next }
	/^# CONFIG_.* is not set/ {
		o = $2
		for (l in have) if (index(l, o "=") == 1) { print $0; break }
	}')
if [ -n "$missing" ]; then
	die "$variant/$flavour config lacks: $(echo $missing) (an option vanished or a dependency is missing)"
fi
if ! cmp -s "$cfg/.config" "$obj/.config"; then
	cp "$cfg/.config" "$obj/.config"
fi
rm -rf "$cfg" "$cfg.log"

log "kernel $variant/$flavour: building in $obj (log: $obj/build.log)"
start=$(date +%s)
"${kmake[@]}" olddefconfig >"$obj/build.log" 2>&1 || die "olddefconfig failed (see $obj/build.log)"
"${kmake[@]}" bzImage >>"$obj/build.log" 2>&1 &
pid=$!
# Show that a long build is alive: a line every 30 s with what it is doing.
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 30); do
		sleep 1
		kill -0 "$pid" 2>/dev/null || break
	done
	kill -0 "$pid" 2>/dev/null || break
	n=$(grep -c '^  [A-Z]' "$obj/build.log")
	last=$(grep '^  [A-Z]' "$obj/build.log" | tail -1 | awk '{print $2}')
	log "kernel $variant/$flavour: $n steps, now at ${last:-...}"
done
wait "$pid"
rc=$?
if [ $rc -ne 0 ]; then
	grep -E 'error|Error' "$obj/build.log" | head -20 >&2
	die "kernel $variant/$flavour failed to build (full log: $obj/build.log)"
fi
grep -E '^[^ ].*warning:' "$obj/build.log" >"$obj/warnings.log"
log "kernel $variant/$flavour: built in $(( $(date +%s) - start )) s: $obj/arch/x86/boot/bzImage"
