#!/usr/bin/env bash
# Library traffic from Open MPI's monitoring (collbench-results traffic, the
# flags in scripts/lib_launch.sh), and the same totals as an independent witness of
# collbench's own counters.
#   mpi_traffic.sh BIN CASE [--hosts LIST]
#   sample   the parser on captured output (tests/mpi/mpi_traffic/: 4 ranks, the
#            mpi algorithm, 2 calls at 1 MiB and at 0 bytes): 1.5 MiB each way
#            per rank (Open MPI's algorithm, visible in bytes); no monitoring
#            lines, a SIZED below ZERO or a torn line are refused
#   witness  ps and ring over p2p (MPI point-to-point), 16411 floats (uneven
#            chunks) in 1 KiB slices: Open MPI's per-peer totals (a file per
#            rank), read as sweep.sh reads them, equal collbench's tx/rx of every rank
#   mpi      a real measurement of MPI_Allreduce: every rank sends and
#            receives at least S per call (each input must leave its rank,
#            each output needs data from the others), sum tx = sum rx
#   sweep_files  sweep.sh --mpi-traffic: every results file of the run (the
#            launch's np<N>.csv, .ranks.csv, .jsonl, the table np<N>.txt)
#            holds the mpi traffic that summary.csv and ranks.csv hold
#   all_gather  sweep.sh --coll all_gather --mpi-traffic at 2 and 3 ranks:
#            MPI_Allgather's measured per-rank tx and rx beside the ring's
#            counted ones, both exactly (n-1)/n S at 1 MiB, and a run of
#            two collectives refused
#   forced   Open MPI's forced algorithms (mpi.*): every one exact at 2, 3, 4
#            and 8 ranks; skipped with the reason without dynamic rules; their
#            measured per-rank bytes at 1 MiB: basic_linear the ps formula
#            (root (n-1)S each way, workers S), recursive_doubling S log2 n
#            (n = 4, 8), ring 2(n-1)/n S (n = 2, 4, 8); sweep.sh's
#            library_choice files
# --hosts: on the multihost test bed (tests/beds/multihost/), as mpirun's
# --host takes them.
# Skipped (77) where Open MPI's monitoring component is absent.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
export PROG=mpi_traffic.sh
. "$CB_TESTS_DIR/../scripts/lib.sh"
bin=$1 case=$2
shift 2
hosts="" np=4
[ "${1:-}" != --hosts ] || hosts=$2
launch=(cb_mpirun)
if [ -n "$hosts" ]; then
	reason=$("$CB_TESTS_DIR/beds/multihost/bed.sh" check) || { echo "$reason"; exit 77; }
	launch=(cb_mpirun_bed "$hosts")
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# parse NP CALLS ZERO SIZED: "rank tx rx" per rank, as sweep.sh measures them
# (collbench-results traffic, whose lines are "nranks bytes rank tx rx calls")
parse() {
	rm -f "$out/parsed.txt"
	"$bin/collbench-results" traffic -n "$1" -b 1 -c "$2" --append "$out/parsed.txt" "$3" "$4" &&
		cut -d' ' -f3-5 "$out/parsed.txt"
}

# traffic FILE ALGO: "rank tx rx" of ALGO's rows with bytes > 0 in a per-rank CSV
traffic() {
	awk -F, -v a="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == a && $c["bytes"] > 0 { print $c["rank"], $c["tx_bytes"], $c["rx_bytes"] }' "$1"
}

# measure ALGO COUNT ARGS...: one monitored launch at COUNT elements and one at
# 0 (same settings); sets per (the parser's lines) and leaves the per-rank
# CSV of the COUNT launch in $out/r.csv. -w 1 -n 2 -c 1: 4 calls per row.
measure() {
	local a=$1 count=$2 c
	shift 2
	for c in 0 "$count"; do
		# each rank's totals in a file of its own, as sweep.sh reads them (one
		# name for both launches: the ranks exchange their environment)
		cb_monitoring_env "$out/mon"
		# shellcheck disable=SC2154 # cb_monitoring_vars: scripts/lib_launch.sh
		(export "${cb_monitoring_vars[@]}"
		 "${launch[@]}" -np "$np" "$bin/allreduce_perf" --algo "$a" --counts "$c" -d float \
			-w 1 -n 2 -c 1 -T 120 -q --csv "$out/s.csv" --rank-csv "$out/r.csv" "$@") \
			>"$out/mon$c.txt" 2>&1 ||
			fail "$a: launch at $c elements failed: $(tail -5 "$out/mon$c.txt")"
		cb_monitoring_collect "$out/mon" "$out/mon$c.txt" || fail "$a: no monitoring files at $c elements"
	done
	per=$(parse "$np" 4 "$out/mon0.txt" "$out/mon$count.txt") ||
		fail "$a: the parser refused the launch's output"
}

