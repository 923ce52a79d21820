#!/usr/bin/env bash
# collbench-results, the one writer of a run folder's files besides
# allreduce_perf: each case checks the exit status (0 done, 1 write error, 2
# usage or input: nothing written) and what the files hold.
#   results.sh BIN CASE
#   merge         one header, every IN's rows in order, missing or empty INs
#                 left out; INs with another header refused, OUT untouched
#   set_traffic   the committed 2-host run's measured mpi traffic taken out of
#                 its np4 files, then put back: every file as committed
#                 (np4.csv, .ranks.csv, .jsonl, the table .txt)
#   run_meta      meta.json from KEY=VALUE words: JSON, table order, the
#                 committed reference run's keys all in the table; a bad key
#                 or value refused (exit 2) with nothing written
#   scripts_write_none  no script writes a results file itself: no .tmp
#                 file, no JSON text (they call collbench-results)
#   no_runtime    the tools that only read or write results files
#                 (collbench-compare, -history, -model, -results) need no MPI,
#                 CUDA or NCCL library (readelf -d)
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
res="$bin/collbench-results"
src=$CB_TESTS_DIR/..
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export LC_ALL=C

fail() { echo "FAIL ($case): $*" >&2; exit 1; }
# expect RC CMD...: runs CMD (stderr into $t/err), fails unless it exits RC
expect() {
	local want=$1 rc
	shift
	"$@" >"$t/out" 2>"$t/err"
	rc=$?
	[ "$rc" = "$want" ] || { cat "$t/err" >&2; fail "exit $rc, expected $want: $*"; }
}

case $case in
merge)
	printf 'schema,a,b\nx,1,2\n' >"$t/np1.csv"
	printf 'schema,a,b\nx,3,4\nx,5,6\n' >"$t/np2.csv"
	: >"$t/np3.csv"
	expect 0 "$res" merge "$t/all.csv" "$t/np1.csv" "$t/none.csv" "$t/np2.csv" "$t/np3.csv"
	[ "$(cat "$t/all.csv")" = "$(printf 'schema,a,b\nx,1,2\nx,3,4\nx,5,6')" ] ||
		fail "merged: $(cat "$t/all.csv")"
	printf 'schema,a,c\nx,7,8\n' >"$t/other.csv"
	cp "$t/all.csv" "$t/keep.csv"
	expect 2 "$res" merge "$t/all.csv" "$t/np1.csv" "$t/other.csv"
	grep -q "other.csv has another header" "$t/err" || fail "no reason: $(cat "$t/err")"
	cmp -s "$t/all.csv" "$t/keep.csv" || fail "a refused merge changed OUT"
	[ -z "$(find "$t" -name '*.tmp*')" ] || fail "a temporary was left"
	;;
set_traffic)
	run=$src/results/reference-2host
	for f in csv ranks.csv jsonl txt; do cp "$run/np4.$f" "$t/np4.$f"; done
	# take the mpi traffic out: empty in the CSVs, null in JSON, "-" in the table
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["algo"] == "mpi" { for (k in c) if (k ~ /^(tx_bytes|rx_bytes|tx_total_bytes|txrx_max_bytes|imbalance)$/) $c[k] = "" }
		{ print }' "$run/np4.csv" >"$t/np4.csv"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["algo"] == "mpi" { $c["tx_bytes"] = ""; $c["rx_bytes"] = "" } { print }' \
		"$run/np4.ranks.csv" >"$t/np4.ranks.csv"
	sed -E '/"algo":"mpi"/ s/"(tx_total_bytes|txrx_max_bytes|imbalance)":[0-9.e+-]+/"\1":null/g' \
		"$run/np4.jsonl" >"$t/np4.jsonl"
	awk '$1 == "mpi" && $15 == "ok" {
		printf " %6s %12s %12s %8s %6s %4s %11s %11s %8s %8s %7s %12s %12s %6s  %s\n",
			$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, "-", "-", "-", $15; next } { print }' \
		"$run/np4.txt" >"$t/np4.txt"
	for f in csv ranks.csv jsonl txt; do
		! cmp -s "$t/np4.$f" "$run/np4.$f" || fail "np4.$f: the traffic was not taken out"
	done
	expect 0 "$res" set-traffic -n 4 "$run/mpi_traffic.txt" "$t/np4.csv" "$t/np4.ranks.csv" \
		"$t/np4.jsonl" "$t/np4.txt"
	for f in csv ranks.csv jsonl txt; do
		cmp -s "$t/np4.$f" "$run/np4.$f" || { diff "$run/np4.$f" "$t/np4.$f" >&2; fail "np4.$f differs"; }
	done
	expect 2 "$res" set-traffic -n 4 "$run/mpi_traffic.txt" "$t/np4.meta.json"
	grep -q "not a .csv, .jsonl or .txt" "$t/err" || fail "an unknown form: $(cat "$t/err")"
	;;
