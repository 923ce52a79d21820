#!/usr/bin/env bash
# nccl-tests' ending of a run, read as nccl-tests' users read it: the footer
# lines with the grep and awk of a cluster-validation script, NCCL_TESTS_MIN_BW
# with the exit status, -J's JSON with the fields nccl-tests 2.19 writes
# (src/util.cu). The expectations are written from nccl-tests' output
# format, not from collbench's code; the values are checked against the CSV
# rows of the same run.
#   nccl_tests_out.sh BIN CASE
#   footer        the two lines once each, their values = the CSV's (the
#                 library algorithm mpi's: #wrong summed, mean busbw over
#                 its rows); a line per algorithm too, which nccl-tests' grep
#                 does not match; -q keeps the footer
#   min_bw        NCCL_TESTS_MIN_BW far below the measured mean: exit 0 and
#                 "OK"; far above: exit 1, "FAILED", a message on stderr,
#                 the CSV and -J complete
#   json          -J's document: nccl-tests' keys and nesting, values = the CSV's
#   json_errors   -J into a missing folder or naming --csv's file,
#                 NCCL_TESTS_MIN_BW not a number: exit 2 before any row, the
#                 message naming it, no file
# CB_NCT_ARGS: more options for every launch, CB_NCT_LIB: the library
# algorithm (tests/cuda_model gives "-B cuda" and nccl, on its model of CUDA
# and NCCL; BIN there has allreduce_perf only, which the checks then name).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
lib=${CB_NCT_LIB:-mpi}
read -r -a extra <<<"${CB_NCT_ARGS:-}"
prog=all_reduce_perf
[ -x "$bin/$prog" ] || prog=allreduce_perf
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun cb_singleton cb_launch_env

# launch NAME ARGS...: all_reduce_perf on 2 ranks, 8 B to 4 KiB (x4), the
# ring and the library allreduce, into $out/NAME.{csv,out,err}; sets rc.
# single NAME ARGS...: the same as one rank without mpirun (the refusals:
# mpirun's teardown after a failed rank takes seconds)
single() {
	local name=$1
	shift
	rc=0
	timeout 60 bash -c 'cb_singleton "$@"' _ "$bin/$prog" -b 8 -e 4K --algo "ring,$lib" \
		--csv "$out/$name.csv" ${extra[@]+"${extra[@]}"} "$@" >"$out/$name.out" 2>"$out/$name.err" ||
		rc=$?
}
launch() {
	local name=$1
	shift
	rc=0
	timeout 120 bash -c 'cb_mpirun "$@"' _ -np 2 "$bin/$prog" -b 8 -e 4K -f 4 \
		-n 3 -w 1 --algo "ring,$lib" --csv "$out/$name.csv" ${extra[@]+"${extra[@]}"} "$@" \
		>"$out/$name.out" 2>"$out/$name.err" || rc=$?
}

# csv_mean ALGO FILE: mean busbw_GBps of ALGO's measured rows (nccl-tests
# averages every row it timed, a wrong one too); csv_wrong: #wrong summed
csv_mean() {
	awk -F, -v a="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == a && $c["busbw_GBps"] != "" && $c["status"] !~ /^(skipped|error)/ {
			s += $c["busbw_GBps"]; n++ }
		END { if (n) printf "%.9g\n", s / n; else print "none" }' "$2"
}
csv_wrong() {
	awk -F, -v a="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == a { s += $c["wrong"] } END { print s + 0 }' "$2"
}

# close A B: |A - B| <= 1e-4 |B| (the footer's %g keeps 6 digits, as the CSV)
close() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
		exit !(d <= 1e-4 * m) }'
}

# A validation script's reading of nccl-tests' footer (stdout in $1).
avg_bw() { grep '# Avg bus bandwidth' "$1" | awk '{print $NF}'; }
oob() { grep '# Out of bounds values' "$1" | awk '{print $(NF-1), $NF}'; }

case $case in
footer)
	launch f
	[ "$rc" = 0 ] || { cat "$out/f.err" >&2; fail "the run failed ($rc)"; }
	cb_complete_lines "$out/f.csv"
	[ "$(grep -c '# Avg bus bandwidth' "$out/f.out")" = 1 ] ||
		fail "not one '# Avg bus bandwidth' line: $(cat "$out/f.out")"
	[ "$(grep -c '# Out of bounds values' "$out/f.out")" = 1 ] || fail "not one out-of-bounds line"
	# nccl-tests' exact form: "# %-20s : ..." (the names padded to 20)
	grep -E '^# Out of bounds values : [0-9]+ (OK|FAILED)$' "$out/f.out" >/dev/null ||
		fail "out-of-bounds line not in nccl-tests' form"
	grep -E '^# Avg bus bandwidth    : [-+.0-9e]+ $' "$out/f.out" >/dev/null ||
		fail "average line not in nccl-tests' form (no gate: a trailing space)"
	grep -x "# Collective test concluded: $prog" "$out/f.out" >/dev/null ||
		fail "no 'Collective test concluded' line"
	want=$(csv_mean "$lib" "$out/f.csv")
	got=$(avg_bw "$out/f.out")
	close "$got" "$want" || fail "Avg bus bandwidth $got, the CSV's $lib rows average $want"
	[ "$(oob "$out/f.out")" = "$(csv_wrong "$lib" "$out/f.csv") OK" ] ||
		fail "out of bounds '$(oob "$out/f.out")', the CSV's $lib rows: $(csv_wrong "$lib" "$out/f.csv")"
	# the ring's own line: its mean, and a form nccl-tests' grep leaves alone
	ring=$(sed -n 's/^#  ring *: #wrong 0 OK, avg busbw \([^ ]*\) GB\/s over [0-9]* rows$/\1/p' \
		"$out/f.out")
	[ -n "$ring" ] || fail "no line for the ring: $(cat "$out/f.out")"
	close "$ring" "$(csv_mean ring "$out/f.csv")" || fail "ring's mean $ring"
	# -q: no table rows, the footer still there
	launch q -q
	[ "$rc" = 0 ] || fail "-q: the run failed ($rc)"
	grep -E "^ +(ring|$lib) " "$out/q.out" >/dev/null && fail "-q printed table rows"
	[ -n "$(avg_bw "$out/q.out")" ] || fail "-q: no footer"
	;;
