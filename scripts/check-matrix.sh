#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-matrix: build what the series touches for several
# architectures and configurations, at every boundary a topic ends on
# (each topic alone on the base, and the whole series), and compare the
# W=1 warnings in the files the series touches with the base built the
# same way.  An error, or a warning the base does not have, fails.
#
#   MATRIX_TARGETS="x86_64 arm64 ..."   targets to build (default: all)
#   MATRIX_STATES="freezer series ..."  states besides the base (default:
#                                       every topic alone, then series)
#
# A target is an architecture and a configuration:
#   defconfig[:OPT=v,...]  the architecture's defconfig, config/matrix.config
#                          (the options of every topic and test), then OPTs
#   test:OPT=v,...         the test kernel's configuration, then OPTs
#   debian:NAME            Debian's config.NAME from linux-config-6.12
# and a scope: 'dirs' (the directories and objects the series touches)
# or 'full' (vmlinux and modules, with modpost).
# Objects go to build/matrix/obj-TARGET; one source tree is checked out
# from state to state, so that each build only recompiles what changed.
. "$(dirname "$0")/lib.sh"

export LC_ALL=C
need_cmd git make gcc flex bison bc perl xz

#            name                arch     cross                   config                                   scope
all_targets="x86_64              x86_64   -                       defconfig                                dirs
x86_64-swap-n                    x86_64   -                       defconfig:SWAP=n                         dirs
x86_64-pm-sleep-n                x86_64   -                       defconfig:SUSPEND=n,HIBERNATION=n,PM_SLEEP=n dirs
x86_64-hibernation-n             x86_64   -                       defconfig:HIBERNATION=n                  dirs
x86_64-memcg-n                   x86_64   -                       defconfig:MEMCG=n                        dirs
x86_64-cgroups-n                 x86_64   -                       defconfig:CGROUPS=n                      dirs
x86_64-debugfs-n                 x86_64   -                       defconfig:DEBUG_FS=n,BLK_DEV_IO_TRACE=n  dirs
x86_64-tests-m                   x86_64   -                       test:MODULES=y,KUNIT=m,FREEZER_KUNIT_TEST=m,SWAP_EXIT_KUNIT_TEST=m,TEST_DPM_TREE=m,TEST_FREEZER=m full
debian-amd64                     x86_64   -                       debian:amd64_none_amd64                  dirs
debian-rt-amd64                  x86_64   -                       debian:amd64_rt_amd64                    dirs
i386                             i386     -                       defconfig                                dirs
arm64                            arm64    aarch64-linux-gnu-      defconfig                                dirs
arm                              arm      arm-linux-gnueabihf-    defconfig                                dirs
riscv64                          riscv    riscv64-linux-gnu-      defconfig                                dirs
powerpc64le                      powerpc  powerpc64le-linux-gnu-  ppc64le_defconfig                        dirs
s390                             s390     s390x-linux-gnu-        defconfig                                dirs"

# Directories built whole for scope 'dirs'; touched C files elsewhere
# are built as single objects when the configuration enables them.
DIRS="drivers/base/ kernel/cgroup/ kernel/power/ mm/"

out="$BUILD/matrix"
src="$out/src"
mkdir -p "$out"
repo=$("$TOP/scripts/base-tree.sh") || exit 1
base=$(git -C "$repo" rev-parse refs/heads/base)

