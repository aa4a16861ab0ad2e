#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make send-ready: one directory per topic, build/send/TOPIC/, ready for
# 'git send-email build/send/TOPIC/*.patch'.  Maintainers take one topic
# per subsystem tree, so each topic is numbered on its own:
#   0000-cover-letter.patch     [PATCH vN 0/m] from patches/topics/TOPIC.txt,
#                               the topic's numbers from the last benchmark
#                               run, its shortlog and diffstat, base-commit
#   0001-...patch .. 000m-...   [PATCH vN k/m] (no vN for N=1, no k/m if m=1)
# From: and Signed-off-by: are the user's git identity (git config
# user.name/user.email); To: (maintainers, reviewers) and Cc: (lists)
# come from the base tree's get_maintainer.pl, run in a scratch tree with
# the topic applied (the patches add MAINTAINERS entries).  The
# harness-only 'checkpatch-ignore:' notes are dropped.  Afterwards every
# topic's patches must 'git am' alone onto the base, and checkpatch
# --strict must find nothing it does not find in patches/.
#
#   send-ready.sh
#
# patches/topics/TOPIC.txt: lines 'Subject: ...', 'Version: N',
# 'Benchmark: NAME [NAME...]' (or 'none'), a blank line, the body.  At
# version 2 and later every patch of the topic needs a 'Changes in vN:'
# paragraph below its '---' line (a git note in the work tree).
# Environment: LSX_PATCHES (default patches/), LSX_RESULTS (default
# build/bench/run.json), LSX_SEND_OUT (default build/send),
# LSX_SEND_CHECKPATCH=0 skips the checkpatch comparison.
. "$(dirname "$0")/lib.sh"

need_cmd git perl flock
PATCHES=$(realpath -m "${LSX_PATCHES:-$TOP/patches}")
RESULTS=$(realpath -m "${LSX_RESULTS:-$BUILD/bench/run.json}")
OUT=$(realpath -m "${LSX_SEND_OUT:-$BUILD/send}")
work="$BUILD/send-ready"
export SERIES="$PATCHES/series"