min_bw)
	launch m --algo "$lib"
	[ "$rc" = 0 ] || fail "the first run failed ($rc)"
	mean=$(csv_mean "$lib" "$out/m.csv")
	low=$(awk -v m="$mean" 'BEGIN { printf "%.9g", m / 100 }')
	high=$(awk -v m="$mean" 'BEGIN { printf "%.9g", m * 100 }')
	NCCL_TESTS_MIN_BW=$low launch lo --algo "$lib"
	[ "$rc" = 0 ] || { cat "$out/lo.err" >&2; fail "NCCL_TESTS_MIN_BW=$low (mean $mean): exit $rc"; }
	grep -E '^# Avg bus bandwidth    : [-+.0-9e]+ OK$' "$out/lo.out" >/dev/null ||
		fail "no 'OK' after the average under NCCL_TESTS_MIN_BW=$low"
	NCCL_TESTS_MIN_BW=$high launch hi --algo "$lib" -J "$out/hi.json"
	[ "$rc" = 1 ] || fail "NCCL_TESTS_MIN_BW=$high (mean $mean): exit $rc, expected 1"
	grep -E '^# Avg bus bandwidth    : [-+.0-9e]+ FAILED$' "$out/hi.out" >/dev/null ||
		fail "no 'FAILED' after the average under NCCL_TESTS_MIN_BW=$high"
	grep 'below 0.9 x NCCL_TESTS_MIN_BW' "$out/hi.err" >/dev/null ||
		fail "no message on stderr: $(cat "$out/hi.err")"
	cb_complete_lines "$out/hi.csv"
	[ "$(wc -l <"$out/hi.csv")" = "$(wc -l <"$out/m.csv")" ] || fail "the failing run's CSV lacks rows"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["average_bus_bandwidth"]["okay"] == "false", d["average_bus_bandwidth"]' "$out/hi.json" ||
		fail "-J of the failing run"
	python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))
assert m["status"] == "complete", m["status"]
n = m["nccl_tests"]
assert n["gate"] == "failed" and n["algorithm"] == sys.argv[2] and n["min_bw"] > n["avg_busbw"], n
' "$out/hi.meta.json" "$lib" || fail "the failing run's metadata"
	;;
json)
	launch j -J "$out/j.json"
	[ "$rc" = 0 ] || { cat "$out/j.err" >&2; fail "the run failed ($rc)"; }
	grep -x "# Writing JSON output to $out/j.json" "$out/j.out" >/dev/null ||
		fail "no 'Writing JSON output' line"
	python3 "$(dirname "$0")/nccl_tests_json.py" "$out/j.json" "$out/j.csv" "$lib" "$prog" ||
		fail "-J's document"
	;;
json_errors)
	single bad -J "$out/missing/x.json"
	[ "$rc" = 2 ] || fail "-J into a missing folder: exit $rc, expected 2"
	grep -- '-J (--output_file)' "$out/bad.err" >/dev/null || fail "no message naming -J: $(cat "$out/bad.err")"
	[ ! -e "$out/bad.csv" ] || fail "a run that did not start left its CSV"
	single same -J "$out/same.csv"
	[ "$rc" = 2 ] || fail "-J naming --csv's file: exit $rc, expected 2"
	grep 'name the same file' "$out/same.err" >/dev/null || fail "no message: $(cat "$out/same.err")"
	# --check-args (sweep.sh's check) refuses it too, as the run would
	rc=0
	"$bin/all_reduce_perf" --check-args --csv "$out/c.csv" -J "$out/c.meta.json" >/dev/null \
		2>"$out/c.err" || rc=$?
	[ "$rc" = 2 ] || fail "--check-args with -J naming the metadata file: exit $rc, expected 2"
	grep 'name the same file' "$out/c.err" >/dev/null || fail "no message: $(cat "$out/c.err")"
	NCCL_TESTS_MIN_BW=fast single env
	[ "$rc" = 2 ] || fail "NCCL_TESTS_MIN_BW=fast: exit $rc, expected 2"
	grep "NCCL_TESTS_MIN_BW='fast'" "$out/env.err" >/dev/null || fail "no message: $(cat "$out/env.err")"
	;;
esac
