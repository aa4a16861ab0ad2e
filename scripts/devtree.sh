#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make tree: a kernel work tree for developers, the series applied as
# commits on branch 'series' over branch 'base'.  Never overwrites an
# existing tree: edit and commit there, then 'make export'.
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: devtree.sh DIR}
if [ -e "$dir" ]; then
	die "$dir exists; work in it and run 'make export', or remove it for a fresh tree"
fi
repo=$("$TOP/scripts/base-tree.sh") || exit 1
mapfile -t all < <("$TOP/scripts/series.sh" all)
log "tree: cloning the base into $dir"
git clone -q --shared -b base "$repo" "$dir" || die "cannot clone $repo"
git -C "$dir" checkout -q -b series || exit 1
if [ ${#all[@]} -gt 0 ]; then
	git -C "$dir" am -q --committer-date-is-author-date "${all[@]/#/$TOP/patches/}" ||
		die "the series does not apply (see 'git -C $dir am --show-current-patch')"
fi
# The notes below a patch's '---' line (a documented checkpatch exception,
# "Changes in vN:") live in the work tree as a git note on its commit; make
# export writes them back, and rebase and commit --amend carry them along.
git -C "$dir" config notes.rewriteRef refs/notes/commits
mapfile -t commits < <(git -C "$dir" rev-list --reverse base..HEAD)
for i in "${!all[@]}"; do
	note=$(awk '
		!sep { if ($0 == "---") sep = 1; next }
		!in_notes { if ($0 == "Notes:") in_notes = 1; else if ($0 != "") exit; next }
		/^    / { print substr($0, 5); next }
		/^$/ { print ""; next }
		{ exit }' "$TOP/patches/${all[$i]}")
	[ -z "$note" ] || git -C "$dir" notes add -m "$note" "${commits[$i]}" ||
		die "cannot attach the note of ${all[$i]}"
done
log "tree: $dir, branch 'series', ${#all[@]} commit(s) over 'base'"
