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
log "tree: $dir, branch 'series', ${#all[@]} commit(s) over 'base'"
