#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# select-tests.sh LIST WORD...: the lines of LIST (guest/kselftests, one
# "collection:program" a line) that a WORD names, as a collection, a
# program or the whole "collection:program"; words may also be separated
# by commas.  Exits 1, printing nothing, if a word names no line.
list=${1:?usage: select-tests.sh LIST WORD...}
shift
words=$(echo "$*" | tr , ' ')
[ -n "${words// /}" ] || { echo "select-tests.sh: no test named" >&2; exit 1; }
lines=$(grep -v '^#' "$list" | grep -v '^[[:space:]]*$')
out=
for w in $words; do
	found=
	for t in $lines; do
		if [ "$w" = "$t" ] || [ "$w" = "${t%%:*}" ] || [ "$w" = "${t#*:}" ]; then
			found=1
			case " $out " in *" $t "*) ;; *) out="$out $t" ;; esac
		fi
	done
	[ -n "$found" ] || { echo "select-tests.sh: '$w' is no kselftest of $list" >&2; exit 1; }
done
# in the order of LIST
for t in $lines; do
	case " $out " in *" $t "*) echo "$t" ;; esac
done
