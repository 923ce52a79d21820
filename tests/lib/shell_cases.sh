#!/usr/bin/env bash
# The cases of a shell test as bash itself parses them: the branch labels of
# the script's main `case $case in` ... `esac` (the one outside any function
# or other command), one a line, in the script's order; "a | b)" gives a and
# b, "*)" nothing. The check of cb_shell_cases (tests/lib/shell_cases.cmake),
# which reads the same labels with a pattern: the two must agree.
#   shell_cases.sh SCRIPT
# Nothing of SCRIPT runs: its text becomes the body of a function that is
# defined, never called, and bash prints that function back in its own
# layout (declare -f): top-level commands indented by 4, the main case's
# branch labels by 8, each alone on its line; here-documents keep their text.
# Exit 0 with the labels; 1 when SCRIPT has no main `case $case in` or more
# than one; 2 when it cannot be read or parsed.
set -uo pipefail
[ $# = 1 ] || { echo "usage: shell_cases.sh SCRIPT" >&2; exit 2; }
body=$(<"$1") || exit 2
shopt -s extglob # patterns that need it parse as the script's own shopt would let them
eval "cb_shell_cases_body() {
$body
}" || { echo "shell_cases.sh: $1: bash cannot parse it" >&2; exit 2; }
declare -f cb_shell_cases_body | awk -v f="$1" '
	/^    case \$case in *$/ { on = 1; n++; next }
	on && /^    esac/ { on = 0; next }
	on && /^        [^ ].*\)$/ {
		k = split(substr($0, 9, length($0) - 9), label, / [|] /)
		for (i = 1; i <= k; i++)
			if (label[i] != "*")
				print label[i]
	}
	END {
		if (n != 1) {
			printf "shell_cases.sh: %s: %d main `case $case in`, not one\n", f, n > "/dev/stderr"
			exit 1
		}
	}'
