# shellcheck shell=bash
# lib_opts.sh: sourced by lib.sh. How a script stops (cb_die, with the
# suite's exit codes) and its options from one table: an option is one
# cb_opt line, and that line alone makes its parsing, the check of its value
# and its lines in the usage.
#
# Exit codes of the suite (each script's header says which it uses):
#   0 ok; 1 a regression, or a run or a step that failed; 2 bad usage or
#   input: nothing run; 3 the run is complete and kept, but a later step
#   (adding it to the history) failed; regress.sh also 4 (unknown: run
#   again), and a script stopped by signal N exits 128 + N.
#
# The table, after cb_opts_new, one line an option:
#   cb_opt LONG LETTER ARG KIND VAR DEFAULT HELP [HELP...]
#     LONG     long name without the dashes ("-": the letter only)
#     LETTER   one-letter name without the dash ("-": none)
#     ARG      the value's name in the usage (SIZE, DIR, ...), "-" for a
#              flag; in brackets ("[DB]") a value that may be left out: the
#              word after the option is taken unless it is empty or starts
#              with "-", else DEFAULT
#     KIND     what the value is, and its check (made when all options are
#              read, in the table's order; a refused value exits 2):
#                flag            no value: VAR becomes 1 ("--NAME=V" refused)
#                text            any value
#                pass            any value here: the program it is passed to
#                                checks it with its own option table before
#                                anything runs (allreduce_perf --check-args,
#                                collbench-compare --check-args, ...)
#                path            not empty
#                int[:LO[:HI]]   digits, within LO..HI where given; stored
#                                without leading zeros
#                ints[:LO[:HI]]  one or more such numbers apart by commas or
#                                spaces; stored apart by spaces
#                choice:A,B,...  one of the names
#     VAR      the variable the option sets
#     DEFAULT  VAR before the options are read ('' for empty; "-": VAR is
#              left as it is, e.g. an environment variable), shown in the
#              usage as [DEFAULT] unless empty or a flag's (a default in words
#              goes in HELP); with ARG in brackets: the value the option takes
#              when given without one (VAR is empty until then)
#     HELP     a line of the usage; each further argument a line more
#   cb_opt_old LETTER LONG WHAT: -LETTER is a deprecated name of --LONG: it
#     works as --LONG, with "PROG: note: -LETTER (WHAT) is deprecated: use
#     --LONG" on stderr.
#   -h, --help is in every table: the usage on stdout, exit 0.
#
#   cb_opts_unknown_hint FUNC: for an unknown option W, FUNC W may print a
#     hint (one line), said after the refusal as "PROG: HINT".
#
# Refused, exit 2 ("PROG: MESSAGE"): "unknown option 'W' (see --help)",
# "OPT needs a value (see --help)", "OPT takes no value", and per kind
# "OPT: an empty path", "OPT: 'V' is not a whole number", "OPT: V is outside
# LO..HI" (or "at least LO, not V", "at most HI, not V"), "OPT: 'V' is not a
# whole number" for an entry of ints, "OPT: no number in 'V'", "OPT: 'V' is not
# A, B or C". OPT is --LONG (-LETTER for a letter-only option).

# cb_die CODE MESSAGE...: "PROG: MESSAGE" on stderr, exit CODE
cb_die() {
	local code=$1
	shift
	echo "${PROG:-collbench}: $*" >&2
	exit "$code"
}

# cb_note MESSAGE...: "PROG: MESSAGE" on stderr
cb_note() { echo "${PROG:-collbench}: $*" >&2; }

# cb_opts_new MODE SYNOPSIS: starts the script's table (an earlier one is
# forgotten). SYNOPSIS: the usage's first line. MODE, what the words that are
# not options are:
#   none      refused as unknown options; after "--" the words go to cb_rest
#   operands  the script's operands, into cb_args, as are all words after "--"
#   pass      words and unknown options alike go to cb_args, in order ("--"
#             too), for the program the script passes them to
cb_opts_new() {
	cb_o_mode=$1 cb_o_synopsis=$2 cb_o_head="" cb_o_tail=""
	cb_o_long=() cb_o_letter=() cb_o_arg=() cb_o_kind=() cb_o_var=() cb_o_def=() cb_o_help=()
	cb_o_old_letter=() cb_o_old_long=() cb_o_old_what=()
	cb_args=() cb_rest=() cb_given=" " cb_o_hint=""
}

