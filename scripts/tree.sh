#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prepare a kernel source tree: the cached base plus a set of patches,
# applied as commits with 'git am'.
#   tree.sh VARIANT DIR     VARIANT is 'patched' (the whole series),
#                           'baseline' (test-only patches) or 'base'.
# Files the patches do not touch keep their mtimes across calls, so
# that an out-of-tree build over DIR stays incremental.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: tree.sh VARIANT DIR}
dir=${2:?usage: tree.sh VARIANT DIR}

case $variant in
patched) list=$("$TOP/scripts/series.sh" all) || exit 1 ;;
baseline) list=$("$TOP/scripts/series.sh" baseline) || exit 1 ;;
base) list= ;;
*) die "unknown variant '$variant'" ;;
esac

repo=$("$TOP/scripts/base-tree.sh") || exit 1
base=$(git -C "$repo" rev-parse refs/heads/base) || die "no base commit in $repo"

files=()
for p in $list; do
	[ -f "$TOP/patches/$p" ] || die "patches/series names $p, which does not exist"
	files+=("$TOP/patches/$p")
done

# The stamp says which base and which patch contents the tree holds.
stamp=$( { echo "$base"; for f in "${files[@]}"; do sha1sum "$f" | cut -d' ' -f1; done; } |
	sha1sum | cut -d' ' -f1)
if [ -f "$dir/.git/lsx-stamp" ] && [ "$(cat "$dir/.git/lsx-stamp")" = "$stamp" ]; then
	exit 0
fi

if [ ! -d "$dir/.git" ]; then
	log "tree: checking out the base into $dir"
	mkdir -p "$(dirname "$dir")"
	rm -rf "$dir"
	git clone -q --shared --no-checkout "$repo" "$dir" || die "cannot clone $repo"
	git -C "$dir" checkout -q --detach "$base" || die "cannot check out the base in $dir"
else
	git -C "$dir" am --abort >/dev/null 2>&1
	# Only the files that differ from the base are rewritten.
	git -C "$dir" checkout -q -f --detach "$base" 2>/dev/null ||
		die "$dir: cannot return to the base commit (remove the directory)"
	git -C "$dir" clean -q -fdx
fi
rm -f "$dir/.git/lsx-stamp"
git -C "$dir" config user.name "lsx harness"
git -C "$dir" config user.email "lsx@invalid"

if [ ${#files[@]} -gt 0 ]; then
	log "tree: applying ${#files[@]} patch(es) for '$variant'"
	if ! git -C "$dir" am -q --committer-date-is-author-date "${files[@]}" >"$dir/.git/lsx-am.log" 2>&1; then
		bad=$(sed -n 's/^Patch failed at [0-9]* //p' "$dir/.git/lsx-am.log" | head -1)
		git -C "$dir" am --abort >/dev/null 2>&1
		die "patch does not apply to the base: ${bad:-see $dir/.git/lsx-am.log}"
	fi
fi
echo "$stamp" >"$dir/.git/lsx-stamp"
