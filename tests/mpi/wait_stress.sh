#!/usr/bin/env bash
# No lost wake-up under many small allreduces (issue 14): ps and ring on NP
# ranks (8 on a 2-core machine: oversubscribed, so most waits sleep), every
# result checked. The futex waits run with an hour-long tick
# (CB_WAIT_TICK_MS): a lost wake-up then hangs a rank instead of costing it
# one tick, and the watchdog (-T 30) fails the run. Two runs: the default
# poll-yield-sleep wait, then one that sleeps at once (the most wake-ups).
#   wait_stress.sh BIN [NP]
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 np=${2:-8}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export CB_WAIT_TICK_MS=3600000
unset CB_WAIT_SPIN_NS CB_WAIT_YIELD_NS
pass=(-x CB_WAIT_TICK_MS)
for run in default sleep; do
	if [ "$run" = sleep ]; then
		export CB_WAIT_SPIN_NS=0 CB_WAIT_YIELD_NS=0
		pass+=(-x CB_WAIT_SPIN_NS -x CB_WAIT_YIELD_NS)
	fi
	cb_mpirun "${pass[@]}" -np "$np" \
		"$bin/allreduce_perf" --algo ps,ring --counts 1,2,7,64,256,4096 -n 2000 -w 10 -c 1 -T 30 \
		--wait futex -q --csv "$out/$run.csv" ||
		fail "$run: the run failed (a hang the watchdog caught is a lost wake-up)"
	cb_complete_lines "$out/$run.csv"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["status"] != "ok" || $c["wrong"] != 0 { bad++ } END { exit bad > 0 || NR != 13 }' \
		"$out/$run.csv" || fail "$run: rows not ok or missing: $(cat "$out/$run.csv")"
	grep -q '"tick_ms": 3600000' "$out/$run.meta.json" || fail "$run: the long tick was not in force"
done