if [ "$case" != sample ]; then
	why=$(cb_monitoring_missing) || { echo "skipped: $why"; exit 77; }
fi
case $case in
sample)
	d=$CB_TESTS_DIR/mpi/mpi_traffic
	got=$(parse 4 2 "$d/np4-0.txt" "$d/np4-1M.txt") || fail "sample refused"
	want=$(printf '%s 1572864 1572864\n' 0 1 2 3)
	[ "$got" = "$want" ] || fail "sample: got $got"
	# the 0-byte launch alone as SIZED (it has lines): nothing moved per call
	cp "$d/np4-0.txt" "$out/zero2.txt"
	got=$(parse 4 2 "$d/np4-0.txt" "$out/zero2.txt") || fail "0 - 0 refused"
	[ "$got" = "$(printf '%s 0 0\n' 0 1 2 3)" ] || fail "0 - 0: got $got"
	grep -v '^[EI]' "$d/np4-1M.txt" >"$out/none.txt"
	if parse 4 2 "$d/np4-0.txt" "$out/none.txt" 2>"$out/err"; then
		fail "no monitoring lines accepted"
	fi
	grep -q 'no monitoring lines' "$out/err" || fail "no reason for no lines: $(cat "$out/err")"
	if parse 4 2 "$d/np4-1M.txt" "$d/np4-0.txt" 2>"$out/err"; then
		fail "a SIZED below ZERO accepted"
	fi
	grep -q 'fewer' "$out/err" || fail "no reason for SIZED < ZERO: $(cat "$out/err")"
	# two ranks' lines run together, as they did printed to one stream: the
	# tag of one total ends up before another rank's line, and is refused
	sed '/^I\t2\t3\t/s/^I/IA2A\t3\t384 bytes\t17 msgs sent\n/' "$d/np4-1M.txt" >"$out/torn.txt"
	[ "$(grep -c '^IA2A' "$out/torn.txt")" = 1 ] || fail "the torn copy was not made"
	if parse 4 2 "$d/np4-0.txt" "$out/torn.txt" 2>"$out/err"; then
		fail "a torn monitoring line accepted"
	fi
	grep -q 'torn monitoring line' "$out/err" || fail "no reason for a torn line: $(cat "$out/err")"
	;;
witness)
	for a in ps ring; do
		measure "$a" 16411 --transport p2p --slicebytes 1K -r 1
		ours=$(traffic "$out/r.csv" "$a")
		[ "$(wc -l <<<"$ours")" = "$np" ] || fail "$a: not $np per-rank rows: $ours"
		# collbench counted something, and Open MPI saw the same bytes
		[ "$(awk '{ t += $2 } END { print (t > 0) }' <<<"$ours")" = 1 ] || fail "$a: no traffic counted"
		[ "$per" = "$ours" ] || fail "$a: Open MPI's totals (rank tx rx)
$per
differ from collbench's counters
$ours"
		echo "$a: Open MPI's monitoring and collbench agree: $(tr '\n' ';' <<<"$ours")"
	done
	;;
mpi)
	measure mpi 262144
	s=1048576
	awk -v s=$s '$2 < s || $3 < s { bad = 1 } { t += $2; r += $3 } END { exit bad || t != r }' \
		<<<"$per" || fail "mpi: not tx, rx >= S on every rank with sum tx = sum rx: $per"
	echo "mpi at 1 MiB on $np ranks: $(tr '\n' ';' <<<"$per")"
	;;
