#!/usr/bin/env bash
# Lint of the repository's shell scripts: every file under scripts/, dev/, tests/
# and .ci/ that ends in .sh or starts with a sh/bash #! line.
#   lint.sh shellcheck   shellcheck -S warning (errors and warnings) on each;
#                        a sourced file needs "# shellcheck shell=bash" (else
#                        SC2148). Skipped (exit 77) where shellcheck is absent.
#                        Before it, the rule shellcheck lacks: no "cmd | grep -q"
#                        (grep -q exits at its first match; under pipefail the
#                        writer's SIGPIPE then fails a pipeline that matched).
#                        Write "cmd | grep PATTERN >/dev/null" (reads to the end).
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
case ${1:-} in
shellcheck)
	command -v shellcheck >/dev/null || { echo "skipped: shellcheck not installed (apt-get install shellcheck)"; exit 77; }
	mapfile -t files < <(cd "$src" && find scripts dev tests .ci -type f \( -name '*.sh' -o -perm -u+x \) \
		-not -path '*/fuzz/corpus/*' | sort |
		while read -r f; do
			case $f in
			*.sh) echo "$f" ;;
			*) head -n 1 "$f" | grep -E '^#!.*[/ ](ba)?sh\b' >/dev/null && echo "$f" ;;
			esac
		done)
	[ ${#files[@]} -ge 10 ] || { echo "FAIL: found only ${#files[@]} scripts: ${files[*]}" >&2; exit 1; }
	# a pipe into grep -q, on one line or continued from a line that ends in "|"
	if (cd "$src" && awk 'FNR == 1 || /^[[:space:]]*#/ { prev = "" } /^[[:space:]]*#/ { next }
		/(^|[^|])\|[[:space:]]*grep[[:space:]]+-[a-zA-Z]*q/ ||
		(prev ~ /(^|[^|])\|[[:space:]]*$/ && /^[[:space:]]*grep[[:space:]]+-[a-zA-Z]*q/) {
			print FILENAME ":" FNR ": " $0; bad = 1 }
		{ prev = $0 } END { exit !bad }' "${files[@]}"); then
		echo "FAIL: a pipe into grep -q above: under pipefail the writer's SIGPIPE fails a matched pipeline; use '| grep ... >/dev/null'" >&2
		exit 1
	fi
	(cd "$src" && shellcheck -S warning "${files[@]}") || { echo "FAIL: shellcheck (above)" >&2; exit 1; }
	echo "lint.sh: shellcheck -S warning: ${#files[@]} scripts clean"
	;;
*)
	echo "usage: lint.sh shellcheck" >&2
	exit 2
	;;
esac