# cb_opts_unknown_hint FUNC: FUNC W prints a hint for the unknown option W
# (or nothing), said after its refusal
cb_opts_unknown_hint() { cb_o_hint=$1; }

# cb_opts_unknown W: refuses the unknown option W (exit 2), with the
# table's hint for it when there is one
cb_opts_unknown() {
	local hint=""
	[ -z "$cb_o_hint" ] || hint=$("$cb_o_hint" "$1" 2>/dev/null) || hint=""
	[ -z "$hint" ] || echo "${PROG:-collbench}: unknown option '$1' (see --help)" >&2
	cb_die 2 "${hint:-unknown option '$1' (see --help)}"
}

# cb_opts_text head|tail: the text on stdin goes before the options' lines
# of the usage (head) or after them (tail)
cb_opts_text() {
	case $1 in
	head) cb_o_head=$(cat) ;;
	tail) cb_o_tail=$(cat) ;;
	esac
}

# cb_opt LONG LETTER ARG KIND VAR DEFAULT HELP...: an option (see the top);
# sets VAR to DEFAULT. A kind the table does not know exits 2 (said).
cb_opt() {
	local n=${#cb_o_long[@]} help
	case $4 in
	flag | text | pass | path | int | int:* | ints | ints:* | choice:?*) ;;
	*) cb_die 2 "option table: --$1: unknown kind '$4'" ;;
	esac
	cb_o_long[n]=$1 cb_o_letter[n]=$2 cb_o_arg[n]=$3 cb_o_kind[n]=$4 cb_o_var[n]=$5 cb_o_def[n]=$6
	shift 6
	help=$(printf '%s\n' "$@")
	cb_o_help[n]=$help
	case ${cb_o_arg[n]}:${cb_o_def[n]} in
	\[*) printf -v "${cb_o_var[n]}" '%s' "" ;;
	*:-) ;;
	*) printf -v "${cb_o_var[n]}" '%s' "${cb_o_def[n]}" ;;
	esac
}

