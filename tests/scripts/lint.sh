#!/usr/bin/env bash
# Lint of the repository's shell scripts: every file under scripts/, dev/, tests/
# and .ci/ that ends in .sh or starts with a sh/bash #! line.
#   lint.sh shellcheck   shellcheck -S warning (errors and warnings) on each;
#                        a sourced file needs "# shellcheck shell=bash" (else
#                        SC2148). Skipped (exit 77) where shellcheck is absent.
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
			*) head -n 1 "$f" | grep -Eq '^#!.*[/ ](ba)?sh\b' && echo "$f" ;;
			esac
		done)
	[ ${#files[@]} -ge 10 ] || { echo "FAIL: found only ${#files[@]} scripts: ${files[*]}" >&2; exit 1; }
	(cd "$src" && shellcheck -S warning "${files[@]}") || { echo "FAIL: shellcheck (above)" >&2; exit 1; }
	echo "lint.sh: shellcheck -S warning: ${#files[@]} scripts clean"
	;;
*)
	echo "usage: lint.sh shellcheck" >&2
	exit 2
	;;
esac