# Old output goes first, so that a refused run leaves nothing stale to send.
if [ -e "$OUT" ]; then
	[ -d "$OUT" ] &&
		[ -z "$(find "$OUT" -mindepth 1 ! -path "$OUT/*/*" ! -type d -print -quit)" ] &&
		[ -z "$(find "$OUT" -mindepth 2 ! -name '*.patch' -print -quit)" ] ||
		die "$OUT does not look like send-ready output (only TOPIC/*.patch); not removing it"
	rm -rf "$OUT"
fi

name=$(git -C "$TOP" config user.name)
email=$(git -C "$TOP" config user.email)
[ -n "$name" ] && [ -n "$email" ] ||
	die "no git identity to send as: git config user.name 'Your Name'; git config user.email you@example.org"
case ${email,,} in
*@invalid)
	die "git user.email is $email, a placeholder: git config user.email you@example.org" ;;
esac
[ -f "$SERIES" ] || die "$SERIES missing"

mkdir -p "$work"
exec 9>"$work/lock"
flock -n 9 || { log "send-ready: waiting for another send-ready run"; flock 9; }

repo=$("$TOP/scripts/base-tree.sh") || exit 1
base=$(git -C "$repo" rev-parse refs/heads/base) || die "no base commit in $repo"

mapfile -t topics < <("$TOP/scripts/series.sh" topics)
[ ${#topics[@]} -gt 0 ] || die "$SERIES has no '# Topic: NAME' line"
for topic in "${topics[@]}"; do
	printf '%s\t%s\n' "$topic" "$("$TOP/scripts/series.sh" topic "$topic" | paste -sd' ')"
done >"$work/topics"

"$PY" "$TOP/scripts/send-ready.py" prepare --patches "$PATCHES" --topics "$work/topics" \
	--results "$RESULTS" --out "$OUT" --work "$work" --name "$name" --email "$email" || exit 1

t="$work/tree"
reset_tree() { scratch_tree "$t" "$repo" "$base"; }
am() {	# am PATCH...: the patches onto the base in the scratch tree
	reset_tree
	git -C "$t" am -q --committer-date-is-author-date "$@" >"$t.log" 2>&1 && return 0
	sed -n 's/^Patch failed at [0-9]* //p; /^error:/p' "$t.log" | head -1
	git -C "$t" am --abort >/dev/null 2>&1
	return 1
}
sent() { ls "$OUT/$1"/[0-9][0-9][0-9][0-9]-*.patch | grep -v '/0000-cover-letter\.patch$'; }
# get_maintainer.pl and checkpatch.pl take seconds a patch: run them
# side by side, one per CPU; each job leaves its exit status in FILE.rc.
ncpu=$(nproc)
bg() {	# bg OUTFILE CMD...
	local o=$1; shift
	while [ "$(jobs -rp | wc -l)" -ge "$ncpu" ]; do wait -n; done
	( "$@" >"$o" 2>&1; echo $? >"$o.rc" ) &
	last_job=$!
}
# get_maintainer.pl lists people with equal claims in Perl's hash order,
# which is random unless the seed is fixed.  --no-fixes: the commits that
# a Fixes: tag names are upstream history, which the base tarball has
# not (their authors are to be added by hand, see the cover letter).
get_maintainer() {
	cd "$t" && PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 \
		perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-fixes \
		--rolestats "$1"
}
checkpatch() {	# checkpatch IGNORE FILE: as make check runs it, from the base tree
	cd "$repo" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --no-summary --terse \
		--show-types ${1:+--ignore "$1"} "$2"
}
ignores() { sed -n 's/^ *checkpatch-ignore: \([A-Z_,]*\):.*/\1/p' "$1" | paste -sd,; }

fail=0
summary=()
cp_todo=()
for topic in "${topics[@]}"; do
	d="$OUT/$topic" w="$work/$topic"
	mapfile -t files < <(sent "$topic")
	# The topic applied, for get_maintainer.pl (MAINTAINERS as the topic leaves it),
	# the shortlog (with the new author) and the diffstat.
	if ! why=$(am "${files[@]}"); then
		echo "send-ready: $topic: FAILED: the patches do not apply to the base: $why"
		fail=1
		continue
	fi
	tree=$(git -C "$t" rev-parse 'HEAD^{tree}')
	gm_jobs=()
	for f in "${files[@]}"; do
		bg "$w/gm/$(basename "$f")" get_maintainer "$f"
		gm_jobs+=("$last_job")
	done
	git -C "$t" shortlog -w72,2,4 "$base..HEAD" >"$w/shortlog" &&
		git -C "$t" diff --stat=72 --summary "$base..HEAD" >"$w/diffstat" ||
		die "git shortlog/diff failed in $t"
	wait "${gm_jobs[@]}"
	for f in "${files[@]}"; do
		g="$w/gm/$(basename "$f")"
		[ "$(cat "$g.rc")" = 0 ] || die "get_maintainer.pl failed on $f: $(head -1 "$g")"
	done
	counts=$("$PY" "$TOP/scripts/send-ready.py" finish --out "$OUT" --work "$work" \
		--base "$base" "$topic") || exit 1
	read -r m nto ncc <<<"$counts"
	ver=$(sed -n 's/^Version:[ \t]*//p' "$PATCHES/topics/$topic.txt" | head -1)
	if [ "${LSX_SEND_CHECKPATCH:-1}" != 0 ]; then
		mkdir -p "$w/cp"
		while IFS=$'\t' read -r orig new; do
			bg "$w/cp/$(basename "$new")" checkpatch "$(ignores "$orig")" "$new"
			cp_todo+=("$topic	$orig	$new")
		done <"$w/map"
	fi

	# The check: what is written applies alone to the base, and to the same tree.
	if ! why=$(am "${files[@]}"); then
		echo "send-ready: $topic: FAILED: git am of $d onto the base: $why"
		fail=1
		continue
	fi
	if [ "$(git -C "$t" rev-parse 'HEAD^{tree}')" != "$tree" ]; then
		echo "send-ready: $topic: FAILED: the final patches give another tree than before"
		fail=1
		continue
	fi
	rel=$(realpath -m --relative-base="$TOP" "$d")
	summary+=("send-ready: $topic: $m patch(es), v$ver, To: $nto, Cc: $ncc -> $rel/")
done
wait

# checkpatch --strict: anything it finds in a sent patch it must find in
# the original too (checked only when the sent patch is not clean).
norm() { sed -E 's/^[^:]*:[0-9]+: //' | sort; }
for x in "${cp_todo[@]}"; do
	IFS=$'\t' read -r topic orig new <<<"$x"
	r="$work/$topic/cp/$(basename "$new")"
	[ "$(cat "$r.rc")" = 0 ] && continue
	extra=$(comm -23 <(norm <"$r") <(checkpatch "$(ignores "$orig")" "$orig" 2>&1 | norm))
	if [ -n "$extra" ]; then
		echo "send-ready: $topic: FAILED: checkpatch finds in $(basename "$new")" \
			"what it does not find in $(basename "$orig"):"
		sed 's/^/  /' <<<"$extra"
		fail=1
	fi
done

printf '%s\n' "${summary[@]}"
if [ $fail != 0 ]; then
	echo "send-ready: FAILED (output in $OUT)"
	exit 1
fi
