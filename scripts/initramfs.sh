#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a gzip'ed initramfs for the VM runner.
#   initramfs.sh test VARIANT OUT   busybox, helpers, benchmarks and the
#                                   series' kselftests from VARIANT's tree
#   initramfs.sh bench OUT          busybox, helpers and benchmarks only;
#                                   the same image serves both kernels
. "$(dirname "$0")/lib.sh"

kind=${1:?usage: initramfs.sh test VARIANT OUT | bench OUT}
if [ "$kind" = test ]; then
	variant=${2:?variant}; out=${3:?output}
else
	variant=; out=${2:?output}
fi
need_cmd gcc gzip rsync
out=$(realpath -m "$out")
bb=/bin/busybox
[ -x "$bb" ] || die "static busybox missing: install busybox-static (make deps)"

stage="$out.d"
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,root,etc,lsx/bin,lsx/bench}
cp "$bb" "$stage/bin/busybox"
for a in $("$bb" --list-full); do
	[ -e "$stage/$a" ] || ln -s /bin/busybox "$stage/$a"
done
cp "$TOP/guest/init" "$stage/init"
cp "$TOP/guest/run-tests" "$TOP/guest/kselftests" "$TOP/guest/real-sleep" "$stage/lsx/"
rm -f "$stage/usr/bin/timeout"
cp "$TOP/guest/timeout" "$stage/usr/bin/timeout"
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"

# Guest helpers: every guest/src/*.c, statically linked.
for c in "$TOP"/guest/src/*.c; do
	gcc -static -O2 -Wall -o "$stage/lsx/bin/$(basename "$c" .c)" "$c" ||
		die "cannot build guest helper $c"
done
# Benchmarks: bench/NAME/guest.sh and its *.sh and *.awk, plus
# bench/NAME/*.c, statically linked.
for b in "$TOP"/bench/*/; do
	[ -f "$b/guest.sh" ] || continue
	n=$(basename "$b")
	mkdir -p "$stage/lsx/bench/$n"
	cp "$b"/*.sh "$stage/lsx/bench/$n/"
	for f in "$b"/*.awk; do
		[ -f "$f" ] && cp "$f" "$stage/lsx/bench/$n/"
	done
	for c in "$b"/*.c; do
		[ -f "$c" ] || continue
		gcc -static -O2 -Wall -o "$stage/lsx/bench/$n/$(basename "$c" .c)" "$c" ||
			die "cannot build benchmark helper $c"
	done
done

if [ "$kind" = test ]; then
	src="$BUILD/kernel/$variant/src"
	obj="$BUILD/kernel/$variant/obj-test"
	[ -d "$src" ] || die "no $variant tree (build the kernel first)"
	targets=$(grep -v '^#' "$TOP/guest/kselftests" | cut -d: -f1 | sort -u | tr '\n' ' ')
	log "initramfs: kselftests ($targets) from the $variant tree"
	make -s -C "$src" O="$obj" ARCH=x86_64 headers >"$out.ksft.log" 2>&1 ||
		die "make headers failed (see $out.ksft.log)"
	make -C "$src/tools/testing/selftests" O="$obj" TARGETS="$targets" \
		USERLDFLAGS=-static INSTALL_PATH="$stage/kselftest" \
		-j"$(nproc)" install >>"$out.ksft.log" 2>&1 ||
		die "building kselftests ($targets) failed (see $out.ksft.log)"
	for t in $(grep -v '^#' "$TOP/guest/kselftests"); do
		[ -e "$stage/kselftest/${t%%:*}/${t#*:}" ] ||
			die "kselftest $t was not built (see $out.ksft.log)"
	done
fi

# A developer's extra files, for trying things by hand:
#   LSX_EXTRA=DIR scripts/initramfs.sh ...; then lsx.mode=cmd lsx.cmd=/extra/prog
if [ -n "${LSX_EXTRA:-}" ]; then
	mkdir -p "$stage/extra"
	cp -a "$LSX_EXTRA"/. "$stage/extra/" || die "cannot copy $LSX_EXTRA"
fi

# gen_init_cpio from the base tree lets us add /dev/console without root.
gic="$BUILD/tools/gen_init_cpio"
if [ ! -x "$gic" ]; then
	repo=$("$TOP/scripts/base-tree.sh") || exit 1
	mkdir -p "$(dirname "$gic")"
	git -C "$repo" show refs/heads/base:usr/gen_init_cpio.c >"$gic.c" &&
		gcc -O2 -o "$gic" "$gic.c" || die "cannot build gen_init_cpio"
fi
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	(cd "$stage" && find . -mindepth 1 | sort | while read -r p; do
		p=${p#./}
		if [ -L "$p" ]; then
			echo "slink /$p $(readlink "$p") 0777 0 0"
		elif [ -d "$p" ]; then
			echo "dir /$p $(stat -c %a "$p") 0 0"
		else
			echo "file /$p $stage/$p $(stat -c %a "$p") 0 0"
		fi
	done)
} >"$out.list"
"$gic" "$out.list" | gzip -1 >"$out.tmp" || die "cannot pack $out"
mv "$out.tmp" "$out"
