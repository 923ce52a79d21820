#!/usr/bin/env bash
# Both modes in one launch (--inplace both, the default), read from the
# outputs as nccl-tests' users read them: its table prints per line
# "out-of-place: time algbw busbw #wrong" then "in-place: ..." (src/common.cu),
# its footer averages busbw over every size and both modes, and its -J writes
# "out_of_place" and "in_place" per size (null for a mode not run).
#   modes.sh BIN CASE
#   table     2 ranks, ring and copy (copy refuses in place): the header
#             names both groups; one line per (algo, size); each half's time
#             and busbw are the CSV's row of that mode; copy's in-place half
#             says skipped; the CSV has a row per mode
#   footer    the ring's line and nccl-tests' average: over all 8 rows (4
#             sizes x 2 modes), = the CSV's mean; NCCL_TESTS_MIN_BW gates it
#             (0: OK; 50 x the mean: FAILED, exit 1)
#   json      -J: both modes per size = the CSV's; broadcast_perf's MPI_Bcast
#             (no out of place): "out_of_place" null, "in_place" measured
#   one_mode  --inplace 0: today's one-mode table (its ip column), one CSV
#             row per (algo, size); the default without --inplace is both
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun

# launch NAME PROG ARGS...: PROG on 2 ranks, 8 B to 4 KiB (x8), into
# $out/NAME.{csv,out,err}; fails the test when the exit status is not $want
# (default 0)
launch() {
	local name=$1 prog=$2 rc=0
	shift 2
	timeout 120 bash -c 'cb_mpirun "$@"' _ -np 2 "$bin/$prog" \
		-b 8 -e 4K -f 8 -n 2 -w 1 --csv "$out/$name.csv" "$@" >"$out/$name.out" \
		2>"$out/$name.err" || rc=$?
	[ "$rc" = "${want:-0}" ] || { cat "$out/$name.err" >&2; fail "$prog $*: exit $rc"; }
}

# csv ALGO IN_PLACE COLUMN STEM: that column of ALGO's rows of one mode, a line
# per size, as the table prints it (%.2f times; %.3f bandwidths, %.2e < 0.01)
csv() {
	awk -F, -v a="$1" -v ip="$2" -v col="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == a && $c["in_place"] == ip { v = $c[col]
			if (col == "time_us") printf "%.2f\n", v
			else if (v != 0 && v < 0.01) printf "%.2e\n", v
			else printf "%.3f\n", v }' "$4.csv"
}
# same LIST1 LIST2: two lists of numbers (a line each) agree line by line
# within the table's rounding (1% or 0.006: the CSV holds more digits than the
# table, so a value at a format's boundary prints differently, e.g. 1.00e-02
# against 0.010)
same() {
	awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, "\n"); if (n != split(b, y, "\n")) exit 1
		for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < 0) d = -d
			m = x[i] < 0 ? -x[i] : x[i]; if (d > 0.01 * m + 0.006) exit 1 } }'
}
# rows ALGO FIELD...: those whitespace fields of ALGO's table lines in
# $out/$run.out (run: the launch read, t by default)
rows() {
	local a=$1
	shift
	awk -v a="$a" -v f="$*" 'BEGIN { n = split(f, k, " ") } $1 == a {
		s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") $k[i]; print s }' "$out/${run:-t}.out"
}

