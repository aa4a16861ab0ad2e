#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make export: regenerate patches/ from the work tree's commits base..HEAD.
# Output is deterministic: zeroed commit ids, no git version signature, a
# cover letter built from patches/cover-letter.txt, the shortlog and the
# diffstat.  patches/series keeps its topic headers and test-only marks,
# matched by patch subject; a new patch joins the topic of the one before.
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: export.sh DIR}
[ -d "$dir/.git" ] || die "$dir is not a work tree (make tree)"
base=$(git -C "$dir" rev-parse refs/heads/base) || die "$dir has no 'base' branch"
n=$(git -C "$dir" rev-list --count "$base..HEAD")
pd="$TOP/patches"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$n" -gt 0 ]; then
	git -C "$dir" format-patch -q --notes --zero-commit --no-signature --base="$base" \
		-N --subject-prefix=PATCH --numbered -o "$tmp" "$base..HEAD" >/dev/null ||
		die "git format-patch failed"
fi
# With more than one patch format-patch numbers subjects [PATCH k/n].
strip() { sed 's/^[0-9]*-//; s/\.patch$//' <<<"$1"; }

# Rebuild the series file.
{
	awk '/^#[ \t]*Topic:/ || !/^#/ { exit } { print }' "$pd/series"
	prev_topic=
	for f in "$tmp"/*.patch; do
		[ -f "$f" ] || continue
		name=$(basename "$f")
		key=$(strip "$name")
		old=$(awk -v k="$key" '
			/^#[ \t]*Topic:/ { t = $0; next }
			/^[ \t]*#/ || NF == 0 { next }
			{ n = $1; sub(/^[0-9]*-/, "", n); sub(/\.patch$/, "", n) }
			n == k { print (/#[ \t]*test-only/ ? "1" : "0") "\t" t; exit }' "$pd/series")
		topic=${old#*	}
		[ -n "$old" ] && [ -n "$topic" ] || topic=$prev_topic
		[ -n "$topic" ] || topic="# Topic: unsorted"
		if [ "$topic" != "$prev_topic" ]; then
			printf '\n%s\n' "$topic"
			prev_topic=$topic
		fi
		if [ "${old%%	*}" = 1 ]; then
			printf '%s # test-only\n' "$name"
		else
			printf '%s\n' "$name"
		fi
	done
} >"$tmp/series"

# The cover letter.
{
	cl="$pd/cover-letter.txt"
	[ -f "$cl" ] || die "patches/cover-letter.txt missing"
	last=$(git -C "$dir" log -1 --format=%aD)
	echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
	who=$(git -C "$dir" log -1 --format='%an <%ae>' "$base..HEAD")
	[ -n "$who" ] || who="$(git -C "$dir" config user.name) <$(git -C "$dir" config user.email)>"
	echo "From: $who"
	echo "Date: $last"
	echo "Subject: [PATCH 0/$n] $(head -1 "$cl")"
	echo
	tail -n +3 "$cl"
	echo
	git -C "$dir" shortlog "$base..HEAD"
	git -C "$dir" diff --stat=72 "$base..HEAD"
	echo
	echo "base-commit: $base"
} >"$tmp/0000-cover-letter.patch"

# Replace the patches, only touching files whose content changed.
for f in "$pd"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -f "$f" ] || continue
	[ -f "$tmp/$(basename "$f")" ] || rm -f "$f"
done
for f in "$tmp"/*.patch "$tmp/series"; do
	cmp -s "$f" "$pd/$(basename "$f")" || cp "$f" "$pd/$(basename "$f")"
done
log "export: $n patch(es) in patches/ ($(git -C "$TOP" status --porcelain -- patches | wc -l) file(s) changed)"
