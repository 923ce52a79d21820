#!/usr/bin/env bash
# Busy and wait time (issue 13): the shapes, not the values, at 16 MiB on NP
# ranks of this host (oversubscribed on a small machine: margins generous).
#   time_shapes.sh BIN NP [--transport T]
# Checked, per rank CSV (columns by name), with --time-acct 2:
# - accounted time: busy_us + wait_us never above the rank's own time_us
#   (+5%: nothing counted twice) and, when every rank has a CPU, within 15%
#   of it (both measured inside the same iterations: nothing derived); with
#   more ranks than CPUs a rank descheduled between calls is in neither;
# - ps (root 0): for NP >= 4 the root's busy CPU time above every worker's
#   (it reduces n-1 messages, each worker copies 2; CPU time, as wall time
#   inside a copy also holds the time the rank was descheduled there, which
#   dominates on an oversubscribed host), and each worker's wait at least half
#   the root's busy time (they wait while it reduces n-1 >= 3 messages; at
#   n = 2 the plan's worker copies as much as the root reduces, pipelined
#   beside it, so its wait has no such bound);
# - ring: every rank's busy CPU time within 2x of every other's (even work);
# - mpi (a library): busy and wait empty, barrier measured;
# - the summary: p90 <= p99 <= max, cv >= 0, the straggler a rank of the run,
#   busy_imbalance >= 1 for ps and ring; --time-acct 0: busy/wait empty.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 np=$2
shift 2
transport=auto
[ "${1:-}" = --transport ] && transport=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
algos=ps,ring,mpi
[ "$transport" = auto ] || algos=ps,ring
cb_mpirun -np "$np" "$bin/allreduce_perf" -b 16M -e 16M -n 10 -w 2 -c 1 --algo "$algos" \
	--transport "$transport" --time-acct 2 -T 120 -q --csv "$out/s.csv" --rank-csv "$out/r.csv"
cb_complete_lines "$out/s.csv"
cb_complete_lines "$out/r.csv"

# awk over a CSV with its header: v("name") is the field of column name
AWK_COLS='NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
function v(name) { if (!(name in col)) { print "no column " name; bad = 1; exit 1 } return $col[name] }'

free=1
[ "$np" -le "$(nproc)" ] || free=0
awk -F, -v np="$np" -v free="$free" "$AWK_COLS"'
{ a = v("algo"); r = v("rank"); busy[a, r] = v("busy_us"); wait[a, r] = v("wait_us"); cpu[a, r] = v("busy_cpu_us")
  t = v("time_us"); bar = v("barrier_us")
  if (a == "mpi") {
    if (busy[a, r] != "" || wait[a, r] != "") { print "mpi rank " r ": busy/wait not empty"; bad = 1 }
    if (bar == "") { print "mpi rank " r ": no barrier time"; bad = 1 }
    next
  }
  if (busy[a, r] == "" || wait[a, r] == "" || bar == "" || cpu[a, r] == "") { print a " rank " r ": busy/wait/barrier/cpu empty"; bad = 1; next }
  acc = busy[a, r] + wait[a, r]
  if (acc > 1.05 * t || (free && acc < 0.85 * t))
    { printf "%s rank %d: busy %g + wait %g = %g, not within %s of its time %g\n", a, r, busy[a, r], wait[a, r], acc, free ? "15%" : "+5%", t; bad = 1 }
}
END {
  if (bad) exit 1
  for (r = 1; r < np; r++) {
    if (np >= 4 && !(cpu["ps", 0] > cpu["ps", r]))
      { printf "ps: root busy CPU %g not above worker %d busy CPU %g\n", cpu["ps", 0], r, cpu["ps", r]; bad = 1 }
    if (np >= 4 && !(wait["ps", r] >= 0.5 * busy["ps", 0]))
      { printf "ps: worker %d waits %g, under half the root busy %g\n", r, wait["ps", r], busy["ps", 0]; bad = 1 }
  }
  for (r = 0; r < np; r++) for (q = 0; q < np; q++)
    if (cpu["ring", r] > 2 * cpu["ring", q])
      { printf "ring: rank %d busy CPU %g over twice rank %d busy CPU %g\n", r, cpu["ring", r], q, cpu["ring", q]; bad = 1 }
  exit bad
}' "$out/r.csv" || { cat "$out/r.csv" >&2; fail "busy/wait shapes (above)"; }

awk -F, -v np="$np" "$AWK_COLS"'
{ a = v("algo")
  if (v("status") != "ok") { print a ": " v("status"); bad = 1 }
  if (!(v("time_us_min") <= v("time_us_p90") && v("time_us_p90") <= v("time_us_p99") && v("time_us_p99") <= v("time_us_max")))
    { print a ": not min <= p90 <= p99 <= max"; bad = 1 }
  if (!(v("time_us_cv") >= 0)) { print a ": cv " v("time_us_cv"); bad = 1 }
  s = v("straggler_rank")
  if (s == "" || s < 0 || s >= np || !(v("straggler_share") > 0 && v("straggler_share") <= 1) || !(v("straggler_ratio") > 0))
    { print a ": straggler " s " share " v("straggler_share") " ratio " v("straggler_ratio"); bad = 1 }
  bi = v("busy_imbalance")
  if (a == "mpi" ? bi != "" : !(bi >= 1)) { print a ": busy_imbalance " bi; bad = 1 }
}
END { exit bad }' "$out/s.csv" || { cat "$out/s.csv" >&2; fail "summary columns (above)"; }

# without the accounting: the columns empty, the metadata says why
cb_mpirun -np 2 "$bin/allreduce_perf" -b 1M -e 1M -n 2 -w 0 --algo ring --time-acct 0 -q \
	--csv "$out/off.csv" --rank-csv "$out/off.r.csv"
awk -F, "$AWK_COLS"'{ if (v("busy_us") v("wait_us") v("barrier_us") v("busy_cpu_us") != "") bad = 1 } END { exit bad }' \
	"$out/off.r.csv" || fail "--time-acct 0 left busy/wait values"
grep -q '"unmeasured": "turned off (--time-acct 0)"' "$out/off.meta.json" ||
	fail "the metadata does not say the accounting was off"
echo "time shapes at np $np ($transport): ok"
