#!/usr/bin/env bash
# The scripts' option tables (scripts/lib_opts.sh): one cb_opt line gives the
# parsing (--name VALUE, --name=VALUE, letters, --, an optional value, an old
# letter with its note), the check of the value by its kind (exit 2, "PROG:
# MESSAGE") and the usage; and every script of the suite answers --help and
# an unknown option alike (exit 0 with its usage; exit 2, said, nothing on
# stdout).
#   opts.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CB_BIN=$bin LC_ALL=C CB_RESULTS=$t/results CB_PLOTS=$t/plots

# run WANT ARGS...: runs ARGS, stdout in $t/out and stderr in $t/err; fails
# unless it exits WANT
run() {
	local want=$1 rc
	shift
	"$@" >"$t/out" 2>"$t/err"
	rc=$?
	[ "$rc" = "$want" ] || { cat "$t/out" "$t/err" >&2; fail "'$*' exited $rc, expected $want"; }
}
# says FILE LINE: FILE holds LINE, whole
says() { grep -qxF -- "$2" "$1" || { cat "$1" >&2; fail "no line '$2' in $(basename "$1")"; }; }

case $case in
table)
	# a tool with one option of each kind
	cat >"$t/tool" <<-'EOF'
		#!/usr/bin/env bash
		set -euo pipefail
		PROG=tool
		. "$1/scripts/lib.sh"
		shift
		cb_opts_new none "usage: tool [options] [-- more]"
		cb_opt count n N      int:1:64      count    4      "how many"
		cb_opt list  - LIST   ints:1:9      list     "1 2"  "a list"
		cb_opt mode  m NAME   choice:a,bb,c mode     a      "a mode"
		cb_opt out   - DIR    path          out      ''     "a folder" "its second line"
		cb_opt db    - '[DB]' path          db       /d.db  "a database"
		cb_opt flag  - -      flag          flag     0      "a flag"
		cb_opt env   - LABEL  text          TOOL_ENV -      "an environment variable"
		cb_opt_old k count "the old letter"
		cb_opts_parse "$@"
		printf '%s|' "$count" "$list" "$mode" "$out" "$db" "$flag" "${TOOL_ENV-unset}" "${cb_rest[@]}"
		echo
		cb_opts_given --db && echo "db given"
		true
	EOF
	chmod +x "$t/tool"
	tool() { run "$1" "$t/tool" "$src" "${@:2}"; }
	tool 0
	says "$t/out" "4|1 2|a|||0|unset|"
	tool 0 --count=07 -m bb --list 3,4 --out d --db --flag -- x -y
	says "$t/out" "7|3 4|bb|d|/d.db|1|unset|x|-y|"
	says "$t/out" "db given"
	tool 0 --db my.db --env=lab
	says "$t/out" "4|1 2|a||my.db|0|lab|"
	tool 0 -k 3
	says "$t/out" "3|1 2|a|||0|unset|"
	says "$t/err" "tool: note: -k (the old letter) is deprecated: use --count"
	# refused: exit 2, one line saying why, nothing on stdout
	while IFS='|' read -r args msg; do
		read -ra words <<<"$args"
		tool 2 "${words[@]}"
		says "$t/err" "tool: $msg"
		[ ! -s "$t/out" ] || fail "$args: a refusal wrote to stdout"
	done <<-'EOF'
		--count 0|--count: 0 is outside 1..64
		-n 99999999999999999999|--count: 99999999999999999999 is outside 1..64
		--count x|--count: 'x' is not a whole number
		--list 1,x|--list: 'x' is not a whole number
		--list 1,*|--list: '*' is not a whole number
		--list=,|--list: no number in ','
		-m d|--mode: 'd' is not a, bb or c
		--out=|--out: an empty path
		--db=|--db: an empty path
		--flag=1|--flag takes no value
		--count|--count needs a value (see --help)
		--nope|unknown option '--nope' (see --help)
		word|unknown option 'word' (see --help)
		-nq|unknown option '-nq' (see --help)
	EOF
	# the usage, from the same lines
	tool 0 --help
	says "$t/out" "usage: tool [options] [-- more]"
	says "$t/out" "  -n, --count N    how many  [4]"
	says "$t/out" "      --list LIST  a list  [1 2]"
	says "$t/out" "      --out DIR    a folder"
	says "$t/out" "                   its second line"
	says "$t/out" "      --db [DB]    a database"
	says "$t/out" "      --flag       a flag"
	says "$t/out" "  -h, --help       this help"
	says "$t/out" "  -k N             use --count (the old letter)"
	# cb_die: the code asked, "PROG: MESSAGE"
	run 3 bash -c '. "$1/scripts/lib.sh"; PROG=x; cb_die 3 "the run" kept' _ "$src"
	says "$t/err" "x: the run kept"
	;;
help)
	# every script: --help is its usage (exit 0), an unknown option exit 2
	# with the same message, nothing on stdout
	for s in scripts/sweep.sh scripts/regress.sh scripts/plot.sh scripts/model.sh \
		scripts/plot_history.sh scripts/test.sh dev/history-demo.sh dev/device-check.sh; do
		run 0 "$src/$s" --help
		grep -qi '^usage: ' "$t/out" || fail "$s --help: no usage line"
		grep -q '^  -h, --help  *this help$' "$t/out" || fail "$s --help: no line for -h, --help"
		# plot_history.sh passes the options it does not know to collbench-history
		[ "$s" != scripts/plot_history.sh ] || continue
		run 2 "$src/$s" --no-such-option
		says "$t/err" "$(basename "$s"): unknown option '--no-such-option' (see --help)"
		[ ! -s "$t/out" ] || fail "$s: a refusal wrote to stdout"
	done
	;;
*)
	fail "unknown case '$case'"
	;;
esac
echo "opts.sh $case: ok"
