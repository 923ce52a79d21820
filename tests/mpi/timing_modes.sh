#!/usr/bin/env bash
# nccl-tests' timing modes in a 2-rank run (docs/timing.md#nccl-tests-timing-modes):
# each mode runs with every row checked (#wrong 0) and is said in the
# header's "# timing:" line and the metadata (agg_iters, blocking,
# report_cputime, timing_mode).
#   timing_modes.sh BIN CASE
#   aggregate   -m 3 (each timed iteration 3 calls): the per-call traffic of
#               ps and ring is the formula's 2(n-1)S. The counters count
#               every call's bytes where they move, and the row divides by
#               iterations x 3, so a run of 1 call per iteration would show
#               S 2/3 (and "traffic differs between iterations": 1 KiB is no
#               multiple of 3), one not divided 3 times the formula; with
#               -n 1 (iter) and -n 2 -z 0 (loop)
#   blocking    -z 1, 2, 3 (with -m 2): timing_mode loop, loop, iter
#   cputime     -C 1 (with -m 2): time_us the host's time to issue a call
#   refusals    --check-args: -z 3 with --timing loop, -z 1 with --timing
#               iter, -m 0, -C 2, -z 4: exit 2, the option named
# CB_TM_ARGS: more options for every launch, CB_TM_LIB: the library
# algorithm (tests/cuda_model gives "-B cuda" and nccl).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
lib=${CB_TM_LIB:-mpi}
read -r -a extra <<<"${CB_TM_ARGS:-}"
prog=all_reduce_perf
[ -x "$bin/$prog" ] || prog=allreduce_perf
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun cb_launch_env

# launch NAME ARGS...: 2 ranks, 1 KiB and 4 KiB, ps, ring and the library,
# checked, into $out/NAME.{csv,meta.json,out,err}; fails unless it ran
launch() {
	local name=$1
	shift
	timeout 120 bash -c 'cb_mpirun "$@"' _ -np 2 "$bin/$prog" -b 1K -e 4K -f 4 -w 1 \
		--algo "ps,ring,$lib" --csv "$out/$name.csv" ${extra[@]+"${extra[@]}"} "$@" \
		>"$out/$name.out" 2>"$out/$name.err" || fail "$name ($*): the run failed: $(cat "$out/$name.err")"
}

# rows_ok NAME: 6 rows, each ok with #wrong 0 (a library row that the
# backend skips counts as run: nccl where ranks share a GPU)
rows_ok() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n++; s = $c["status"]; if (s ~ /^skipped/) next
		  if (s != "ok" || $c["wrong"] != 0) { print $c["algo"] " " $c["bytes"] ": " s ", #wrong " $c["wrong"]; bad = 1 } }
		END { if (n != 6) { print n " rows, expected 6"; bad = 1 }; exit bad }' "$out/$1.csv" ||
		fail "$1: rows not all checked right"
}

# traffic NAME: ps's and ring's tx_total per call = 2(n-1)S = 2 S at 2 ranks
traffic() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == "ps" || $c["algo"] == "ring" { n++
		  if ($c["tx_total_bytes"] != 2 * $c["bytes"]) {
			print $c["algo"] " " $c["bytes"] " B: tx_total " $c["tx_total_bytes"] ", expected " 2 * $c["bytes"]; bad = 1 } }
		END { if (n != 4) { print n " ps/ring rows"; bad = 1 }; exit bad }' "$out/$1.csv" ||
		fail "$1: the per-call traffic is not one call's"
}

# meta NAME KEY VALUE: the metadata has "KEY": VALUE
meta() {
	grep -qF "\"$2\": $3" "$out/$1.meta.json" || fail "$1: metadata lacks \"$2\": $3: $(grep -F "\"$2\"" "$out/$1.meta.json")"
}

# header NAME TEXT: the "# timing:" line holds TEXT
header() {
	grep '^# timing: ' "$out/$1.out" | grep -F -- "$2" >/dev/null || fail "$1: '# timing:' does not say '$2'"
}

# refused ARGS... TEXT (the last): --check-args exits 2 naming TEXT
refused() {
	local text=${*: -1} rc=0
	"$bin/$prog" --check-args "${@:1:$#-1}" >"$out/r.out" 2>"$out/r.err" || rc=$?
	[ "$rc" = 2 ] || fail "${*:1:$#-1}: exit $rc, expected 2"
	grep -qF -- "$text" "$out/r.err" || fail "${*:1:$#-1}: the message lacks '$text': $(cat "$out/r.err")"
}

case $case in
aggregate)
	launch agg_iter -m 3 -n 1
	launch agg_loop -m 3 -n 2 -z 0
	for r in agg_iter agg_loop; do
		rows_ok $r
		traffic $r
		meta $r agg_iters 3
		header $r "-m 3: 3 calls back to back per timed iteration"
		header $r "per-operation throughput, not a single call's latency"
	done
	meta agg_iter timing_mode '"iter"'
	meta agg_loop timing_mode '"loop"'
	;;
blocking)
	for z in 1 2 3; do
		launch z$z -z $z -m 2 -n 2
		rows_ok z$z
		traffic z$z
		meta z$z blocking $z
		header z$z "-z $z (nccl-tests' blocking mode)"
	done
	meta z1 timing_mode '"loop"'
	meta z2 timing_mode '"loop"'
	meta z3 timing_mode '"iter"'
	meta z1 report_cputime 0
	;;
cputime)
	launch c -C 1 -m 2 -n 2
	rows_ok c
	traffic c
	meta c report_cputime 1
	meta c blocking null
	header c "-C 1: time_us, its median, min and max are the host's time to issue a call"
	;;
refusals)
	refused -z 3 --timing loop "-z/--blocking 3 (each iteration timed alone, --timing iter) and --timing loop contradict"
	refused -z 1 --timing iter "-z/--blocking 1 (the iterations back to back, --timing loop) and --timing iter contradict"
	refused -m 0 "-m/--agg_iters: expected an integer in [1, 1000000]"
	refused -C 2 "-C/--report_cputime: expected an integer in [0, 1]"
	refused -z 4 "-z/--blocking: '4' is not 0, 1, 2 or 3"
	;;
*) fail "unknown case $case" ;;
esac
