#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs from Debian's archive, when missing.
#   deps.sh           what make, make test and make bench need
#   deps.sh check     also sparse and Coccinelle (make check)
#   deps.sh matrix    also the cross compilers and Debian's kernel
#                     configs (make check-matrix)
#   deps.sh lava      also LAVA's job schemas and dispatcher (make lava-jobs)
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-6.12 qemu-system-x86 busybox-static gcc make libc6-dev
flex bison bc libelf-dev libssl-dev cpio xz-utils ccache quilt git perl
python3 python3-matplotlib python3-ply python3-git python3-pytest kmod rsync
chromium fonts-dejavu-core"
case ${1:-} in
"") ;;
# OCaml: two of the kernel's Coccinelle rules are scripted in it.
check) PKGS="$PKGS sparse coccinelle ocaml-nox" ;;
matrix) PKGS="$PKGS gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-riscv64-linux-gnu
gcc-powerpc64le-linux-gnu gcc-s390x-linux-gnu linux-config-6.12" ;;
lava) PKGS="$PKGS lava-common lava-dispatcher python3-yaml" ;;
*) die "usage: deps.sh [check|matrix|lava]" ;;
esac

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

log "installing:$missing"
if [ "$(id -u)" != 0 ]; then
	die "packages missing:$missing (run 'make deps' as root)"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || die "apt-get update failed"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >"$TOP/.deps.log" 2>&1 ||
	die "apt-get install failed for:$missing (see .deps.log)"
rm -f "$TOP/.deps.log"