# The states: the base, each topic alone, the whole series, as commits
# made in a scratch clone and fetched into the one source tree.
mapfile -t topics < <("$TOP/scripts/series.sh" topics)
states=${MATRIX_STATES:-"${topics[*]} series"}
scratch="$out/.am"
[ -d "$src/.git" ] || git clone -q --shared --no-checkout "$repo" "$src" || die "cannot clone $repo"
git -C "$src" update-ref refs/matrix/base "$base"
for s in $states; do
	if [ "$s" = series ]; then
		mapfile -t ps < <("$TOP/scripts/series.sh" all)
	else
		mapfile -t ps < <("$TOP/scripts/series.sh" topic "$s")
	fi
	[ ${#ps[@]} -gt 0 ] || die "no patches for state '$s' (a topic name or 'series')"
	scratch_tree "$scratch" "$repo" "$base"
	git -C "$scratch" am -q --committer-date-is-author-date "${ps[@]/#/$TOP/patches/}" \
		>"$scratch.log" 2>&1 || die "state '$s': the patches do not apply (see $scratch.log)"
	git -C "$src" fetch -q "$scratch" HEAD && git -C "$src" update-ref "refs/matrix/$s" FETCH_HEAD ||
		die "cannot fetch state '$s'"
done
# Every file the whole series touches: warnings are compared in these.
mapfile -t touched < <(git -C "$src" diff --name-only refs/matrix/base refs/matrix/series -- '*.c' '*.h' |
	grep -v '^tools/')
touched_c=()
for f in "${touched[@]}"; do
	case $f in *.c) touched_c+=("$f") ;; esac
done

checkout() {	# checkout STATE: only the files that differ are rewritten
	git -C "$src" checkout -q -f --detach "refs/matrix/$1" && git -C "$src" clean -q -fdx ||
		die "cannot check out state '$1' in $src"
}

# findings LOG: the warnings in the series' files, one "path: message" a
# line without line numbers, and every modpost warning; sorted.
findings() {
	sed -E "s|$src/||g; s|\x1b\[[0-9;]*m||g" "$1" |
		awk -v list="${touched[*]}" '
			BEGIN { n = split(list, t, " "); for (i = 1; i <= n; i++) want[t[i]] = 1 }
			/^WARNING: modpost: / { print; next }
			match($0, /^[^ :]+:[0-9]+(:[0-9]+)?: warning: /) {
				p = $0; sub(/:.*/, "", p)
				if (!(p in want)) next
				msg = substr($0, RLENGTH + 1)
				print p ": warning: " msg
			}' | sort -u
}
errors() {	# errors LOG
	sed -E "s|$src/||g" "$1" | grep -E ': (fatal )?error: |^ERROR: |Error [0-9]+$|No rule to make target' | head -5
}

# configure TARGET-CONFIG OBJ: write OBJ/.config (only if it changes)
configure() {
	local spec=$1 obj=$2 cfg="$2/lsx-config" kind opts o
	kind=${spec%%:*}
	opts=; [ "$kind" = "$spec" ] || opts=${spec#*:}
	rm -rf "$cfg" && mkdir -p "$cfg"
	case $kind in
	debian:*|debian)
		xz -dc "/usr/src/linux-config-6.12/config.${spec#debian:}.xz" >"$cfg/.config" ||
			die "no Debian config ${spec#debian:} (apt-get install linux-config-6.12)"
		# Debian's signing keys are not here; build without them.
		"$src/scripts/config" --file "$cfg/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY "certs/signing_key.pem"
		;;
	test)
		"${kmake[@]}" -s O="$cfg" allnoconfig >"$cfg.log" 2>&1 || return 1
		(cd "$cfg" && "$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" .config \
			"$TOP/config/base.config" "$TOP/config/test.config") >>"$cfg.log" 2>&1 || return 1
		;;
	*defconfig)
		"${kmake[@]}" -s O="$cfg" "$kind" >"$cfg.log" 2>&1 || return 1
		(cd "$cfg" && "$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" .config \
			"$TOP/config/matrix.config") >>"$cfg.log" 2>&1 || return 1
		;;
	*) die "unknown configuration '$spec'" ;;
	esac
	for o in ${opts//,/ }; do
		case ${o#*=} in
		n) "$src/scripts/config" --file "$cfg/.config" --disable "${o%%=*}" ;;
		m) "$src/scripts/config" --file "$cfg/.config" --module "${o%%=*}" ;;
		*) "$src/scripts/config" --file "$cfg/.config" --enable "${o%%=*}" ;;
		esac
	done
	"${kmake[@]}" -s O="$cfg" olddefconfig >>"$cfg.log" 2>&1 || return 1
	cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"
}

# wanted SPEC OBJ: the OPT=v of SPEC that olddefconfig dropped (an
# option the series adds is only checked where the state has it).
wanted() {
	local spec=$1 obj=$2 o name v miss=
	[ "${spec%%:*}" = "$spec" ] && return 0
	for o in $(echo "${spec#*:}" | tr , ' '); do
		name=CONFIG_${o%%=*}; v=${o#*=}
		grep -q "^config ${o%%=*}\$" -r "$src" --include='Kconfig*' || continue
		case $v in
		n) grep -q "^$name=" "$obj/.config" && miss+=" $o" ;;
		*) grep -q "^$name=$v\$" "$obj/.config" || miss+=" $o" ;;
		esac
	done
	echo "$miss"
}

