#!/usr/bin/env bash
# The manual as tests: every command block of README.md and docs/*.md runs as
# written, on the machine README targets (2 cores, possibly root).
#   docs.sh SRC BIN TIER [FILE...]
# SRC: the source tree; BIN: the build's bin folder (its parent is the build
# folder; not read by list); TIER: default, full or list; FILE: the markdown files (relative to
# SRC), default README.md docs/*.md.
#
# A command block is a fenced block whose info string is sh (the block runs
# as one bash script under set -e -o pipefail: every command must succeed) or
# console (the lines that start with "$ " run, continued by lines that end in
# a backslash; each must exit 0, the other lines are the output shown and are
# not compared). Other blocks (json, text, a bare fence: synopses, output,
# listings) do not run, and one that starts with "$ " is refused: a
# transcript is a console block. An indented code block (README's tasks) is an
# sh block. An HTML comment at the end of the last non-blank line before a
# block (a line of its own, or the paragraph before it) says how it runs:
#   <!-- docs-test: full: REASON -->        the full tier (label docs)
#   <!-- docs-test: full fresh: REASON -->  the full tier, in a copy without
#                                           a build (the block builds, as on
#                                           a fresh clone)
#   <!-- docs-test: skip: REASON -->        never here (a GPU, two hosts,
#                                           Slurm: the test bed that runs it)
#   <!-- docs-test: exits N: REASON -->     the block exits N, not 0 (a
#                                           verdict shown); after full or
#                                           full fresh too ("full exits 1: ")
# no comment: the default tier, exit 0. REASON is required. A block whose
# commands another block of its tier runs first, as they are written (the
# same, or its start: covers below), does not run again: it is said, with
# the block that runs them, wherever that block is (README.md, docs/*.md).
#
# Each block runs in a scratch copy of the tree: every top-level entry of SRC
# a symbolic link but results/ and plots/ (copied: blocks write there) and
# build (a link to the build folder, or none for "fresh"). As README says,
# as root Open MPI's OMPI_ALLOW_RUN_AS_ROOT and _CONFIRM are set. TIER list
# prints each block, its tier and reason. CB_DOCS_ONLY=REGEX: only the blocks
# whose FILE:LINE matches it (grep -E); CB_DOCS_LIMIT: a block's time limit
# in seconds (default tier 120, full 2400). Exit 0 when every block of TIER
# ran and exited 0; 1 naming each block (FILE:LINE) that failed or a marker
# or fence that is wrong; 2 bad usage.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: docs.sh SRC BIN default|full|list [FILE...]" >&2; exit 2; }
src=$(cd "$1" && pwd) || exit 2
tier=$3
case $tier in
default | full) bin=$(cd "$2" && pwd) || exit 2 ;;
list) bin= ;;
*) echo "docs.sh: TIER: default, full or list" >&2; exit 2 ;;
esac
shift 3
cd "$src" || exit 2
[ $# -gt 0 ] || set -- README.md docs/*.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# extract DIR FILE...: each block into DIR/blocks/N (its text) and a line of
# DIR/index: N, FILE:LINE (of its first line: the opening fence), kind (sh,
# console, or bad), tier (default, full, fresh, skip), reason (or, for bad,
# the problem). An indented code block (4 spaces after a blank line, not in
# a list) is an sh block. The marker: the last non-blank line before the
# block ends with it (a line of its own, or a paragraph's last line).
extract() {
	local d=$1
	shift
	mkdir -p "$d/blocks"
	awk -v dir="$d/blocks" '
	function out(kind, t, why, ex) {
		n++
		printf "%d\t%s:%d\t%s\t%s\t%d\t%s\n", n, FILENAME, FNR, kind, t, ex, why
		body = dir "/" n
		printf "" >body
	}
	# open(INFO): a block starts on this line; sets run
	function open(info,   m, t, why, ex) {
		run = 0; t = "default"; why = ""; ex = 0
		if (match(last, /<!-- docs-test:[^>]*-->[ \t]*$/)) {
			m = substr(last, RSTART + 15, RLENGTH - 15)
			sub(/^ */, "", m); sub(/ *-->[ \t]*$/, "", m)
			if (m !~ /^(full( fresh)?( exits [0-9]+)?|exits [0-9]+|skip): [^ ]/)
				return out("bad", "-", "a marker is <!-- docs-test: [full [fresh]] [exits N] | skip: REASON -->")
			if (info != "sh" && info != "console")
				return out("bad", "-", "a docs-test marker before a block that does not run (" info ")")
			why = m; sub(/^[^:]*: /, "", why); sub(/:.*/, "", m)
			if (m ~ /^skip/) t = "skip"
			else if (m ~ /^full fresh/) t = "fresh"
			else if (m ~ /^full/) t = "full"
			if (m ~ /exits/) { ex = m; sub(/.*exits /, "", ex) }
		}
		if (info == "sh" || info == "console") {
			run = 1
			out(info, t, why, ex)
		}
	}
	FNR == 1 { fence = code = list = 0; blank = 1; last = "" }
	fence && /^[ \t]*```[ \t]*$/ { fence = 0; last = ""; next }
	fence {
		if (first && !run && $0 ~ /^\$ /)
			out("bad", "-", "a transcript (\"$ \") in a block that does not run: make it ```console")
		first = 0
		if (run)
			print >>body
		next
	}
	/^[ \t]*```/ {
		info = $0
		sub(/^[ \t]*```[ \t]*/, "", info); sub(/[ \t].*/, "", info)
		fence = 1; first = 1; code = 0
		open(info)
		next
	}
	code && /^    / { print substr($0, 5) >>body; next }
	code && /^[ \t]*$/ { next }
	!code && blank && !list && /^    / {
		code = 1
		open("sh")
		print substr($0, 5) >>body
		next
	}
	/^[ \t]*$/ { blank = 1; next }
	{
		code = 0; blank = 0; last = $0
		if ($0 ~ /^[ \t]*([-*+]|[0-9]+\.) /) list = 1
		else if ($0 !~ /^ /) list = 0
	}
	' "$@" >"$d/index"
}