# cb_opt_old LETTER LONG WHAT: a deprecated letter of --LONG (see the top)
cb_opt_old() {
	local n=${#cb_o_old_letter[@]}
	cb_o_old_letter[n]=$1 cb_o_old_long[n]=$2 cb_o_old_what[n]=$3
}

# cb_o_find WORD: sets cb_o_i to the row of WORD (--LONG or -LETTER), -1 if
# none; cb_o_old to the deprecated letter's row, -1 if WORD is not one
cb_o_find() {
	local i
	cb_o_i=-1 cb_o_old=-1
	for ((i = 0; i < ${#cb_o_old_letter[@]}; i++)); do
		[ "$1" = "-${cb_o_old_letter[i]}" ] || continue
		cb_o_old=$i
		cb_o_find "--${cb_o_old_long[i]}"
		cb_o_old=$i
		return 0
	done
	for ((i = 0; i < ${#cb_o_long[@]}; i++)); do
		if { [ "${cb_o_long[i]}" != - ] && [ "$1" = "--${cb_o_long[i]}" ]; } ||
			{ [ "${cb_o_letter[i]}" != - ] && [ "$1" = "-${cb_o_letter[i]}" ]; }; then
			cb_o_i=$i
			return 0
		fi
	done
}

# cb_o_name I: how messages name row I: --LONG, or -LETTER when it has no long
cb_o_name() {
	if [ "${cb_o_long[$1]}" = - ]; then echo "-${cb_o_letter[$1]}"; else echo "--${cb_o_long[$1]}"; fi
}

# cb_opts_long WORD: the long name of WORD by the table (-b: --minbytes; a
# deprecated letter: the option it stands for; -h: --help), else WORD
cb_opts_long() {
	local cb_o_i cb_o_old
	case $1 in -h) echo --help; return 0 ;; esac
	cb_o_find "$1"
	if [ "$cb_o_i" -ge 0 ] && [ "${cb_o_long[cb_o_i]}" != - ]; then
		echo "--${cb_o_long[cb_o_i]}"
	else
		printf '%s\n' "$1"
	fi
}

# cb_opts_old_note WORD: when WORD is a deprecated letter, its note on stderr
cb_opts_old_note() {
	local cb_o_i cb_o_old
	cb_o_find "$1"
	[ "$cb_o_old" -ge 0 ] || return 0
	cb_note "note: $1 (${cb_o_old_what[cb_o_old]}) is deprecated: use --${cb_o_old_long[cb_o_old]}"
}

# cb_opts_given OPT: whether OPT (--LONG, or -LETTER of a letter-only
# option) was on the command line, by any of its names
cb_opts_given() { [[ "$cb_given" == *" $1 "* ]]; }

# cb_opts_parse ARGS...: reads the options (see cb_opts_new for the other
# words) into their variables, then checks every value given; --help prints
# the usage and exits 0. Anything refused exits 2 (said).
cb_opts_parse() {
	local w i take val inline seen=()
	while [ $# -gt 0 ]; do
		w=$1 take=1 inline=0 val=""
		case $w in
		--) if [ "$cb_o_mode" = pass ]; then cb_args+=(--); shift; continue; fi
			shift
			# shellcheck disable=SC2034 # the caller reads cb_rest
			if [ "$cb_o_mode" = operands ]; then cb_args+=("$@"); else cb_rest=("$@"); fi
			break ;;
		-h | --help) cb_opts_usage; exit 0 ;;
		--help=*) cb_die 2 "--help takes no value" ;;
		--?*=*) val=${w#*=} w=${w%%=*} inline=1 ;;
		esac
		cb_o_find "$w"
		[ "$cb_o_old" -lt 0 ] || cb_opts_old_note "$w"
		if [ "$cb_o_i" -lt 0 ]; then
			case $w:$cb_o_mode in
			*:pass) cb_args+=("$1"); shift; continue ;;
			-?*:* | *:none) cb_opts_unknown "$1" ;;
			*) cb_args+=("$1"); shift; continue ;;
			esac
		fi
		i=$cb_o_i
		case ${cb_o_kind[i]}:${cb_o_arg[i]} in
		flag:*) [ $inline = 0 ] || cb_die 2 "$(cb_o_name "$i") takes no value"
			val=1 ;;
		*:\[*) [ $inline = 1 ] || { val=${cb_o_def[i]}
			if [ $# -ge 2 ] && [ -n "$2" ] && [ "${2#-}" = "$2" ]; then val=$2 take=2; fi; } ;;
		*) [ $inline = 1 ] || [ $# -ge 2 ] || cb_die 2 "$(cb_o_name "$i") needs a value (see --help)"
			[ $inline = 1 ] || { val=$2 take=2; } ;;
		esac
		printf -v "${cb_o_var[i]}" '%s' "$val"
		w=$(cb_o_name "$i")
		[[ "$cb_given" == *" $w "* ]] || { cb_given+="$w "; seen+=("$i"); }
		shift "$take"
	done
	for i in "${seen[@]}"; do cb_o_check "$i"; done
}

# cb_o_check I: checks the value of row I by its kind (see the top); exits 2
# (said) when it is refused
cb_o_check() {
	local i=$1 var=${cb_o_var[$1]} name v w lo hi words
	name=$(cb_o_name "$i") v=${!var}
	IFS=: read -r _ lo hi <<<"${cb_o_kind[i]}"
	case ${cb_o_kind[i]} in
	path) [ -n "$v" ] || cb_die 2 "$name: an empty path" ;;
	int | int:*) cb_o_int "$name" "$v" "$lo" "$hi"
		printf -v "$var" '%s' "$((10#$v))" ;;
	ints | ints:*)
		read -ra words <<<"${v//,/ }" # (no glob: "*" is refused as it is)
		for w in "${words[@]}"; do cb_o_int "$name" "$w" "$lo" "$hi"; done
		[ -n "${v//[, ]/}" ] || cb_die 2 "$name: no number in '$v'"
		printf -v "$var" '%s' "${v//,/ }" ;;
	choice:*)
		[[ ",${cb_o_kind[i]#choice:}," == *",$v,"* ]] && [ -n "$v" ] ||
			cb_die 2 "$name: '$v' is not $(cb_o_names "${cb_o_kind[i]#choice:}")" ;;
	esac
}

