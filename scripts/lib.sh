# SPDX-License-Identifier: GPL-2.0
# Common helpers for the harness scripts.  Sourced, not executed.

set -o pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CACHE=${LSX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/linux-6.12-series}

# The base this series is written against.  The harness refuses a
# different linux-source-6.12 unless the whole series applies to it
# with zero fuzz.
BASE_PKG=linux-source-6.12
BASE_VERSION=6.12.118-1~deb12u1
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
BASE_SHA256=c93391b6a4884e6428ffbfbb8ce6340229ad28dc421e9f19bc081740b1ab34b2

_t0=${LSX_T0:-$(date +%s)}
export LSX_T0=$_t0

elapsed() {
	local s=$(( $(date +%s) - LSX_T0 ))
	printf '%02d:%02d' $((s / 60)) $((s % 60))
}

log() { printf '[%s] %s\n' "$(elapsed)" "$*" >&2; }

# One line, non-zero exit: the contract for every error the harness reports.
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# need_space DIR MIB WHAT: stop early, and say so, when the filesystem of
# DIR has less than MIB MiB free for WHAT, instead of failing half-way
# through a checkout or a build.  LSX_FREE_MB stands in for the free
# space (the harness's tests).
need_space() {
	local dir=$1 mib=$2 what=$3 free
	while [ ! -d "$dir" ]; do dir=$(dirname "$dir"); done
	free=${LSX_FREE_MB:-$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')}
	[ "$free" -ge "$mib" ] ||
		die "$what needs about $mib MiB free on the filesystem of $dir, which has $free MiB"
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "command '$c' not found; run 'make deps' (or install it with apt-get)"
	done
}

# Debian's python3 has the Debian modules (matplotlib, ply, git) that
# deps.sh installs; a python3 earlier on PATH (pyenv, venv) may not.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# scratch_tree DIR REPO BASE: a shared clone of REPO at DIR, reset to BASE
# with nothing else in it (an unfinished 'git am' and quilt state dropped).
# Only the files that differ from BASE are rewritten.
scratch_tree() {
	local dir=$1 repo=$2 base=$3
	if [ ! -d "$dir/.git" ]; then
		rm -rf "$dir"
		mkdir -p "$(dirname "$dir")"
		git clone -q --shared --no-checkout "$repo" "$dir" || die "cannot clone $repo"
		git -C "$dir" config user.name "lsx harness"
		git -C "$dir" config user.email "lsx@invalid"
	fi
	git -C "$dir" am --abort >/dev/null 2>&1
	# An am killed before it recorded what it applies leaves a directory
	# that --abort does not take away, and the next am refuses to start.
	rm -rf "$dir/.git/rebase-apply" "$dir/.pc"
	git -C "$dir" checkout -q -f --detach "$base" && git -C "$dir" clean -q -fdx ||
		die "cannot reset $dir (remove it)"
}

# kbuild_builds SRC OBJ FILE.c: does the configuration in OBJ/.config
# build FILE.o, by the Makefile of its directory (obj-y, or
# obj-$(CONFIG_X) with X set)?  A .c file that another one includes has
# no such line and is not built on its own.  Objects listed through
# other variables (mm's mmu-y) are not seen: build such directories whole.
kbuild_builds() {
	local mf="$1/$(dirname "$3")/Makefile" o
	o=$(basename "${3%.c}").o
	[ -f "$mf" ] || return 1
	awk -v o="$o" -v cfg="$2/.config" '
		BEGIN { while ((getline l < cfg) > 0) if (l ~ /=[ym]$/) { sub(/=.*/, "", l); on[l] = 1 } }
		/\\$/ { sub(/\\$/, ""); acc = acc $0 " "; next }
		{ line = acc $0; acc = "" }
		{
			n = split(line, w, /[ \t]+/)
			has = 0
			for (i = 1; i <= n; i++) if (w[i] == o) has = 1
			if (!has) next
			if (line ~ /^[ \t]*obj-y[ \t]*[:+]?=/) found = 1
			if (match(line, /^[ \t]*obj-\$\(CONFIG_[A-Za-z0-9_]+\)/)) {
				c = substr(line, RSTART, RLENGTH); sub(/.*\$\(/, "", c); sub(/\)$/, "", c)
				if (c in on) found = 1
			}
		}
		END { exit !found }' "$mf"
}