# covers DIR: the blocks of DIR (extract's) that another block runs first,
# a line each: FILE:LINE, a tab, the FILE:LINE of the block that runs them.
# Block A is covered by block B when both are sh blocks of the same tier
# (default or full, not fresh: the same scratch copy), both exit 0, and A's
# commands are B's or their start, B running first: B is longer, or it is
# the same and comes first (README.md, then docs/*.md). B then runs A's
# commands, in the same state, under the same set -e -o pipefail. The
# commands compared: the lines but blank ones and comments, a comment at the
# end of a line cut when no quote comes before it, spaces squeezed. When B is
# longer, each of A's lines must be a simple command (no ; & | ( ) { } ` \ or
# keyword), so that where B goes on A would have ended with the same status.
# The chain ends at a block nobody covers: that one runs.
covers() {
	awk -F '\t' -v dir="$1/blocks" '
	function norm(line) {
		sub(/^[ \t]+/, "", line)
		if (line ~ /^#/) return ""
		if (match(line, /[ \t]#/) && substr(line, 1, RSTART) !~ /["\047`]/)
			line = substr(line, 1, RSTART - 1)
		sub(/[ \t]+$/, "", line)
		gsub(/[ \t]+/, " ", line)
		return line
	}
	$3 == "sh" && ($4 == "default" || $4 == "full") && $5 == 0 {
		m++; id[m] = $1; where[m] = $2; tier[m] = $4; len[m] = 0; simple[m] = 1
		f = dir "/" $1
		while ((getline line <f) > 0) {
			if (line ~ /<</) len[m] = -1 # a here-document: its lines are not commands
			if (len[m] < 0) continue
			line = norm(line)
			if (line == "") continue
			cmd[m, ++len[m]] = line
			if (line ~ /[;&|(){}`\\]/ || line ~ /^(if|then|else|elif|fi|for|while|until|do|done|case|esac|function|select)( |$)/)
				simple[m] = 0
		}
		close(f)
	}
	# starts(A, B): A is B or its start
	function starts(a, b,   i) {
		if (len[a] <= 0 || len[a] > len[b]) return 0
		for (i = 1; i <= len[a]; i++)
			if (cmd[a, i] != cmd[b, i]) return 0
		return 1
	}
	END {
		for (a = 1; a <= m; a++) {
			best = 0
			for (b = 1; b <= m; b++) {
				if (where[b] == where[a] || tier[b] != tier[a] || !starts(a, b)) continue
				if (len[b] == len[a] && b > a) continue
				if (len[b] > len[a] && !simple[a]) continue
				if (!best || len[b] > len[best] || (len[b] == len[best] && b < best)) best = b
			}
			if (best) printf "%s\t%s\n", where[a], where[best]
		}
	}' "$1/index"
}

# console FILE: the commands of a console block FILE as a script: each
# command (a "$ " line and its continuation lines) then a check of its exit
# status
console() {
	echo "set +e"
	awk '
	cont { print; cont = /\\$/; if (!cont) check(); next }
	/^\$ / { print substr($0, 3); cont = /\\$/; if (!cont) check() }
	function check() {
		print "s=$?; [ $s = 0 ] || { echo \"docs.sh: exit $s: the command ending on line " NR " of the block\" >&2; exit $s; }"
	}' "$1"
}

# scratch DIR FRESH: a copy of the tree in DIR (see above)
scratch() {
	local d=$1 fresh=$2 e
	mkdir -p "$d"
	for e in "$src"/* "$src"/.git "$src"/.ci; do
		[ -e "$e" ] || continue
		case ${e##*/} in
		build*) ;;
		results | plots) cp -r "$e" "$d/" ;;
		*) ln -s "$e" "$d/${e##*/}" ;;
		esac
	done
	[ "$fresh" = fresh ] || ln -s "$(dirname "$bin")" "$d/build"
}

extract "$tmp" "$@"
# the blocks run elsewhere first (covers), among all of the manual's
if [ "$tier" != list ]; then
	mapfile -t all < <(for f in README.md docs/*.md "$@"; do [ ! -f "$f" ] || echo "$f"; done | awk '!seen[$0]++')
	extract "$tmp/all" "${all[@]}"
	covers "$tmp/all" >"$tmp/covered"
fi
# a block's time limit (timeout's exit 124 when it is over)
limit=${CB_DOCS_LIMIT:-$([ "$tier" = default ] && echo 120 || echo 2400)}
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failed=0 ran=0 skipped=0 covered=0
while IFS=$'\t' read -r n where kind t ex why; do
	if [ "$kind" = bad ]; then
		echo "docs.sh: $where: $why" >&2
		failed=$((failed + 1))
		continue
	fi
	if [ "$tier" = list ]; then
		printf '%-24s %-8s %-8s exit %-3s %s\n' "$where" "$kind" "$t" "$ex" "$why"
		continue
	fi
	[ -z "${CB_DOCS_ONLY:-}" ] || grep -qE -- "$CB_DOCS_ONLY" <<<"$where" || continue
	case $tier:$t in
	default:default | full:full | full:fresh) ;;
	*:skip) echo "docs.sh: $where: skipped: $why" >&2; skipped=$((skipped + 1)); continue ;;
	*) continue ;;
	esac
	by=$(awk -F '\t' -v w="$where" '$1 == w { print $2; exit }' "$tmp/covered")
	if [ -n "$by" ]; then
		echo "docs.sh: $where: not run: $by runs its commands first, as they are here" >&2
		covered=$((covered + 1))
		continue
	fi
	script=$tmp/blocks/$n
	[ "$kind" = sh ] || { console "$script" >"$script.sh"; script=$script.sh; }
	scratch "$tmp/run$n" "$t"
	echo "== docs.sh: $where ($kind, $t tier)" >&2
	t0=$SECONDS
	(cd "$tmp/run$n" && exec timeout -k 10 "$limit" bash -e -o pipefail "$script") </dev/null >"$tmp/out$n" 2>&1
	rc=$?
	ran=$((ran + 1))
	if [ $rc != "$ex" ]; then
		echo "docs.sh: $where: FAILED (exit $rc, not $ex, after $((SECONDS - t0)) s); the block:" >&2
		sed 's/^/    /' "$tmp/blocks/$n" >&2
		echo "  its output (the last 40 lines):" >&2
		tail -n 40 "$tmp/out$n" | sed 's/^/    /' >&2
		failed=$((failed + 1))
	else
		echo "docs.sh: $where: ok ($((SECONDS - t0)) s)" >&2
	fi
	rm -rf "$tmp/run$n"
done <"$tmp/index"
[ "$tier" = list ] && exit $((failed > 0))
echo "docs.sh: $tier tier: $ran block(s) ran, $covered run by another, $skipped skipped, $failed failed" >&2
[ $failed = 0 ]