report="$out/report.txt"
: >"$report"
say() { echo "$*" | tee -a "$report"; }
fail=0
t_all=$(date +%s)
export CCACHE_BASEDIR="$out" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
while read -r name arch cross spec scope; do
	[ -n "$name" ] || continue
	if [ -n "${MATRIX_TARGETS:-}" ] && ! [[ " $MATRIX_TARGETS " == *" $name "* ]]; then
		continue
	fi
	[ "$cross" = - ] && cross=
	if [ -n "$cross" ] && ! command -v "${cross}gcc" >/dev/null 2>&1; then
		say "matrix: $name: FAILED: ${cross}gcc not found (make deps-matrix)"
		fail=1
		continue
	fi
	t0=$(date +%s)
	obj="$out/obj-$name"
	mkdir -p "$obj"
	cc="${cross}gcc"
	command -v ccache >/dev/null 2>&1 && cc="ccache $cc"
	kmake=(make -C "$src" O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" CC="$cc"
	       -j"${JOBS:-$(nproc)}" KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026")
	target_fail=0
	for s in base $states; do
		log "matrix: $name: $s"
		checkout "$s"
		if ! configure "$spec" "$obj"; then
			say "matrix: $name $s: FAILED: configuration (see $obj/lsx-config.log)"
			target_fail=1
			break
		fi
		miss=$(wanted "$spec" "$obj")
		if [ -n "$miss" ]; then
			say "matrix: $name $s: FAILED: olddefconfig did not keep:$miss"
			target_fail=1
			break
		fi
		# The series' C files are compiled in every state, so that their
		# warnings are seen whether or not the state changed them.
		for f in "${touched_c[@]}"; do
			rm -f "$obj/${f%.c}.o"
		done
		if [ "$scope" = full ]; then
			goals=(all)
		else
			goals=($DIRS)
			for f in "${touched_c[@]}"; do
				case $f in drivers/base/*|kernel/cgroup/*|kernel/power/*|mm/*) continue ;; esac
				[ -f "$src/$f" ] && kbuild_builds "$src" "$obj" "$f" && goals+=("${f%.c}.o")
			done
		fi
		blog="$obj/build-$s.log"
		"${kmake[@]}" -k W=1 "${goals[@]}" >"$blog" 2>&1
		rc=$?
		findings "$blog" >"$obj/warnings-$s.txt"
		if [ $rc != 0 ]; then
			say "matrix: $name $s: BUILD FAILED (see $blog):"
			errors "$blog" | sed 's/^/  /' | tee -a "$report"
			target_fail=1
			[ "$s" = base ] && break
			continue
		fi
		if [ "$s" = base ]; then
			say "matrix: $name base: builds, $(wc -l <"$obj/warnings-$s.txt") W=1 warning(s) in the series' files"
			continue
		fi
		comm -23 "$obj/warnings-$s.txt" "$obj/warnings-base.txt" >"$obj/new-$s.txt"
		off=
		[ "$scope" = full ] || off=$(grep -E '^# CONFIG_(FREEZER_KUNIT_TEST|CGROUP_FREEZER_KUNIT_TEST|SWAP_EXIT_KUNIT_TEST|PM_SLEEP_ASYNC_KUNIT_TEST|TEST_DPM_TREE|TEST_FREEZER_CHECK|TEST_FREEZER|FAIL_DPM_ASYNC) is not set' \
			"$obj/.config" | awk '{ print $2 }' | sed 's/^CONFIG_//' | paste -sd, -)
		if [ -s "$obj/new-$s.txt" ]; then
			say "matrix: $name $s: builds, NEW W=1 warning(s) against the base:"
			sed 's/^/  /' "$obj/new-$s.txt" | tee -a "$report"
			target_fail=1
		else
			say "matrix: $name $s: builds, no new W=1 warning${off:+ (off here: $off)}"
		fi
	done
	say "matrix: $name: $([ $target_fail = 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - t0 )) s"
	[ $target_fail = 0 ] || fail=1
done <<<"$all_targets"
say "matrix: $(( ($(date +%s) - t_all) / 60 )) min in all"
[ $fail = 0 ] || die "check-matrix: failed (report in $report)"
log "check-matrix: passed"