all_gather)
	cb_launch_env
	CB_BIN=$bin "$CB_TESTS_DIR/../scripts/sweep.sh" --ranks 2,3 -b 1M -e 1M --iters 2 -w 0 \
		-a ring,mpi --coll all_gather --mpi-traffic --out "$out/run" >"$out/log" 2>&1 ||
		fail "sweep failed: $(tail -20 "$out/log")"
	# "algo nranks bytes rank tx rx" of every per-rank row
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } {
		print $c["algo"], $c["nranks"], $c["bytes"], $c["rank"], $c["tx_bytes"], $c["rx_bytes"],
			$c["collective"] }' "$out/run/ranks.csv" >"$out/rows"
	[ "$(awk '$1 == "mpi"' "$out/rows" | wc -l)" = 5 ] || fail "not 5 mpi per-rank rows: $(cat "$out/rows")"
	awk '$7 != "all_gather" { bad = 1 }
		{ want = int($3 / $2) * ($2 - 1); d1 = $5 - want; d2 = $6 - want
		  if (d1 || d2) { print "rank row " $0 ": want " want " exactly"; bad = 1 } }
		END { exit bad }' "$out/rows" || fail "all_gather traffic (algo n bytes rank tx rx): $(cat "$out/rows")"
	CB_BIN=$bin "$CB_TESTS_DIR/../scripts/sweep.sh" --ranks 2 --coll all_gather,reduce --mpi-traffic \
		--out "$out/two" >"$out/log" 2>&1 && fail "--mpi-traffic with two collectives ran"
	grep -q "one collective per run" "$out/log" || fail "no clear message: $(cat "$out/log")"
	;;
sweep_files)
	cb_launch_env
	CB_BIN=$bin "$CB_TESTS_DIR/../scripts/sweep.sh" --ranks 2 -b 64K -e 256K -f 4 --iters 2 -w 0 \
		-a ring,mpi --mpi-traffic --out "$out/run" >"$out/log" 2>&1 || fail "sweep failed: $(tail -20 "$out/log")"
	r=$out/run
	# "nranks bytes tx_total txrx_max imbalance(%.3f)" of the mpi rows of a summary CSV, a
	# JSON Lines file, a table; "nranks bytes rank tx rx" of a per-rank CSV
	csv_rows() {
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["algo"] == "mpi" {
			printf "%s %s %s %s %.3f\n", $c["nranks"], $c["bytes"], $c["tx_total_bytes"],
				$c["txrx_max_bytes"], $c["imbalance"] }' "$1"
	}
	json_rows() {
		awk 'function v(k) { if (!match($0, "[{,]\"" k "\":[^,}]*")) return "?"
				s = substr($0, RSTART, RLENGTH); sub(/^[^:]*:/, "", s); return s }
			/"algo":"mpi"/ { printf "%s %s %s %s %.3f\n", v("nranks"), v("bytes"),
				v("tx_total_bytes"), v("txrx_max_bytes"), v("imbalance") }' "$1"
	}
	table_rows() { awk -v np="$2" '$1 == "mpi" { print np, $2, $12, $13, $14 }' "$1"; }
	rank_rows() {
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["algo"] == "mpi" {
			print $c["nranks"], $c["bytes"], $c["rank"], $c["tx_bytes"], $c["rx_bytes"] }' "$1"
	}
	want=$(csv_rows "$r/summary.csv")
	[ "$(wc -l <<<"$want")" = 2 ] && awk '!($3 > 0 && $4 > 0 && $5 >= 1) { bad = 1 } END { exit bad }' <<<"$want" ||
		fail "summary.csv: the mpi rows' traffic is not measured: $want"
	for got in "np2.csv:$(csv_rows "$r/np2.csv")" "np2.jsonl:$(json_rows "$r/np2.jsonl")" \
		"np2.txt:$(table_rows "$r/np2.txt" 2)"; do
		[ "${got#*:}" = "$want" ] || fail "${got%%:*} says
