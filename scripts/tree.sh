#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prepare a kernel source tree: the cached base plus a set of patches,
# applied as commits with 'git am'.
#   tree.sh VARIANT DIR     VARIANT is 'patched' (the whole series),
#                           'baseline' (test-only patches), 'base', or
#                           'step-TOPIC-K' (test-only patches and the
#                           first K patches of TOPIC, see series.sh step).
# Files the patches do not touch keep their mtimes across calls, so
# that an out-of-tree build over DIR stays incremental.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: tree.sh VARIANT DIR}
dir=${2:?usage: tree.sh VARIANT DIR}

case $variant in
patched) list=$("$TOP/scripts/series.sh" all) || exit 1 ;;
baseline) list=$("$TOP/scripts/series.sh" baseline) || exit 1 ;;
base) list= ;;
step-*-[0-9]*)
	t=${variant#step-}
	list=$("$TOP/scripts/series.sh" step "${t%-*}" "${t##*-}") || exit 1 ;;
*) die "unknown variant '$variant'" ;;
esac

# A kernel checkout takes about 1.7 GiB: the cached base tree, the
# scratch clone and DIR each hold one.
need=0
ls -d "$CACHE"/base-* >/dev/null 2>&1 || need=$((need + 2300))
[ -d "$BUILD/kernel/.am/.git" ] || need=$((need + 1700))
[ -d "$dir/.git" ] || need=$((need + 1700))
[ "$need" = 0 ] || need_space "$BUILD" "$need" "the $variant kernel tree"

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

# The patches are applied in a scratch clone; DIR then checks out the
# result, which rewrites only the files whose content differs from what
# DIR has now.  So a change to a commit message, or to one file, leaves
# every other file's mtime alone and the next build stays incremental.
scratch="$BUILD/kernel/.am"
scratch_tree "$scratch" "$repo" "$base"
if [ ${#files[@]} -gt 0 ]; then
	log "tree: applying ${#files[@]} patch(es) for '$variant'"
	if ! git -C "$scratch" am -q --committer-date-is-author-date "${files[@]}" \
			>"$scratch.log" 2>&1; then
		bad=$(sed -n 's/^Patch failed at [0-9]* //p' "$scratch.log" | head -1)
		git -C "$scratch" am --abort >/dev/null 2>&1
		die "patch does not apply to the base: ${bad:-see $scratch.log}"
	fi
fi
head=$(git -C "$scratch" rev-parse HEAD)

if [ ! -d "$dir/.git" ]; then
	log "tree: checking out $variant into $dir"
	rm -rf "$dir"
	mkdir -p "$(dirname "$dir")"
	git clone -q --shared --no-checkout "$repo" "$dir" || die "cannot clone $repo"
fi
rm -f "$dir/.git/lsx-stamp"
git -C "$dir" fetch -q "$scratch" "$head" || die "cannot fetch the $variant commits into $dir"
git -C "$dir" checkout -q -f --detach "$head" && git -C "$dir" clean -q -fdx ||
	die "$dir: cannot check out the $variant commits (remove the directory)"
# Carry each patch's notes (the "Changes in vN:" text below its '---')
# as a git note, so that 'make export' of this tree writes them again.
i=0
for c in $(git -C "$dir" rev-list --reverse "$base..$head"); do
	note=$(awk '/^---$/ { cut = 1; next }
		cut && /^Notes:$/ { on = 1; next }
		on && /^    / { sub(/^    /, ""); print; next }
		on && /^$/ { print ""; next }
		on { exit }' "${files[$i]}")
	[ -z "$note" ] || git -C "$dir" notes add -f -m "$note" "$c" >/dev/null 2>&1 ||
		die "$dir: cannot attach the notes of ${files[$i]##*/}"
	i=$((i + 1))
done
echo "$stamp" >"$dir/.git/lsx-stamp"
