#!/usr/bin/env bash
# nccl-tests' dialect: the command lines of tests/scripts/nccl_tests_lines.txt
# (nccl-tests' README, its source and issue threads, each line with where it
# was found) through --check-args on every *_perf binary. Each is accepted
# with nccl-tests' meaning (the settings --check-args prints hold the
# line's NAME=VALUE pairs) or refused with exit 2 and a message that names
# the option; none is accepted with another meaning, none refused silently.
# And --help's two groups: nccl-tests' options, collbench's own; and in a
# 2-rank run, what -a, -c N and -z 0 do.
#   nccl_dialect.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
lines=$(dirname "$0")/nccl_tests_lines.txt
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# trim TEXT: without its leading and trailing blanks
trim() { sed 's/^[[:space:]]*//; s/[[:space:]]*$//' <<<"$1"; }

# the *_perf binaries of the build: allreduce_perf and nccl-tests' names
perfs() { (cd "$bin" && ls -- *_perf); }

# one_line PERF ARGS EXPECT: fails unless PERF --check-args ARGS does what
# EXPECT says ("ok NAME=VALUE ...", "refuse -X [TEXT]")
one_line() {
	local perf=$1 args=$2 expect=$3 rc kv opt text
	local -a words
	read -r -a words <<<"$args"
	"$bin/$perf" --check-args "${words[@]}" >"$t/out" 2>"$t/err"
	rc=$?
	case $expect in
	ok\ *)
		[ "$rc" = 0 ] || fail "$perf $args: exit $rc, expected it accepted: $(cat "$t/err")"
		for kv in ${expect#ok }; do
			grep -qxF -- "$kv" "$t/out" ||
				fail "$perf $args: accepted, but not with $kv: $(grep -F "${kv%%=*}=" "$t/out")"
		done ;;
	refuse\ *)
		opt=${expect#refuse }
		text=${opt#* }
		[ "$text" != "$opt" ] || text=""
		opt=${opt%% *}
		[ "$rc" = 2 ] || fail "$perf $args: exit $rc, expected 2 (refused, naming $opt)"
		[ ! -s "$t/out" ] || fail "$perf $args: refused, but printed on stdout"
		grep -qE -- "^collbench: $opt/--[a-z_]+[: ]" "$t/err" ||
			fail "$perf $args: the message does not name $opt: $(cat "$t/err")"
		[ -z "$text" ] || grep -qF -- "$text" "$t/err" ||
			fail "$perf $args: the message lacks '$text': $(cat "$t/err")" ;;
	launch\ *)
		# started alone: a dry run of the launch (exit 0, "launch=" first)
		opt=${expect#launch } np=${opt#* } opt=${opt%% *}
		[ "$rc" = 0 ] || fail "$perf $args: exit $rc, expected a dry run of the launch: $(cat "$t/err")"
		head -1 "$t/out" | grep -E -- "^launch=[^ ]*mpi(run|exec) -np $np .*/$perf( |$)" >/dev/null ||
			fail "$perf $args: no launch=... -np $np line first: $(head -1 "$t/out")"
		grep -qxF "ngpus=1" "$t/out" && grep -qxF "nthreads=1" "$t/out" ||
			fail "$perf $args: the ranks' settings keep -t/-g above 1"
		# under a launcher: refused, with the mpirun line
		OMPI_COMM_WORLD_SIZE=1 one_line "$perf" "$args" "refuse $opt mpirun -np $np" ;;
	*) fail "bad expectation '$expect' in $lines" ;;
	esac
}

case $case in
table)
	n=0
	while IFS='|' read -r src args expect; do
		case $src in '#'* | '') continue ;; esac
		src=$(trim "$src") args=$(trim "$args") expect=$(trim "$expect")
		case $src in https://github.com/*) ;; *) fail "line without a source: $src" ;; esac
		for perf in $(perfs); do
			one_line "$perf" "$args" "$expect"
		done
		n=$((n + 1))
	done <"$lines"
	[ "$n" -ge 25 ] || fail "only $n command lines in $lines"
	echo "$n nccl-tests command lines on $(perfs | wc -l) binaries: as nccl-tests means them, or refused"
	;;