${got#*:}
where summary.csv says
$want"
	done
	want=$(rank_rows "$r/ranks.csv")
	[ "$(wc -l <<<"$want")" = 4 ] && ! grep -q ' $' <<<"$want" || fail "ranks.csv: mpi tx/rx not measured: $want"
	[ "$(rank_rows "$r/np2.ranks.csv")" = "$want" ] ||
		fail "np2.ranks.csv says $(rank_rows "$r/np2.ranks.csv") where ranks.csv says $want"
	echo "mpi traffic in every file of the run: $(tr '\n' ';' <<<"$want")"
	;;
forced)
	cb_launch_env
	all=mpi.basic_linear,mpi.nonoverlapping,mpi.recursive_doubling,mpi.ring,mpi.segmented_ring,mpi.rabenseifner
	"${launch[@]}" -np 2 "$bin/allreduce_perf" --algo mpi.ring -b 1K -e 1K >"$out/off.txt" 2>&1 ||
		fail "without dynamic rules: $(tail -5 "$out/off.txt")"
	grep -q "mpi.ring .*skipped:Open MPI forces an algorithm only with OMPI_MCA_coll_tuned_use_dynamic_rules=1" \
		"$out/off.txt" || fail "no reason for the skipped rows: $(tail -5 "$out/off.txt")"
	for n in 2 3 4 8; do
		OMPI_MCA_coll_tuned_use_dynamic_rules=1 "${launch[@]}" -x OMPI_MCA_coll_tuned_use_dynamic_rules \
			-np "$n" "$bin/allreduce_perf" --algo "$all" -b 4 -e 1M -f 32 -c 1 -d int32 -n 3 -w 1 \
			--csv "$out/c$n.csv" >"$out/c$n.txt" 2>&1 || fail "$n ranks: $(tail -5 "$out/c$n.txt")"
		bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["status"] != "ok" || $c["wrong"] != 0 { print $c["algo"], $c["bytes"], $c["status"] }' "$out/c$n.csv")
		rows=$(($(wc -l <"$out/c$n.csv") - 1))
		[ -z "$bad" ] && [ "$rows" = 24 ] || fail "$n ranks: $rows rows, not ok or wrong: $bad"
	done
	CB_BIN=$bin "$CB_TESTS_DIR/../scripts/sweep.sh" --ranks "2 3 4 8" -b 1M -e 1M --iters 2 -w 0 \
		-a mpi,mpi.basic_linear,mpi.recursive_doubling,mpi.ring --mpi-traffic --out "$out/run" \
		>"$out/log" 2>&1 || fail "sweep failed: $(tail -20 "$out/log")"
	grep -q "OMPI_MCA_coll_tuned_use_dynamic_rules=1 for the launches" "$out/log" ||
		fail "sweep.sh did not say it set the dynamic rules"
	# "ok" when every rank of ALGO at n ranks moved what the formula says
	# (S = 1 MiB) within 64 B (a margin: the 0-byte launch cancels the
	# harness's own messages exactly), else what it moved
	S=1048576
	check_algo() {
		awk -F, -v a="$1" -v n="$2" -v S=$S 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["algo"] == a && $c["nranks"] == n {
				r = $c["rank"]
				if (a == "mpi.basic_linear") w = r == 0 ? (n - 1) * S : S
				else if (a == "mpi.recursive_doubling") w = S * log(n) / log(2)
				else w = 2 * (n - 1) / n * S
				k++
				dt = $c["tx_bytes"] - w; dr = $c["rx_bytes"] - w
				if (dt < 0 || dt > 64 || dr < 0 || dr > 64)
					bad = bad " rank " r ": " $c["tx_bytes"] "/" $c["rx_bytes"] " want " w
			}
			END { if (k == n && bad == "") print "ok"; else print k " ranks" bad }' "$out/run/ranks.csv"
	}
	for n in 2 3 4 8; do
		[ "$(check_algo mpi.basic_linear $n)" = ok ] || fail "basic_linear at $n: $(check_algo mpi.basic_linear $n)"
	done
	for n in 4 8; do
		[ "$(check_algo mpi.recursive_doubling $n)" = ok ] ||
			fail "recursive_doubling at $n: $(check_algo mpi.recursive_doubling $n)"
	done
	for n in 2 4 8; do
		[ "$(check_algo mpi.ring $n)" = ok ] || fail "ring at $n: $(check_algo mpi.ring $n)"
	done
	# which one the default ran: a line per rank count, its traffic measured
	lc=$out/run/library_choice.csv
	[ -s "$lc" ] && [ "$(tail -n +2 "$lc" | wc -l)" = 4 ] && ! grep -q unmeasured "$lc" &&
		[ -s "$out/run/library_choice.txt" ] && [ -s "$out/run/library_choice.json" ] ||
		fail "library_choice: $(cat "$lc" 2>/dev/null)"
	echo "forced algorithms exact at 2, 3, 4, 8 ranks; traffic as the formulas"
	;;
*)
	fail "unknown case $case"
	;;
esac