run_meta)
	expect 0 "$res" run-meta "$t/m.json" run_id=r status=complete created_utc=20261201T120000Z \
		rank_counts=2,4 cpus_online=2 other_cpu_percent=7 launcher.name=mpirun launcher.job_id= \
		hosts= "error=" mpi_traffic.status=measured
	"$bin/check_results" --json "$t/m.json" || fail "not JSON: $(cat "$t/m.json")"
	grep -q '^  "rank_counts": \[2,4\],$' "$t/m.json" || fail "rank_counts: $(cat "$t/m.json")"
	grep -q '^  "launcher": {"name": "mpirun", "job_id": null},$' "$t/m.json" || fail "launcher"
	grep -q '"other_cpu_note": "percent of the 2 CPUs' "$t/m.json" || fail "the note"
	[ "$(sed -n 2p "$t/m.json")" = '  "schema": "collbench-run-1",' ] || fail "schema first"
	# every key of a real run is in the table (the docs list the same)
	"$res" run-meta --keys >"$t/keys" || fail "--keys"
	for k in $(grep -o '^  "[a-z_]*"' "$src/results/reference/meta.json" | tr -d ' "'); do
		grep -q "^| \`$k\` |" "$t/keys" || fail "key $k of results/reference/meta.json not in the table"
	done
	for bad in "nokey" "run_id=r status=done" "run_id=r status=running cpus_online=two" \
		"run_id=r status=running rank_counts=2,,4" "run_id=r status=running created_utc=2026-12-01" \
		"run_id=r status=running hosts= hosts.list=a" "status=running" "run_id=r status=running bogus=1" \
		"run_id=r status=running run_id=s"; do
		# shellcheck disable=SC2086 # bad: words
		expect 2 "$res" run-meta "$t/bad.json" $bad
		[ ! -e "$t/bad.json" ] || fail "$bad: a file was written"
	done
	[ -z "$(find "$t" -name '*.tmp*')" ] || fail "a temporary was left"
	;;
scripts_write_none)
	# a .tmp written, or JSON text, by a script: every results file is
	# written by allreduce_perf or collbench-results
	bad=$(grep -rnE '(>|cp |mv |cat ).*\.tmp|"schema": ?"collbench|printf .*\{\\n' "$src/scripts" |
		grep -vE '^[^:]*:[0-9]+:\s*#')
	[ -z "$bad" ] || fail "scripts write results themselves: $bad"
	# a here-document whose text is JSON (an object or a list)
	bad=$(find "$src/scripts" -type f -exec awk 'here && NF { if ($1 ~ /^[[{]/) print FILENAME ":" FNR ": " $0; here = 0 }
		/<<-?["\047]?[A-Z]+["\047]?[ \t]*$/ { here = 1 }' {} +)
	[ -z "$bad" ] || fail "a JSON here-document: $bad"
	;;
no_runtime)
	command -v readelf >/dev/null || { echo "skipped: no readelf"; exit 77; }
	n=0
	for tool in collbench-compare collbench-history collbench-model collbench-results; do
		[ -x "$bin/$tool" ] || continue # collbench-history: CB_WITH_HISTORY=OFF
		needed=$(readelf -d "$bin/$tool" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
		[ -n "$needed" ] || fail "$tool: readelf found no NEEDED entries"
		bad=$(grep -E '^lib(mpi|open-|cudart|cuda|nccl)' <<<"$needed" | tr '\n' ' ')
		[ -z "$bad" ] || fail "$tool needs $bad"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "only $n of the tools were built"
	;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
