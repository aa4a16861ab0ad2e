#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn Debian's linux-source-6.12 tarball into a git repository with one
# deterministic baseline commit, cached outside the clone and keyed by
# the tarball's sha256.  Prints the repository path on stdout.
. "$(dirname "$0")/lib.sh"

[ -r "$BASE_TARBALL" ] || die "$BASE_TARBALL missing: install $BASE_PKG (make deps)"
need_cmd git tar xz

ver=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || echo unknown)
stamp="$CACHE/tarball.stamp"
# Hashing 150 MB costs a second or two; skip it when the tarball's size
# and mtime are the ones we hashed last time.
key="$(stat -c '%s %Y' "$BASE_TARBALL")"
if [ -f "$stamp" ] && [ "$(head -1 "$stamp")" = "$key" ]; then
	sha=$(sed -n 2p "$stamp")
else
	sha=$(sha256sum "$BASE_TARBALL" | cut -d' ' -f1)
	mkdir -p "$CACHE"
	printf '%s\n%s\n' "$key" "$sha" >"$stamp"
fi

if [ "$sha" != "$BASE_SHA256" ] || [ "$ver" != "$BASE_VERSION" ]; then
	printf 'warning: %s is %s (sha256 %s); the series was written against %s (sha256 %s).\n' \
		"$BASE_PKG" "$ver" "$sha" "$BASE_VERSION" "$BASE_SHA256" >&2
	printf 'warning: continuing only if every patch applies with zero fuzz.\n' >&2
fi

repo="$CACHE/base-${sha:0:16}"
if [ -f "$repo/.lsx-done" ]; then
	echo "$repo"
	exit 0
fi

log "base: extracting $BASE_TARBALL ($ver) into $repo"
rm -rf "$repo" "$repo.tmp"
mkdir -p "$repo.tmp"
tar -xJf "$BASE_TARBALL" -C "$repo.tmp" --strip-components=1 ||
	die "cannot extract $BASE_TARBALL"
log "base: creating the baseline commit"
(
	cd "$repo.tmp" &&
	git init -q -b base &&
	git config core.autocrlf false &&
	git config gc.auto 0 &&
	# Everything in the tarball, including files the kernel's own
	# .gitignore would hide, so that the commit is the tarball.
	git add -A -f . &&
	GIT_AUTHOR_NAME="Debian $BASE_PKG" GIT_AUTHOR_EMAIL="nobody@invalid" \
	GIT_COMMITTER_NAME="Debian $BASE_PKG" GIT_COMMITTER_EMAIL="nobody@invalid" \
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git commit -q --no-gpg-sign -m "Linux $ver ($BASE_PKG)" \
		-m "Unpacked from $(basename "$BASE_TARBALL"), sha256 $sha."
) || die "cannot create the baseline git repository in $repo.tmp"
mv "$repo.tmp" "$repo"
touch "$repo/.lsx-done"
log "base: $(git -C "$repo" rev-parse HEAD) cached in $repo"
echo "$repo"