letters)
	# every letter of nccl-tests 2.19's getopt string (src/common.cu) is an
	# option here
	getopt_string="t:g:b:e:i:f:n:m:w:N:p:I:K:c:o:d:r:z:y:T:hG:C:a:R:x:D:V:J:S:M:u:"
	"$bin/allreduce_perf" --help >"$t/help" || fail "--help failed"
	for l in $(tr -d ':' <<<"$getopt_string" | fold -w1); do
		grep -qE "^  -$l, --" "$t/help" || fail "nccl-tests' -$l is not an option of allreduce_perf"
	done
	# with nccl-tests' long names (its longopts)
	for p in t:nthreads g:ngpus b:minbytes e:maxbytes i:stepbytes f:stepfactor n:iters \
		m:agg_iters w:warmup_iters N:run_cycles p:parallel_init c:check o:op d:datatype \
		r:root z:blocking y:stream_null T:timeout G:cudagraph C:report_cputime \
		S:report_timestamps a:average R:local_register x:cta_policy D:device_implementation \
		V:device_cta_count M:memory u:unalign I:per_iter_timing K:per_iter_skip J:output_file \
		h:help; do
		grep -qE "^  -${p%%:*}, --${p#*:}( |$)" "$t/help" ||
			fail "-${p%%:*} is not nccl-tests' --${p#*:} in --help"
	done
	# and collbench's own options have no letter nccl-tests uses
	awk '/^collbench.s own options:/ { own = 1; next } own && /^$/ { exit }
	     own && /^  -[A-Za-z],/ { print substr($1, 2, 1) }' "$t/help" >"$t/own"
	[ -s "$t/own" ] || fail "--help has no group 'collbench's own options'"
	while read -r l; do
		case $getopt_string in *"$l"*) fail "collbench's own -$l is one of nccl-tests' letters" ;; esac
	done <"$t/own"
	grep -q "^nccl-tests' options" "$t/help" || fail "--help has no group 'nccl-tests' options'"
	;;
run)
	# what the taken options do in a run (2 ranks): -a 2, a row's time the
	# min over the ranks' own means (the per-rank CSV's time_us); -c 3,
	# three checked calls (#wrong 0); -z 0, the calls back to back
	cb_mpirun -np 2 "$bin/all_reduce_perf" --algo ring,mpi -b 64 -e 1K -f 4 -n 3 -w 1 -a 2 -c 3 \
		-z 0 --csv "$t/s.csv" --rank-csv "$t/r.csv" >"$t/out" 2>"$t/err" ||
		fail "the run failed: $(cat "$t/err")"
	grep -q "but -a 2 (nccl-tests' --average): time_us, algbw and busbw are the min" "$t/out" ||
		fail "the header does not say what -a 2 made time_us"
	grep -q '"timing_mode": "loop"' "$t/s.meta.json" || fail "-z 0 did not time calls back to back"
	awk -F, 'NR == FNR && FNR == 1 { for (i = 1; i <= NF; i++) r[$i] = i; next }
		NR == FNR { k = $r["algo"] "," $r["bytes"]; t = $r["time_us"] + 0
			if (!(k in min) || t < min[k]) min[k] = t; next }
		FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ k = $c["algo"] "," $c["bytes"]; n++
		  if ($c["status"] != "ok" || $c["wrong"] != 0) { print "row " k " not ok: " $c["status"]; bad = 1 }
		  d = $c["time_us"] - min[k]; if (d < 0) d = -d
		  if (!(k in min) || d > 1e-3 * min[k] + 1e-3) { print "row " k ": time_us " $c["time_us"] ", min of the ranks " min[k]; bad = 1 } }
		END { if (n != 6) { print n " rows, expected 6"; bad = 1 }; exit bad }' "$t/r.csv" "$t/s.csv" ||
		fail "-a 2: the rows' time_us is not the min of the ranks' means"
	;;
*) fail "unknown case $case" ;;
esac