case $case in
table)
	launch t allreduce_perf --inplace both --algo ring,copy
	cb_complete_lines "$out/t.csv"
	grep -E '^#.*-+ out-of-place -+ +-+ in-place -+' "$out/t.out" >/dev/null ||
		fail "no header line naming the out-of-place and in-place groups: $(cat "$out/t.out")"
	grep -E '^# +algo +size +count +type +redop +time +algbw +busbw +#wrong +tx_total +time +algbw +busbw +#wrong +tx_total +status$' \
		"$out/t.out" >/dev/null || fail "the column names are not both modes'"
	[ "$(rows ring 2 | tr '\n' ' ')" = "8 64 512 4096 " ] || fail "not one ring line per size: $(rows ring 2)"
	[ "$(rows copy 2 | tr '\n' ' ')" = "8 64 512 4096 " ] || fail "not one copy line per size"
	# fields: 1 algo .. 5 redop, 6-10 out of place, 11-15 in place, 16 status
	t=$out/t
	same "$(rows ring 6)" "$(csv ring 0 time_us "$t")" || fail "ring's out-of-place times are not the CSV's"
	same "$(rows ring 11)" "$(csv ring 1 time_us "$t")" || fail "ring's in-place times are not the CSV's"
	same "$(rows ring 8)" "$(csv ring 0 busbw_GBps "$t")" || fail "ring's out-of-place busbw"
	same "$(rows ring 13)" "$(csv ring 1 busbw_GBps "$t")" || fail "ring's in-place busbw"
	[ "$(rows ring 9 14 16 | sort -u)" = "0 0 ok" ] || fail "ring: #wrong or status: $(rows ring 9 14 16)"
	[ "$(rows copy 11 12 13 14 15 | sort -u)" = "skipped - - - -" ] ||
		fail "copy's in-place half is not shown as skipped: $(rows copy 11 12 13 14 15)"
	grep -E '^ +copy .* out-of-place ok; in-place skipped:' "$out/t.out" >/dev/null ||
		fail "copy's status does not give each mode's"
	# the CSV: a row per mode of each (algo, size), the skipped one too
	n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ k[$c["algo"] " " $c["bytes"] " " $c["in_place"]]++; n++ }
		END { for (x in k) if (k[x] != 1) { print "dup " x; exit } print n }' "$out/t.csv")
	[ "$n" = 16 ] || fail "the CSV: $n, not 16 rows (2 algos x 4 sizes x 2 modes)"
	;;
footer)
	NCCL_TESTS_MIN_BW=0 launch f allreduce_perf --inplace both --algo ring
	mean=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s += $c["busbw_GBps"]; n++ } END { printf "%d %.9g\n", n, s / n }' "$out/f.csv")
	[ "${mean%% *}" = 8 ] || fail "the CSV has ${mean%% *} rows, not 8"
	grep -E '^#  ring +: #wrong 0 OK, avg busbw [-+.0-9e]+ GB/s over 8 rows, NCCL_TESTS_MIN_BW OK$' "$out/f.out" >/dev/null ||
		fail "ring's footer line is not over 8 rows: $(grep '^#  ring' "$out/f.out")"
	got=$(grep '^# Avg bus bandwidth' "$out/f.out" | awk '{print $(NF-1)}') # then OK
	awk -v a="$got" -v b="${mean#* }" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-4 * b) }' ||
		fail "Avg bus bandwidth $got, the mean of both modes' rows ${mean#* }"
	# NCCL_TESTS_MIN_BW gates that mean (FAILED below 0.9 x the value): 0
	# passes, 50 times this run's mean fails with exit status 1
	grep -E '^# Avg bus bandwidth +: [-+.0-9e]+ OK$' "$out/f.out" >/dev/null ||
		fail "NCCL_TESTS_MIN_BW=0: not OK"
	m=${mean#* }
	NCCL_TESTS_MIN_BW=$(awk -v m="$m" 'BEGIN { printf "%.9g", m / 0.9 * 50 }') want=1 \
		launch hi allreduce_perf --inplace both --algo ring
	grep -E '^# Avg bus bandwidth +: [-+.0-9e]+ FAILED$' "$out/hi.out" >/dev/null ||
		fail "NCCL_TESTS_MIN_BW far above the mean: $(grep 'Avg bus' "$out/hi.out")"
	;;
json)
	launch j allreduce_perf --inplace both --algo ring -J "$out/j.json"
	launch b broadcast_perf --inplace both --algo mpi -J "$out/b.json"
	python3 "$(dirname "$0")/modes_json.py" "$out/j.json" "$out/j.csv" "$out/b.json" ||
		fail "-J's modes (above)"
	;;
one_mode)
	launch o allreduce_perf --inplace 0 --algo ring
	grep -E '^# +algo +size +count +type +redop +ip +time +median ' "$out/o.out" >/dev/null ||
		fail "--inplace 0: not the one-mode table: $(cat "$out/o.out")"
	! grep -q 'out-of-place' "$out/o.out" || fail "--inplace 0 printed the groups of both modes"
	[ "$(run=o rows ring 6 | sort -u)" = 0 ] || fail "--inplace 0: the ip column is not 0"
	[ "$(awk -F, 'NR > 1' "$out/o.csv" | wc -l)" = 4 ] || fail "--inplace 0: not a row per size"
	"$bin/allreduce_perf" --check-args | grep -x 'inplace=both' >/dev/null ||
		fail "the default is not both modes"
	;;
esac