# cb_o_int NAME V LO HI: V is digits within LO..HI (each may be empty: no
# bound), else exits 2 (said). Beyond 18 digits it is outside any bound.
cb_o_int() {
	local name=$1 v=$2 lo=$3 hi=$4 n
	case $v in '' | *[!0-9]*) cb_die 2 "$name: '$v' is not a whole number" ;; esac
	n=${v#"${v%%[!0]*}"}
	[ ${#n} -le 18 ] || n=999999999999999999
	n=$((10#${n:-0}))
	if [ -n "$lo" ] && [ -n "$hi" ] && { [ "$n" -lt "$lo" ] || [ "$n" -gt "$hi" ]; }; then
		cb_die 2 "$name: $v is outside $lo..$hi"
	fi
	[ -z "$lo" ] || [ "$n" -ge "$lo" ] || cb_die 2 "$name: at least $lo, not $v"
	[ -z "$hi" ] || [ "$n" -le "$hi" ] || cb_die 2 "$name: at most $hi, not $v"
	[ ${#v} -le 18 ] || [ -n "$hi" ] || cb_die 2 "$name: '$v' is too large"
}

# cb_o_names A,B,C: "A, B or C"
cb_o_names() {
	local s=${1//,/, }
	case $s in *', '*) echo "${s%, *} or ${s##*, }" ;; *) echo "$s" ;; esac
}

# cb_opts_usage: the usage from the table: the synopsis, the head text, a
# line per option (its help, and its default in brackets), the deprecated
# letters, the tail text
cb_opts_usage() {
	local i left lines=() width=0 w=0
	for ((i = 0; i < ${#cb_o_long[@]}; i++)); do
		lines+=("$(cb_o_left "$i")")
	done
	lines+=("  -h, --help")
	for left in "${lines[@]}"; do [ ${#left} -le "$width" ] || width=${#left}; done
	width=$((width + 2))
	[ "$width" -le 26 ] || width=26
	printf '%s\n' "$cb_o_synopsis"
	[ -z "$cb_o_head" ] || printf '%s\n' "$cb_o_head"
	for ((i = 0; i < ${#cb_o_long[@]}; i++)); do
		cb_o_lines "${lines[i]}" "$width" "$(cb_o_help_text "$i")"
	done
	cb_o_lines "  -h, --help" "$width" "this help"
	if [ ${#cb_o_old_letter[@]} -gt 0 ]; then
		echo "Deprecated, still accepted with a note on stderr:"
		for ((i = 0; i < ${#cb_o_old_letter[@]}; i++)); do
			cb_o_find "--${cb_o_old_long[i]}"
			w=$cb_o_i
			left="  -${cb_o_old_letter[i]}"
			[ "${cb_o_arg[w]}" = - ] || left+=" ${cb_o_arg[w]}"
			cb_o_lines "$left" "$width" "use --${cb_o_old_long[i]} (${cb_o_old_what[i]})"
		done
	fi
	[ -z "$cb_o_tail" ] || printf '%s\n' "$cb_o_tail"
}

# cb_o_left I: row I's option column: "  -b, --minbytes SIZE", "      --out DIR"
cb_o_left() {
	local l=${cb_o_letter[$1]} g=${cb_o_long[$1]} a=${cb_o_arg[$1]} s
	if [ "$g" = - ]; then s="  -$l"; elif [ "$l" = - ]; then s="      --$g"; else s="  -$l, --$g"; fi
	[ "$a" = - ] || s+=" $a"
	printf '%s' "$s"
}

# cb_o_help_text I: row I's help, with [DEFAULT] after its last line
cb_o_help_text() {
	local d=${cb_o_def[$1]}
	printf '%s' "${cb_o_help[$1]}"
	case ${cb_o_kind[$1]}:${cb_o_arg[$1]}:$d in
	flag:* | *:\[*:* | *: | *:-) ;;
	*) printf '  [%s]' "$d" ;;
	esac
}

# cb_o_lines LEFT WIDTH TEXT: LEFT, then TEXT's lines from column WIDTH (on
# LEFT's line, two spaces after it when LEFT is wider)
cb_o_lines() {
	local left=$1 width=$2 line first=1
	while IFS= read -r line; do
		if [ $first = 1 ]; then
			if [ ${#left} -le $((width - 2)) ]; then
				printf '%-*s%s\n' "$width" "$left" "$line"
			else
				printf '%s  %s\n' "$left" "$line"
			fi
			first=0
		else
			printf '%*s%s\n' "$width" "" "$line"
		fi
	done <<<"$3"
}
